/**
 * Companies House test data: the real excerpts in test/fixtures/companies/ (see its
 * SOURCES.md), and format-true GENERATED rows and files built from them (55 columns in the real header's
 * order, every value quoted, DD/MM/YYYY dates) where the excerpt lacks a case (statuses other than
 * Active, a PLC, EC1 and 62020 companies, later monthly snapshots).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvLine } from '../support/mirror-helper.js';

export const CH = join(import.meta.dirname, '..', 'fixtures', 'companies');
export const chFixture = (name: string) => join(CH, name);

const BASIC = readFileSync(chFixture('basic-sample.csv'), 'utf8');
const BASIC_LINES = BASIC.split('\n').filter((l) => l !== '');
/** The real header line (unquoted, leading spaces in 14 names). */
export const HEADER = BASIC_LINES[0]!;
export const COLUMNS = parseCsvLine(HEADER).map((h) => h.trim());
const GUIDE_ROW = readFileSync(chFixture('basic-sample-2022-chguide-row.csv'), 'utf8').split('\n').filter(Boolean)[1]!;
/** The 31 real rows of basic-sample.csv (2021), with 07687209's row replaced by its real 2022 row from the guide. */
export const REAL_LINES = BASIC_LINES.slice(1).map((l) => (l.includes('"07687209"') ? GUIDE_ROW : l));

export type CompanyFields = Record<string, string>;

/** A parsed row keyed by the trimmed header names. */
export const parseRow = (line: string): CompanyFields => {
  const f = parseCsvLine(line);
  return Object.fromEntries(COLUMNS.map((c, i) => [c, f[i] ?? '']));
};

/** A GENERATED row in the real format: every one of the 55 values quoted, inner quotes doubled. */
export function companyLine(v: CompanyFields): string {
  const defaults: CompanyFields = {
    CompanyCategory: 'Private Limited Company', CompanyStatus: 'Active', CountryOfOrigin: 'United Kingdom',
    'Mortgages.NumMortCharges': '0', 'Mortgages.NumMortOutstanding': '0', 'Mortgages.NumMortPartSatisfied': '0', 'Mortgages.NumMortSatisfied': '0',
    'LimitedPartnerships.NumGenPartners': '0', 'LimitedPartnerships.NumLimPartners': '0',
  };
  const all: CompanyFields = { ...defaults, ...v, URI: `http://business.data.gov.uk/id/company/${v.CompanyNumber}` };
  return COLUMNS.map((c) => `"${(all[c] ?? '').replace(/"/g, '""')}"`).join(',');
}

/** GENERATED rows covering what the real excerpt lacks (other statuses and types, EC1, 62020, 2026 incorporations, search ranks). */
export const GENERATED_LINES = [
  companyLine({ CompanyName: 'NSPIRED LIMITED', CompanyNumber: '14000001', CompanyStatus: 'Liquidation', IncorporationDate: '02/03/2022', 'RegAddress.AddressLine1': '1 CLERKENWELL ROAD', 'RegAddress.PostTown': 'LONDON', 'RegAddress.PostCode': 'EC1M 5PA', 'SICCode.SicText_1': '62020 - Information technology consultancy activities', 'Accounts.NextDueDate': '02/12/2023', ConfStmtNextDueDate: '16/03/2024' }),
  companyLine({ CompanyName: 'THE NSPIRED GROUP PLC', CompanyNumber: '14000002', CompanyCategory: 'Public Limited Company', IncorporationDate: '15/01/2026', 'RegAddress.AddressLine1': '20 ST JOHN STREET', 'RegAddress.PostTown': 'LONDON', 'RegAddress.PostCode': 'EC1V4PY', 'SICCode.SicText_1': '62020 - Information technology consultancy activities', 'SICCode.SicText_2': '70229 - Management consultancy activities other than financial management', 'Accounts.NextDueDate': '15/10/2027', ConfStmtNextDueDate: '10/12/2026' }),
  companyLine({ CompanyName: 'UNNSPIRED LTD', CompanyNumber: 'SC900003', CompanyStatus: 'Active - Proposal to Strike off', IncorporationDate: '03/11/2026', 'RegAddress.PostTown': 'EDINBURGH', 'RegAddress.PostCode': 'EH1 1AA', 'SICCode.SicText_1': 'None Supplied', 'Accounts.NextDueDate': '03/08/2028', ConfStmtNextDueDate: '16/11/2027' }),
  companyLine({ CompanyName: 'OLD SIC TRADING LIMITED', CompanyNumber: '01000004', IncorporationDate: '01/05/1975', 'RegAddress.PostCode': 'EC1A 1BB', 'SICCode.SicText_1': '7499 - Non-trading company', 'Accounts.NextDueDate': '30/09/2027', ConfStmtNextDueDate: '' }),
];

/** The test snapshot: real rows then generated rows, as one CSV text. */
export const csvText = (lines: string[]) => [HEADER, ...lines].join('\n') + '\n';

/** DD/MM/YYYY → YYYY-MM-DD (null for empty), written here independently of the loader. */
export const isoDate = (d: string): string | null => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(d.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
};

/** The GENERATED en_output.html page (no saved copy of the real page exists; links as on en_pscdata.html). */
export function outputPage(names: string[]): string {
  return `<!DOCTYPE html><html><head><title>Companies House Data Products</title></head><body>
<h1>Free Company Data Product</h1><p>GENERATED test page.</p><ul>
${names.map((n) => `<li><a href="${n}">${n}  (70Mb)</a></li>`).join('\n')}
</ul></body></html>`;
}

/** The company that leaves the register between the two monthly snapshots of `buildTwoMonths`. */
export const DEPARTING = '02714021';

/**
 * Sync `companies` twice into `<dir>/mirror` (the framework, real DuckDB): November with every fixture row,
 * then December without DEPARTING, so it is in `departed`. Returns the mirror folder.
 */
export async function buildTwoMonths(dir: string, lines: string[]): Promise<string> {
  const { buildDataset } = await import('../support/mirror-helper.js');
  const mirror = join(dir, 'mirror');
  const nov = join(dir, 'BasicCompanyDataAsOneFile-2026-11-01.csv');
  writeFileSync(nov, csvText(lines));
  await buildDataset('companies', nov, mirror);
  const dec = join(dir, 'BasicCompanyDataAsOneFile-2026-12-01.csv');
  writeFileSync(dec, csvText(lines.filter((l) => !l.includes(`"${DEPARTING}"`))));
  await buildDataset('companies', dec, mirror);
  return mirror;
}
