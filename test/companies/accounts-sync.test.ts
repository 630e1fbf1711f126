/**
 * `sync accounts` against a local upstream server: the index pages, daily and monthly zips built from the
 * real members (test/fixtures/companies/accounts) plus labelled GENERATED members for the
 * broken cases (binary garbage, a placeholder, malformed XML), a nested *_CIC.zip and a `.zip` member that
 * is really HTML. Expected figures are the hand-worked ones of accounts-extract.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseAccountsPage, selectZips, zipDate } from '../../src/domains/companies/sync/accounts.js';
import { syncDataset } from '../../src/sync-runner.js';
import { sqlOn } from '../support/mirror-helper.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';
import { zipWithCorruptMember } from './accounts-zip.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { buildZip } from '../support/zip.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'companies', 'accounts');
const real = (f: string) => readFileSync(join(DIR, f));
const subset = unzipSync(readFileSync(join(DIR, 'Accounts_Bulk_Data-2023-03-02.zip')));

const page = (links: Array<[string, string]>) =>
  `<html><body><h1>Accounts Data</h1><ul>${links.map(([href, size]) => `<li><a href="${href}">${href.split('/').pop()}</a>  (${size})</li>`).join('')}</ul></body></html>`;

const h = useUpstreamServer('pd-accounts-');

/** GENERATED: a full-accounts document with a P&L (no real one under 150 KB exists). */
const fullDoc = accountsDocument({
  style: 'full', company: '07654321', name: 'GENERATED FULL LTD', bsd: '2026-06-30',
  cur: { TurnoverRevenue: 1200000, CostSales: 700000, GrossProfitLoss: 500000, ProfitLossOnOrdinaryActivitiesBeforeTax: 150000, FixedAssets: 300000, CurrentAssets: 450000, Creditors: 200000, NetAssetsLiabilities: 550000, DirectorRemuneration: 80000, AverageNumberEmployeesDuringPeriod: 14 },
  prev: { TurnoverRevenue: 1000000, ProfitLossOnOrdinaryActivitiesBeforeTax: 100000, FixedAssets: 280000, CurrentAssets: 400000, Creditors: 180000, NetAssetsLiabilities: 500000 },
});

async function dailyZip(): Promise<Buffer> {
  const cic = await buildZip([
    { name: 'accounts/Prod223_4000_12345678_20260331.xhtml', data: accountsDocument({ company: '12345678', name: 'GENERATED CIC', bsd: '2026-03-31', cur: { CurrentAssets: 900, NetAssetsLiabilities: 900 } }) },
    { name: 'cic34/Prod223_4000_12345678_20260331_cic34.xhtml', data: '<html>CIC34 report, not accounts</html>' },
  ]);
  return buildZip([
    { name: 'Prod223_3517_00193009_20230331.html', data: real('Prod223_3517_00193009_20230331.html') },
    { name: 'Prod223_3517_00174098_20230331.html', data: real('Prod223_3517_00174098_20230331.html') },
    { name: 'Prod223_3517_00035838_20221231.html', data: real('Prod223_3517_00035838_20221231.html') },
    { name: 'Prod223_3517_13756628_20221130.html', data: real('Prod223_3517_13756628_20221130.html') },
    { name: memberName('07654321', '2026-06-30'), data: fullDoc },
    // GENERATED broken members, as seen in real zips (SOURCES-more.md: Accounts_Monthly_Data-March2021)
    { name: 'Prod224_0088_08972528_20200331.xml', data: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x13]) },
    { name: 'Prod224_0088_09999999_20200331.html', data: 'ATTACHMENTPLACEHOLDER127319911' },
    { name: 'Prod224_9956_04944372_20100331.xml', data: '<?xml version="1.0"?><xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance"><unclosed></xbrli:xbrl>' },
    { name: 'Prod223_4000_12345678_20260331_CIC.zip', data: cic },
    // April 2021: a member named .zip that is really HTML
    { name: 'Prod223_4001_11111111_20260331.zip', data: accountsDocument({ company: '11111111', name: 'GENERATED HTML IN ZIP NAME', bsd: '2026-03-31', cur: { CurrentAssets: 5 } }) },
  ]);
}

