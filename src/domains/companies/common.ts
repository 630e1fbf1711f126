/**
 * Pieces the /v1/companies local handlers share: company-number validation, the company summary and
 * detail shapes from a `companies` row, looking a company up in the register or in `departed`, and the
 * notes a local answer carries where the open files cannot give what the live service gives.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { errors } from '../../contract/errors.js';
import type { HandlerContext } from '../../contract/types.js';
import { openDataset, queryOne, type Row } from '../../mirror/db.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import { jurisdictionOf } from './register-values.js';
import { sicCode, splitSicText } from './sic.js';
import { COMPANIES_INFO, PSC_INFO } from './datasets.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const COMPANIES = COMPANIES_INFO;
export const PSC = PSC_INFO;

/** What `--source live` adds, for meta notes. */
export const LIVE_HINT = "'--source live' (with an API key) answers from the live register";

/**
 * A company number as the register writes it: upper case, 8 characters; all-digit numbers are padded with
 * leading zeros (`445790` → `00445790`). Anything else is 400 before any data is read.
 */
export function companyNumber(raw: unknown): string {
  const s = String(raw ?? '').trim().toUpperCase().replace(/\s+/g, '');
  const n = /^\d{1,8}$/.test(s) ? s.padStart(8, '0') : s;
  if (!/^([A-Z]{2}\d{6}|\d{8}|R\d{7})$/.test(n)) {
    throw errors.invalidParameter(
      `company_number must be 8 characters: 8 digits (e.g. 00445790) or a 2-letter prefix and 6 digits (e.g. SC123456); got '${String(raw ?? '')}'.`,
    );
  }
  return n;
}

export const has = (ctx: HandlerContext, dataset: DatasetInfo): boolean => isDatasetPresent(dataset, ctx.mirrorDir);

/** A row of `companies` (or of `departed`, with `gone_by` and `last_seen` set and `last_status` for company_status). */
export interface CompanyRow extends Row {
  company_number: string;
  company_name: string;
  company_status: string | null;
  status_text: string | null;
  company_type: string | null;
  incorporation_date: string | null;
  dissolution_date: string | null;
  address_line_1: string | null;
  post_town: string | null;
  country: string | null;
  postcode: string | null;
  sic_codes: string[] | null;
  sic_texts: string[] | null;
  accounts_next_due: string | null;
  accounts_last_made_up_to: string | null;
  confirmation_next_due: string | null;
  /** Set for a company from `departed`. */
  gone_by?: string | null;
  last_seen?: string | null;
}

export const ROW_COLUMNS = `company_number, company_name, company_status, status_text, company_type, incorporation_date, dissolution_date,
  address_line_1, post_town, country, postcode, sic_codes, sic_texts, accounts_next_due, accounts_last_made_up_to, confirmation_next_due`;

/** The same columns from `departed`: a departed company is answered as `dissolved` (see docs/companies.md). */
export const DEPARTED_ROW_COLUMNS = ROW_COLUMNS.replace('company_status,', "'dissolved' AS company_status,") + ', last_seen, gone_by';

/** The register row of a company, else its `departed` row, else undefined. */
export async function findCompany(conn: DuckDBConnection, n: string): Promise<CompanyRow | undefined> {
  return (
    (await queryOne<CompanyRow>(conn, `SELECT ${ROW_COLUMNS} FROM companies WHERE company_number = ?`, [n])) ??
    (await queryOne<CompanyRow>(conn, `SELECT ${DEPARTED_ROW_COLUMNS} FROM departed WHERE company_number = ?`, [n]))
  );
}

/** The company row when the companies dataset is synced (undefined when it is not or the number is unknown). */
export async function companyIfSynced(ctx: HandlerContext, n: string): Promise<CompanyRow | undefined> {
  if (!has(ctx, COMPANIES)) return undefined;
  return findCompany(await openDataset(COMPANIES, ctx.mirrorDir), n);
}

/** SIC entries of a row: `{code, description}` (SIC 2007 descriptions from the shipped list; SIC 2003 from the file). */
export function sicEntries(r: Pick<CompanyRow, 'sic_texts'>): Array<{ code: string; description: string }> {
  const out: Array<{ code: string; description: string }> = [];
  for (const t of r.sic_texts ?? []) {
    const { code, description } = splitSicText(t);
    if (code) out.push({ code, description: sicCode(code)?.description ?? description });
  }
  return out;
}

/** The company summary of search and list answers (spec doc 2 §2 "Company summary"). */
export function summary(r: CompanyRow) {
  return {
    company_number: r.company_number,
    company_name: r.company_name,
    company_status: r.company_status,
    company_type: r.company_type,
    date_of_creation: r.incorporation_date,
    registered_office_address: { postal_code: r.postcode, locality: r.post_town },
    // A row of the name search index carries the codes only (the same codes, taken from the texts at load).
    sic_codes: r.sic_texts === undefined ? (r.sic_codes ?? []) : sicEntries(r).map((s) => s.code),
  };
}

/** The company detail (spec doc 2 §2 "Company detail"). */
export function detail(r: CompanyRow) {
  return {
    company_number: r.company_number,
    company_name: r.company_name,
    company_status: r.company_status,
    company_type: r.company_type,
    date_of_creation: r.incorporation_date,
    date_of_cessation: r.dissolution_date,
    registered_office_address: {
      address_line_1: r.address_line_1,
      locality: r.post_town,
      postal_code: r.postcode,
      country: r.country,
    },
    sic_codes: sicEntries(r),
    accounts: { next_due: r.accounts_next_due, last_made_up_to: r.accounts_last_made_up_to },
    confirmation_statement: { next_due: r.confirmation_next_due },
    jurisdiction: jurisdictionOf(r.company_number),
    uri: `/company/${r.company_number}`,
  };
}

/** The meta note of an answer about a company that is no longer in the register snapshot. */
export function departedNote(r: CompanyRow): string {
  return (
    `${r.company_number} was in the Companies House register snapshot of ${r.last_seen ?? 'an earlier sync'} but not in that of ${r.gone_by ?? 'the latest sync'}: ` +
    'companies leave the bulk file when they are dissolved (or closed or converted). company_status is given as dissolved and the details are as last seen; ' +
    `the exact status and date of cessation are not in the open data; ${LIVE_HINT}.`
  );
}

/** 404 for a number in neither the register nor `departed`. */
export function companyNotFound(n: string, asOf?: string): Error {
  return errors.notFound(
    `Company ${n} is not on the live register in the Companies House snapshot${asOf ? ` of ${asOf}` : ''}. ` +
      `Dissolved companies are not in Companies House's bulk file (only companies seen leaving it between your syncs are kept); ${LIVE_HINT}.`,
  );
}

/** Whole days from `from` to `to` (YYYY-MM-DD strings, UTC calendar dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The clock's date (UTC) as YYYY-MM-DD. */
export const today = (ctx: HandlerContext): string => ctx.now().toISOString().slice(0, 10);
