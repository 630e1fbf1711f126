/**
 * `publicdata sync companies` against a local upstream server: discovery from the (generated) download
 * page with the previous-month fallback, one-file and part zips, --from a folder and a URL prefix, the
 * `departed` table across two monthly snapshots, and a truncated zip that fails and keeps the old data.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import type { SyncEvent } from '../../sync/types.js';
import { companyLine, csvText, isoDate, outputPage, parseRow, REAL_LINES } from '../companies/fixture.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import { buildZip } from '../support/zip.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const h = useUpstreamServer('pd-ch-sync-');
const NOV = 'BasicCompanyDataAsOneFile-2026-11-01.zip';
const realNumbers = REAL_LINES.map((l) => parseRow(l).CompanyNumber.trim()).sort();

async function serveNovember(): Promise<void> {
  h.server.set(`/companies/${NOV}`, await buildZip([{ name: NOV.replace('.zip', '.csv'), data: csvText(REAL_LINES) }]));
}

// December: 3 real companies gone, 2 new (GENERATED rows), in 2 part zips.
const GONE = ['08209948', '11399177', 'SC421617'];
const NEW = [
  companyLine({ CompanyName: 'DECEMBER NEW LIMITED', CompanyNumber: '16000001', IncorporationDate: '20/11/2026', 'RegAddress.PostCode': 'M1 1AE', 'SICCode.SicText_1': '62020 - Information technology consultancy activities' }),
  companyLine({ CompanyName: 'ANOTHER NEW LTD', CompanyNumber: '16000002', IncorporationDate: '21/11/2026', 'RegAddress.PostCode': 'M1 1AF', 'SICCode.SicText_1': '99999 - Dormant Company' }),
];
const decLines = [...REAL_LINES.filter((l) => !GONE.includes(parseRow(l).CompanyNumber)), ...NEW];
const half = Math.ceil(decLines.length / 2);
const DEC_PARTS = ['BasicCompanyData-2026-12-01-part1_2.zip', 'BasicCompanyData-2026-12-01-part2_2.zip'];

async function serveDecember(): Promise<void> {
  const chunks = [decLines.slice(0, half), decLines.slice(half)];
  for (const [i, name] of DEC_PARTS.entries()) {
    h.server.set(`/companies/${name}`, await buildZip([{ name: name.replace('.zip', '.csv'), data: csvText(chunks[i]!) }]));
  }
}

describe('sync companies', () => {
  it('discovers the newest month on the download page, loads it with company numbers kept as text', async () => {
    await serveNovember();
    h.server.set('/companies/en_output.html', outputPage(['BasicCompanyDataAsOneFile-2026-10-01.zip', NOV, 'BasicCompanyData-2026-11-01-part1_7.zip']));
    const opts = h.syncOptions('2026-11-05T09:00:00Z');
    const r = await syncDataset('companies', opts);
    expect(r).toMatchObject({ status: 'synced', rows_loaded: REAL_LINES.length, rows_total: REAL_LINES.length, as_of: '2026-11-01' });
    expect(r.files.map((f) => f.name)).toEqual([NOV]);
    const file = join(opts.mirrorDir, 'companies.duckdb');
    const got = await sqlOn(file, 'SELECT company_number FROM companies ORDER BY company_number');
    expect(got.map((x) => x.company_number)).toEqual(realNumbers);
    // The guide row, field by field against the CSV parsed here.
    const src = parseRow(REAL_LINES.find((l) => l.includes('"07687209"'))!);
    const [row] = await sqlOn(file, 'SELECT * FROM companies WHERE company_number = ?', ['07687209']);
    expect(row).toMatchObject({
      company_name: src.CompanyName,
      status_text: 'Active',
      company_status: 'active',
      company_type: 'ltd',
      incorporation_date: isoDate(src.IncorporationDate),
      accounts_next_due: isoDate(src['Accounts.NextDueDate']),
      accounts_last_made_up_to: isoDate(src['Accounts.LastMadeUpDate']),
      confirmation_next_due: isoDate(src.ConfStmtNextDueDate),
      postcode: src['RegAddress.PostCode'],
      sic_codes: ['70229'],
      account_ref_day: 29,
      account_ref_month: 12,
    });
    expect(await sqlOn(file, 'SELECT count(*) AS n FROM departed')).toEqual([{ n: 0 }]);
  });

  it("falls back to the previous month when this month's file is not listed yet", async () => {
    await serveNovember();
    h.server.set('/companies/en_output.html', outputPage([NOV]));
    const r = await syncDataset('companies', h.syncOptions('2026-12-01T08:00:00Z'));
    expect(r.files.map((f) => f.name)).toEqual([NOV]);
    expect(r.as_of).toBe('2026-11-01');
  });

  it('a second month in part files: dropped companies go to departed, new ones are added; a truncated zip later fails and keeps that data', async () => {
    await serveNovember();
    await serveDecember();
    const opts = h.syncOptions('2026-11-05T09:00:00Z');
    h.server.set('/companies/en_output.html', outputPage([NOV]));
    await syncDataset('companies', opts);
    h.server.set('/companies/en_output.html', outputPage([NOV, ...DEC_PARTS]));
    const r = await syncDataset('companies', { ...opts, now: () => new Date('2026-12-03T09:00:00Z') });
    expect(r.files.map((f) => f.name)).toEqual(DEC_PARTS);
    expect(r).toMatchObject({ status: 'synced', rows_total: REAL_LINES.length - 3 + 2, as_of: '2026-12-01' });
    const file = join(opts.mirrorDir, 'companies.duckdb');
    const departed = await sqlOn(file, 'SELECT company_number, company_name, last_seen, gone_by FROM departed ORDER BY company_number');
    expect(departed).toEqual(
      GONE.sort().map((n) => ({
        company_number: n,
        company_name: parseRow(REAL_LINES.find((l) => parseRow(l).CompanyNumber === n)!).CompanyName,
        last_seen: '2026-11-01',
        gone_by: '2026-12-01',
      })),
    );
    expect((await sqlOn(file, "SELECT count(*) AS n FROM companies WHERE company_number IN ('16000001', '16000002')"))[0]).toEqual({ n: 2 });

    // January: a truncated download fails the sync; December's data still answers.
    const jan = await buildZip([{ name: 'BasicCompanyDataAsOneFile-2027-01-01.csv', data: csvText(REAL_LINES) }]);
    h.server.set('/companies/BasicCompanyDataAsOneFile-2027-01-01.zip', jan.subarray(0, jan.length - 200));
    h.server.set('/companies/en_output.html', outputPage([NOV, ...DEC_PARTS, 'BasicCompanyDataAsOneFile-2027-01-01.zip']));
    await expect(syncDataset('companies', { ...opts, now: () => new Date('2027-01-04T09:00:00Z') })).rejects.toThrow(
      /BasicCompanyDataAsOneFile-2027-01-01\.zip is not a readable zip file .*truncated or corrupt/,
    );
    expect(await sqlOn(file, 'SELECT count(*) AS n FROM companies')).toEqual([{ n: REAL_LINES.length - 1 }]);
    expect(await sqlOn(file, 'SELECT max(as_of) AS d FROM sync_log')).toEqual([{ d: '2026-12-01' }]);
  });

  it('--from a folder of part files, and --from a URL prefix listing them', async () => {
    await serveDecember();
    const dir = tempDir('pd-ch-parts-');
    mkdirSync(join(dir, 'parts'));
    const chunks = [decLines.slice(0, half), decLines.slice(half)];
    for (const [i, name] of DEC_PARTS.entries()) writeFileSync(join(dir, 'parts', name), await buildZip([{ name: name.replace('.zip', '.csv'), data: csvText(chunks[i]!) }]));
    writeFileSync(join(dir, 'parts', 'README.txt'), 'not a part');
    const a = await syncDataset('companies', { ...h.syncOptions(), from: join(dir, 'parts') });
    expect(a).toMatchObject({ status: 'synced', rows_total: decLines.length, as_of: '2026-12-01' });
    expect(a.files.map((f) => f.name)).toEqual(DEC_PARTS);

    h.server.set('/mirror/ch/', outputPage(DEC_PARTS));
    for (const name of DEC_PARTS) h.server.set(`/mirror/ch/${name}`, await buildZip([{ name: name.replace('.zip', '.csv'), data: csvText(chunks[DEC_PARTS.indexOf(name)]!) }]));
    const b = await syncDataset('companies', { ...h.syncOptions('2026-12-05T09:00:00Z'), from: `${h.server.url}/mirror/ch/` });
    expect(b).toMatchObject({ status: 'synced', rows_total: decLines.length });
  });

  it('refuses a CSV whose header is not BasicCompanyData, naming the column', async () => {
    const dir = tempDir('pd-ch-bad-');
    const p = join(dir, 'BasicCompanyDataAsOneFile-2026-11-01.csv');
    writeFileSync(p, csvText(REAL_LINES).replace('CompanyName, CompanyNumber', 'Name, CompanyNumber'));
    const events: SyncEvent[] = [];
    await expect(syncDataset('companies', { ...h.syncOptions(), from: p, progress: (e) => events.push(e) })).rejects.toThrow(
      /column 1 is 'Name', expected 'CompanyName'/,
    );
  });

  it('a company number twice (in one CSV, or in two parts) keeps one row, the other is a reject; the table stays sorted', async () => {
    // GENERATED: 1,500 companies (the register's reject threshold is 0.1%) in reverse number order, and one number twice.
    const many = Array.from({ length: 1500 }, (_, i) => companyLine({ CompanyName: `GENERATED ${i} LIMITED`, CompanyNumber: String(17001500 - i) }));
    const twice = [
      companyLine({ CompanyName: 'ZED DUPLICATE LIMITED', CompanyNumber: '17000700' }),
      companyLine({ CompanyName: 'ALPHA DUPLICATE LIMITED', CompanyNumber: '17000700' }),
    ];
    const dir = tempDir('pd-ch-dup-');
    const one = join(dir, 'BasicCompanyDataAsOneFile-2026-11-01.csv');
    writeFileSync(one, csvText([...many.slice(0, 700), twice[0]!, ...many.slice(700).filter((l) => !l.includes('"17000700"')), twice[1]!]));
    mkdirSync(join(dir, 'parts'));
    const parts = ['BasicCompanyData-2026-11-01-part1_2.zip', 'BasicCompanyData-2026-11-01-part2_2.zip'];
    const rest = many.filter((l) => !l.includes('"17000700"'));
    const chunks = [[twice[0]!, ...rest.slice(0, 750)], [...rest.slice(750), twice[1]!]];
    for (const [i, name] of parts.entries()) writeFileSync(join(dir, 'parts', name), await buildZip([{ name: name.replace('.zip', '.csv'), data: csvText(chunks[i]!) }]));
    for (const from of [one, join(dir, 'parts')]) {
      const r = await syncDataset('companies', { ...h.syncOptions(), from });
      expect(r).toMatchObject({ status: 'synced', rows_total: 1500, rows_rejected: 1 });
      const db = r.path!;
      expect(await sqlOn(db, "SELECT company_name FROM companies WHERE company_number = '17000700'")).toEqual([{ company_name: 'ALPHA DUPLICATE LIMITED' }]);
      expect(await sqlOn(db, "SELECT raw, reason FROM rejects")).toEqual([{ raw: '17000700,ZED DUPLICATE LIMITED', reason: 'duplicate company number' }]);
      const numbers = (await sqlOn(db, 'SELECT company_number FROM companies')).map((x) => x.company_number as string);
      expect(numbers).toEqual(Array.from({ length: 1500 }, (_, i) => String(17000001 + i)));
    }
  });
});