describe('accounts discovery', () => {
  it('parses the index pages and picks the scope', () => {
    const links = parseAccountsPage(
      page([['Accounts_Bulk_Data-2026-11-02.zip', '52Mb'], ['Accounts_Bulk_Data-2026-10-30.zip', '48Mb'], ['archive/Accounts_Monthly_Data-October2026.zip', '2.5Gb'], ['archive/Accounts_Monthly_Data-September2025.zip', '2Gb'], ['other.zip', '1Mb']]),
      'https://download.companieshouse.gov.uk/en_accountsdata.html',
    );
    expect(links.map((l) => [l.name, l.kind, l.date, l.approxBytes])).toEqual([
      ['Accounts_Bulk_Data-2026-11-02.zip', 'daily', '2026-11-02', 52 * 1024 ** 2],
      ['Accounts_Bulk_Data-2026-10-30.zip', 'daily', '2026-10-30', 48 * 1024 ** 2],
      ['Accounts_Monthly_Data-October2026.zip', 'monthly', '2026-10-01', Math.round(2.5 * 1024 ** 3)],
      ['Accounts_Monthly_Data-September2025.zip', 'monthly', '2025-09-01', 2 * 1024 ** 3],
    ]);
    expect(links[2]!.url).toBe('https://download.companieshouse.gov.uk/archive/Accounts_Monthly_Data-October2026.zip');
    const now = new Date('2026-11-21T12:00:00Z');
    // default 12 months: window from 2025-11-01, so the September 2025 archive is out; the October daily is covered by its archive
    expect(selectZips(links, now, {}).map((l) => l.name)).toEqual(['Accounts_Monthly_Data-October2026.zip', 'Accounts_Bulk_Data-2026-11-02.zip']);
    expect(selectZips(links, now, { days: 30 }).map((l) => l.name)).toEqual(['Accounts_Bulk_Data-2026-10-30.zip', 'Accounts_Bulk_Data-2026-11-02.zip']);
    expect(selectZips(links, now, { days: 20 }).map((l) => l.name)).toEqual(['Accounts_Bulk_Data-2026-11-02.zip']);
    expect(zipDate('Accounts_Monthly_Data-JanuaryToDecember2008.zip')).toEqual({ date: '2008-01-01', precision: 'month' });
  });
});

describe('sync accounts', () => {
  it('loads a daily zip: good members, nested CIC, html named .zip; three broken members listed as rejects', async () => {
    const o = h.syncOptions('2026-11-21T12:00:00Z');
    h.server.set('/accounts/en_accountsdata.html', page([['Accounts_Bulk_Data-2026-11-02.zip', '1Mb']]));
    h.server.set('/accounts/Accounts_Bulk_Data-2026-11-02.zip', await dailyZip());
    const r = await syncDataset('accounts', { ...o, days: 30 });
    expect(r).toMatchObject({ status: 'synced', mode: 'full', rows_loaded: 7, rows_rejected: 3, as_of: '2026-11-02' });
    const file = join(o.mirrorDir, 'accounts.duckdb');
    const rejects = await sqlOn(file, 'SELECT file, reason FROM rejects ORDER BY file');
    expect(rejects).toEqual([
      { file: 'Accounts_Bulk_Data-2026-11-02.zip/Prod224_0088_08972528_20200331.xml', reason: 'not an XML or HTML document (binary content)' },
      { file: 'Accounts_Bulk_Data-2026-11-02.zip/Prod224_0088_09999999_20200331.html', reason: 'placeholder file, no accounts (ATTACHMENTPLACEHOLDER127319911)' },
      { file: 'Accounts_Bulk_Data-2026-11-02.zip/Prod224_9956_04944372_20100331.xml', reason: expect.stringMatching(/^malformed XML: /) },
    ]);
    const filings = await sqlOn(file, `SELECT company_number, balance_sheet_date::VARCHAR AS bsd, filing_type, published::VARCHAR AS published, published_precision, has_financials
      FROM accounts_filings ORDER BY company_number`);
    expect(filings).toEqual([
      { company_number: '00035838', bsd: '2022-12-31', filing_type: 'micro', published: '2026-11-02', published_precision: 'day', has_financials: true },
      { company_number: '00174098', bsd: '2023-03-31', filing_type: 'micro', published: '2026-11-02', published_precision: 'day', has_financials: true },
      { company_number: '00193009', bsd: '2023-03-31', filing_type: 'micro', published: '2026-11-02', published_precision: 'day', has_financials: true },
      { company_number: '07654321', bsd: '2026-06-30', filing_type: 'full', published: '2026-11-02', published_precision: 'day', has_financials: true },
      { company_number: '11111111', bsd: '2026-03-31', filing_type: 'micro', published: '2026-11-02', published_precision: 'day', has_financials: true },
      { company_number: '12345678', bsd: '2026-03-31', filing_type: 'micro', published: '2026-11-02', published_precision: 'day', has_financials: true },
      { company_number: '13756628', bsd: '2022-11-30', filing_type: 'micro', published: '2026-11-02', published_precision: 'day', has_financials: true },
    ]);
    // exact decimals in DuckDB: the generated full accounts and a real filing's derived total assets (97,167 + 60,301)
    const p = await sqlOn(file, `SELECT company_number, period_end::VARCHAR AS period_end, revenue::VARCHAR AS revenue, profit_before_tax::VARCHAR AS pbt,
      total_assets::VARCHAR AS ta, current_liabilities::VARCHAR AS cl, directors_remuneration::VARCHAR AS dr, employees
      FROM accounts_periods WHERE company_number IN ('07654321', '00193009') AND is_current ORDER BY 1`);
    expect(p).toEqual([
      { company_number: '00193009', period_end: '2023-03-31', revenue: null, pbt: null, ta: '157468.00', cl: '3298.00', dr: null, employees: 0 },
      { company_number: '07654321', period_end: '2026-06-30', revenue: '1200000.00', pbt: '150000.00', ta: '750000.00', cl: '200000.00', dr: '80000.00', employees: 14 },
    ]);
  });

  it('default scope: monthly archive plus newer dailies; a filing in both is kept once, from the daily zip; then incremental', async () => {
    const o = h.syncOptions('2026-11-21T12:00:00Z');
    const monthly = await buildZip(Object.entries(subset).map(([name, data]) => ({ name: name.replace('Prod223_3384', 'Prod224_0101'), data: Buffer.from(data) })));
    const d1 = await buildZip([
      { name: 'Prod223_3384_SC722766_20230228.html', data: Buffer.from(subset['Prod223_3384_SC722766_20230228.html']!) }, // also in the monthly
    ]);
    const d2 = await buildZip([{ name: memberName('07654321', '2026-06-30'), data: fullDoc }]);
    h.server.set('/accounts/en_monthlyaccountsdata.html', page([['archive/Accounts_Monthly_Data-October2026.zip', '69Kb']]));
    h.server.set('/accounts/archive/Accounts_Monthly_Data-October2026.zip', monthly);
    h.server.set('/accounts/en_accountsdata.html', page([['Accounts_Bulk_Data-2026-11-02.zip', '1Kb']]));
    h.server.set('/accounts/Accounts_Bulk_Data-2026-11-02.zip', d1);
    const stderr: string[] = [];
    const r1 = await syncDataset('accounts', { ...o, progress: (e) => { if (e.type === 'phase' && e.detail) stderr.push(e.detail); } });
    expect(r1).toMatchObject({ status: 'synced', mode: 'full', rows_loaded: 9, rows_rejected: 0 });
    expect(stderr).toContain('2 files, about 70.0 KB to download');
    const file = join(o.mirrorDir, 'accounts.duckdb');
    expect(await sqlOn(file, `SELECT filing_id, published::VARCHAR AS p, published_precision AS pr FROM accounts_filings WHERE company_number = 'SC722766'`))
      .toEqual([{ filing_id: 'Prod223_3384_SC722766_20230228.html', p: '2026-11-02', pr: 'day' }]);
    expect(await sqlOn(file, `SELECT count(*)::INTEGER AS n FROM accounts_periods WHERE company_number = 'SC722766'`)).toEqual([{ n: 1 }]);

    // a new daily zip appears: only it is downloaded and added
    h.server.set('/accounts/en_accountsdata.html', page([['Accounts_Bulk_Data-2026-11-02.zip', '1Kb'], ['Accounts_Bulk_Data-2026-11-03.zip', '1Kb']]));
    h.server.set('/accounts/Accounts_Bulk_Data-2026-11-03.zip', d2);
    const before = h.server.requests.length;
    const r2 = await syncDataset('accounts', o);
    expect(r2).toMatchObject({ status: 'synced', mode: 'incremental', rows_loaded: 1, rows_total: 10, as_of: '2026-11-03' });
    expect(h.server.requests.slice(before).map((q) => q.path).filter((p) => p.endsWith('.zip'))).toEqual(['/accounts/Accounts_Bulk_Data-2026-11-03.zip']);
    // nothing new: up to date, nothing downloaded
    const r3 = await syncDataset('accounts', o);
    expect(r3).toMatchObject({ status: 'up_to_date', rows_total: 10 });
  });

  it('--from the real daily subset zip (9 members, published 2023-03-02)', async () => {
    const o = h.syncOptions('2026-11-21T12:00:00Z');
    const r = await syncDataset('accounts', { ...o, from: join(DIR, 'Accounts_Bulk_Data-2023-03-02.zip') });
    expect(r).toMatchObject({ status: 'synced', rows_loaded: 9, rows_rejected: 0, as_of: '2023-03-02' });
    const rows = await sqlOn(join(o.mirrorDir, 'accounts.duckdb'), `SELECT company_number, net_assets::VARCHAR AS na FROM accounts_periods WHERE is_current ORDER BY 1`);
    // hand-worked in accounts-extract.test.ts
    expect(rows).toEqual([
      { company_number: '09355500', na: '375004.00' }, { company_number: '14033910', na: '-577.00' }, { company_number: '14068295', na: '100.00' },
      { company_number: 'NI681295', na: '3437.00' }, { company_number: 'NI682066', na: '8382.00' }, { company_number: 'OC437536', na: null },
      { company_number: 'OC438238', na: '155318.00' }, { company_number: 'SC720321', na: '-22737.00' }, { company_number: 'SC722766', na: '1.00' },
    ]);
  });
});

/** Every `.accounts-stage-*` folder under `dir`. */
const stageFolders = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory() && e.name.startsWith('.accounts-stage-')).map((e) => e.name);

describe('sync accounts: a corrupt member', () => {
  it('a member failing its CRC-32 check fails the sync cleanly (a failed report, exit 1), the previous mirror still answers, no stage folder left', async () => {
    const env = isolatedEnv({ PUBLICDATA_UPSTREAM_BASE: h.server.url, CI: '1' });
    h.server.set('/accounts/en_accountsdata.html', page([['Accounts_Bulk_Data-2026-11-02.zip', '1Kb']]));
    h.server.set('/accounts/Accounts_Bulk_Data-2026-11-02.zip', await buildZip([{ name: memberName('07654321', '2026-06-30'), data: fullDoc }]));
    const ok = await runCli(['sync', 'accounts', '--days', '30', '--format', 'json'], { env });
    expect(ok.code).toBe(0);
    const file = join(env.PUBLICDATA_DATA_DIR!, 'mirror', 'accounts.duckdb');
    const before = await sqlOn(file, 'SELECT company_number FROM accounts_filings ORDER BY 1');
    expect(before).toEqual([{ company_number: '07654321' }]);

    // a new daily zip whose 3rd member is corrupt; 100 members, so the directory is still being listed
    // (more batches to submit) when the first batch fails
    h.server.set('/accounts/en_accountsdata.html', page([['Accounts_Bulk_Data-2026-11-02.zip', '1Kb'], ['Accounts_Bulk_Data-2026-11-03.zip', '1Mb']]));
    h.server.set('/accounts/Accounts_Bulk_Data-2026-11-03.zip', await zipWithCorruptMember(100, 2));
    // before the fix the failed batch was a rejection nobody handled while the directory was still listed
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    let r;
    try {
      r = await runCli(['sync', 'accounts', '--days', '30', '--format', 'json'], { env });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    const message = `accounts: load failed: Accounts_Bulk_Data-2026-11-03.zip: member ${memberName('90000002', '2026-03-31')} failed its CRC-32 check; the zip is corrupt, download it again; kept the previous data`;
    // the sync's own failure report (as for a truncated zip), exit 1 (EXIT.ERROR); never an internal_error
    expect(r.stderr).toBe(`accounts: sync failed: ${message}\n`);
    expect(JSON.parse(r.stdout).data).toEqual([expect.objectContaining({ dataset: 'accounts', status: 'failed', rows_loaded: 0, error: message })]);
    expect(r.code).toBe(1);
    // the previous data answers, unchanged; nothing of the new zip was kept
    expect(await sqlOn(file, 'SELECT company_number FROM accounts_filings ORDER BY 1')).toEqual(before);
    expect(await sqlOn(file, 'SELECT name FROM accounts_zips')).toEqual([{ name: 'Accounts_Bulk_Data-2026-11-02.zip' }]);
    expect(stageFolders(env.PUBLICDATA_CACHE_DIR!)).toEqual([]);
    expect(stageFolders(env.PUBLICDATA_DATA_DIR!)).toEqual([]);
  });
});
