/**
 * The financial routes over a mirror synced (through the real framework, from a local upstream server)
 * from GENERATED accounts documents with known figures, plus the real documents; expected values are
 * computed by hand below. The register (companies.duckdb) is a minimal stand-in table with the columns the
 * `companies` dataset provides (company_number, company_name, company_status, company_type,
 * incorporation_date, sic_codes, sic_texts), built here with DuckDB.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/contract/errors.js';
import type { HandlerContext, HandlerRequest, SuccessEnvelope } from '../../src/contract/types.js';
import { accountsEvents, latestFiling, sectorFinancials } from '../../src/domains/companies/accounts-link.js';
import { change, financials, health, trends } from '../../src/domains/companies/company-financials.js';
import { benchmark, benchmarks, compare, recentFilings } from '../../src/domains/companies/sector-financials.js';
import { loadDuckDB } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor } from '../support/mirror-helper.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';
import { buildZip } from '../support/zip.js';
import { schemaMisfits } from '../support/schema-check.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'companies', 'accounts');
const h = useUpstreamServer('pd-fin-');
let ctx: HandlerContext;

const req = (params: Record<string, unknown> = {}, query: Record<string, unknown> = {}, body?: unknown): HandlerRequest => ({ params, query, body });
type Env = SuccessEnvelope<Record<string, any>>;
const ROUTE_OF = new Map<unknown, string>([
  [financials, 'companies.financials'], [trends, 'companies.trends'], [health, 'companies.health'], [benchmark, 'companies.benchmark'],
  [benchmarks, 'companies.benchmarks'], [compare, 'companies.compare'], [recentFilings, 'companies.recent-filings'],
]);
/** The handler's answer, which must be in its route's published shape (test/support/schema-check.ts). */
const call = async (hd: typeof financials, r: HandlerRequest) => {
  const e = (await hd(r, ctx)) as Env;
  expect(await schemaMisfits(ROUTE_OF.get(hd)!, e), ROUTE_OF.get(hd)).toEqual([]);
  return e;
};

// GENERATED sector 62012: A (two years), B, C full accounts; D micro (no P&L). Whole pounds.
const A25 = accountsDocument({
  style: 'full', company: '10000001', name: 'ALPHA LTD', bsd: '2025-06-30',
  cur: { TurnoverRevenue: 1000000, ProfitLossOnOrdinaryActivitiesBeforeTax: 80000, FixedAssets: 250000, CurrentAssets: 300000, Creditors: 150000, NetAssetsLiabilities: 400000 },
  prev: { TurnoverRevenue: 900000, FixedAssets: 200000, CurrentAssets: 250000 },
});
const A26 = accountsDocument({
  style: 'full', company: '10000001', name: 'ALPHA LTD', bsd: '2026-06-30',
  cur: { TurnoverRevenue: 1200000, ProfitLossOnOrdinaryActivitiesBeforeTax: 150000, FixedAssets: 300000, CurrentAssets: 450000, Creditors: 200000, NetAssetsLiabilities: 550000, CashBankOnHand: 100000, DirectorRemuneration: 50000, AverageNumberEmployeesDuringPeriod: 14 },
  prev: { TurnoverRevenue: 1050000, ProfitLossOnOrdinaryActivitiesBeforeTax: 90000, FixedAssets: 250000, CurrentAssets: 300000 },
});
const B = accountsDocument({
  style: 'full', company: '10000002', name: 'BETA LTD', bsd: '2026-03-31',
  cur: { TurnoverRevenue: 200000, ProfitLossOnOrdinaryActivitiesBeforeTax: -20000, FixedAssets: 10000, CurrentAssets: 40000, Creditors: 60000, NetAssetsLiabilities: -10000, CashBankOnHand: 5000, DirectorRemuneration: 60000 },
});
const C = accountsDocument({
  style: 'full', company: '10000003', name: 'GAMMA LTD', bsd: '2026-03-31',
  cur: { TurnoverRevenue: 300000, ProfitLossOnOrdinaryActivitiesBeforeTax: 30000, CurrentAssets: 100000, Creditors: 40000, NetAssetsLiabilities: 60000 },
});
const D = accountsDocument({ company: '10000004', name: 'DELTA LTD', bsd: '2026-03-31', cur: { FixedAssets: 1000, CurrentAssets: 2000, Creditors: 500, NetAssetsLiabilities: 2500 } });

beforeAll(async () => {
  const o = h.syncOptions('2026-11-21T12:00:00Z');
  h.server.set('/accounts/en_accountsdata.html',
    '<a href="Accounts_Bulk_Data-2026-01-15.zip">Accounts_Bulk_Data-2026-01-15.zip</a> <a href="Accounts_Bulk_Data-2026-10-01.zip">Accounts_Bulk_Data-2026-10-01.zip</a>');
  h.server.set('/accounts/Accounts_Bulk_Data-2026-01-15.zip', await buildZip([{ name: memberName('10000001', '2025-06-30'), data: A25 }]));
  h.server.set('/accounts/Accounts_Bulk_Data-2026-10-01.zip', await buildZip([
    { name: memberName('10000001', '2026-06-30'), data: A26 },
    { name: memberName('10000002', '2026-03-31'), data: B },
    { name: memberName('10000003', '2026-03-31'), data: C },
    { name: memberName('10000004', '2026-03-31'), data: D },
    { name: 'Prod223_3517_00193009_20230331.html', data: readFileSync(join(DIR, 'Prod223_3517_00193009_20230331.html')) },
  ]));
  const r = await syncDataset('accounts', { ...o, days: 366 });
  expect(r).toMatchObject({ status: 'synced', rows_loaded: 6 });
  // register stand-in
  const duck = await loadDuckDB();
  const inst = await duck.DuckDBInstance.create(join(o.mirrorDir, 'companies.duckdb'));
  const conn = await inst.connect();
  await conn.run(`CREATE TABLE companies (company_number VARCHAR, company_name VARCHAR, company_status VARCHAR, company_type VARCHAR,
    incorporation_date DATE, sic_codes VARCHAR[], sic_texts VARCHAR[])`);
  await conn.run(`INSERT INTO companies VALUES
    ('10000001', 'ALPHA LIMITED', 'active', 'ltd', DATE '2010-11-22', ['62012'], ['62012 - Business and domestic software development']),
    ('10000002', 'BETA LIMITED', 'active', 'ltd', DATE '2019-11-21', ['62012', '62020'], ['62012 - Business and domestic software development', '62020 - Information technology consultancy activities']),
    ('10000003', 'GAMMA LIMITED', 'liquidation', 'ltd', DATE '2020-01-01', ['62012'], ['62012 - Business and domestic software development']),
    ('10000004', 'DELTA LIMITED', 'active', 'ltd', DATE '2021-05-05', ['62012'], ['62012 - Business and domestic software development']),
    ('10000005', 'EPSILON LIMITED', 'active', 'plc', DATE '2000-01-01', ['70229'], ['70229 - Management consultancy activities other than financial management'])`);
  conn.closeSync();
  inst.closeSync();
  ctx = ctxFor(o.mirrorDir);
});

describe('financial routes', () => {
  it('financials: newest first, exact figures, nulls for what a filing does not state, provenance in meta', async () => {
    const e = await call(financials, req({ company_number: '10000001' }, { limit: 10 }));
    expect(e.data).toMatchObject({ company_number: '10000001', company_name: 'ALPHA LIMITED', filings_count: 2 });
    expect(e.data.filings[0]).toEqual({
      period_start: '2025-07-01', period_end: '2026-06-30', filing_type: 'full', accounting_standard: 'FRS 102', filed_at: '2026-10-01T00:00:00Z',
      financials: {
        revenue: 1200000, cost_of_sales: null, gross_profit: null, profit_before_tax: 150000, total_assets: 750000, net_assets: 550000,
        employees_count: 14, current_assets: 450000, current_liabilities: 200000, cash: 100000, directors_remuneration: 50000,
      },
    });
    expect(e.data.filings[1]).toMatchObject({ period_end: '2025-06-30', filed_at: '2026-01-15T00:00:00Z' });
    expect(e.meta.source_url).toBeUndefined();
    expect(e.meta.coverage).toEqual({ from: '2026-01-15', to: '2026-10-01', zips: 2 });
    expect((e.meta.filings as Array<{ filing_id: string }>).map((f) => f.filing_id)).toEqual([memberName('10000001', '2026-06-30'), memberName('10000001', '2025-06-30')]);
    const one = await call(financials, req({ company_number: '10000001' }, { limit: 1 }));
    expect(one.data.filings_count).toBe(1);
    // a real micro-entity filing: P&L null, not 0; the name from the accounts when the register lacks the company
    const real = await call(financials, req({ company_number: '193009' }, { limit: 10 }));
    expect(real.data).toMatchObject({ company_number: '00193009', company_name: 'ROCHESTER MASONIC HALL & CLUB COMPANY,LIMITED(THE)', filings_count: 1 });
    expect(real.data.filings[0].financials).toMatchObject({ revenue: null, profit_before_tax: null, total_assets: 157468, net_assets: 154170, employees_count: 0 });
    const none = await call(financials, req({ company_number: '99999999' }, { limit: 10 }));
    expect(none.data).toEqual({ company_number: '99999999', company_name: null, filings_count: 0, filings: [] });
    await expect(financials(req({ company_number: 'bad!' }, {}), ctx)).rejects.toMatchObject({ status: 400, code: 'invalid_parameter' });
  });

  it('trends: each filing and its comparative; the newer filing wins a period; changes by hand', async () => {
    const e = await call(trends, req({ company_number: '10000001' }));
    expect(e.data.periods).toEqual([
      { period_end: '2024-06-30', filing_type: 'full', metrics: { revenue: 900000, profit_before_tax: null, total_assets: 450000 } },
      { period_end: '2025-06-30', filing_type: 'full', metrics: { revenue: 1050000, profit_before_tax: 90000, total_assets: 550000 } }, // restated in the 2026 filing
      { period_end: '2026-06-30', filing_type: 'full', metrics: { revenue: 1200000, profit_before_tax: 150000, total_assets: 750000 } },
    ]);
    expect(e.data.periods_count).toBe(3);
    expect(e.data.trends).toEqual([
      // 1,050,000 − 900,000 = 150,000; 150,000 / 900,000 = 16.67%
      { from: '2024-06-30', to: '2025-06-30', changes: { revenue: { absolute: 150000, percentage: 16.67 }, profit_before_tax: { absolute: null, percentage: null }, total_assets: { absolute: 100000, percentage: 22.22 } } },
      // 150,000 / 1,050,000 = 14.29%; PBT 60,000 / 90,000 = 66.67%; TA 200,000 / 550,000 = 36.36%
      { from: '2025-06-30', to: '2026-06-30', changes: { revenue: { absolute: 150000, percentage: 14.29 }, profit_before_tax: { absolute: 60000, percentage: 66.67 }, total_assets: { absolute: 200000, percentage: 36.36 } } },
    ]);
    expect(change(-100n * 100n, 50n * 100n)).toEqual({ absolute: 150, percentage: 150 }); // from a loss of 100 to +50: +150 on |−100|
  });

  it('health: ratios by hand, signals from the thresholds in meta', async () => {
    const a = await call(health, req({ company_number: '10000001' }));
    expect(a.data.period_end).toBe('2026-06-30');
    expect(a.data.health).toEqual({
      current_ratio: { value: 2.25, signal: 'green', label: 'Healthy liquidity' }, // 450,000 / 200,000
      debt_to_equity: { value: 0.3636, signal: 'green', label: 'Conservative gearing' }, // (750,000 − 550,000) / 550,000
      profit_margin: { value: 12.5, signal: 'green', label: 'Strong margin' }, // 150,000 / 1,200,000
      return_on_assets: { value: 20, signal: 'green', label: 'Assets used productively' }, // 150,000 / 750,000
      cash_ratio: { value: 0.5, signal: 'green', label: 'Strong cash position' }, // 100,000 / 200,000, at the green edge
    });
    expect(a.meta.thresholds).toMatchObject({ current_ratio: { green: 1.5, amber: 1 } });
    const b = await call(health, req({ company_number: '10000002' }));
    expect(b.data.health).toEqual({
      current_ratio: { value: 0.6667, signal: 'red', label: 'Current liabilities exceed current assets' }, // 40,000 / 60,000
      debt_to_equity: { value: -6, signal: 'red', label: 'High gearing or negative net assets' }, // (50,000 + 10,000) / −10,000
      profit_margin: { value: -10, signal: 'red', label: 'Loss-making' },
      return_on_assets: { value: -40, signal: 'red', label: 'Negative return on assets' }, // −20,000 / 50,000
      cash_ratio: { value: 0.0833, signal: 'red', label: 'Little cash against short-term debts' }, // 5,000 / 60,000
    });
    const d = await call(health, req({ company_number: '10000004' }));
    expect(d.data.health.profit_margin).toEqual({ value: null, signal: null, label: 'Not computable: the filing does not state the figures needed' });
    expect(d.data.health.current_ratio).toEqual({ value: 4, signal: 'green', label: 'Healthy liquidity' }); // 2,000 / 500
    await expect(health(req({ company_number: '99999999' }), ctx)).rejects.toBeInstanceOf(ApiError);
  });

  it('benchmarks/{sic}: quantiles over each company latest filing, by hand', async () => {
    const e = await call(benchmarks, req({ sic_code: '62012' }));
    expect(e.data.sic_description).toBe('Business and domestic software development');
    expect(e.data.company_count).toBe(4);
    // revenue [200,000, 300,000, 1,200,000]: median 300,000; p25 = 200,000 + 0.5 x 100,000 = 250,000; p75 = 300,000 + 0.5 x 900,000 = 750,000; mean 566,666.67
    expect(e.data.metrics.revenue).toEqual({ median: 300000, mean: 566666.67, p25: 250000, p75: 750000, count: 3 });
    // PBT [−20,000, 30,000, 150,000]: median 30,000; p25 5,000; p75 90,000; mean 53,333.33
    expect(e.data.metrics.profit_before_tax).toEqual({ median: 30000, mean: 53333.33, p25: 5000, p75: 90000, count: 3 });
    // directors' remuneration [50,000, 60,000]
    expect(e.data.metrics.directors_remuneration).toEqual({ median: 55000, mean: 55000, p25: 52500, p75: 57500, count: 2 });
    // total assets A 750,000, B 50,000, C 100,000, D 3,000 -> sorted [3,000, 50,000, 100,000, 750,000]: median 75,000; p25 = 3,000 + 0.75 x 47,000 = 38,250; p75 = 50,000 ... 100,000 + 0.25 x 650,000 = 262,500
    expect(e.data.metrics.total_assets).toEqual({ median: 75000, mean: 225750, p25: 38250, p75: 262500, count: 4 });
    // margins: A 12.5, B −10, C 10 -> median 10
    expect(e.data.median_profit_margin).toBe(10);
    await expect(benchmarks(req({ sic_code: '01110' }), ctx)).rejects.toMatchObject({ status: 404 });
    await expect(benchmarks(req({ sic_code: 'x' }), ctx)).rejects.toMatchObject({ status: 400 });
  });

  it('{n}/benchmark: company figures and percentile ranks by hand', async () => {
    const e = await call(benchmark, req({ company_number: '10000002' }));
    expect(e.data).toMatchObject({
      company_number: '10000002', company_name: 'BETA LIMITED', sic_code: '62012', sic_description: 'Business and domestic software development',
      company_financials: { revenue: 200000, profit_before_tax: -20000 },
      // revenue: 1 of 3 values <= 200,000 -> 33; PBT: 1 of 3 <= −20,000 -> 33; remuneration 60,000: 2 of 2 -> 100
      percentile_rankings: { revenue: 33, profit_before_tax: 33, directors_remuneration: 100 },
    });
    expect(e.data.industry_benchmarks.revenue).toMatchObject({ median: 300000, p25: 250000, p75: 750000 });
    const d = await call(benchmark, req({ company_number: '10000004' }));
    expect(d.data.percentile_rankings).toEqual({ revenue: null, profit_before_tax: null, directors_remuneration: null });
  });

  it('compare: profile from the register, latest financials, nulls where unknown', async () => {
    const e = await call(compare, req({}, {}, { company_numbers: ['10000001', '10000005', '00193009'] }));
    expect(e.data.companies_compared).toBe(3);
    expect(e.data.companies[0]).toEqual({
      company_number: '10000001', company_name: 'ALPHA LIMITED',
      // incorporated 2010-11-22; on 2026-11-21 the 16th anniversary is a day away
      profile: { company_status: 'active', company_type: 'ltd', age_years: 15, sic_codes: [{ code: '62012', description: 'Business and domestic software development' }] },
      financials: { revenue: 1200000, profit_before_tax: 150000, total_assets: 750000 },
    });
    expect(e.data.companies[1]).toMatchObject({ company_number: '10000005', profile: { age_years: 26 }, financials: null });
    expect(e.data.companies[2]).toMatchObject({ company_number: '00193009', profile: null, financials: { revenue: null, total_assets: 157468 } });
    expect(e.meta.profile_note).toBe('not on the register in the local mirror: 00193009');
    await expect(compare(req({}, {}, { company_numbers: ['10000001'] }), ctx)).rejects.toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('recent-filings: newest first, filters, barcode null with a caveat', async () => {
    const e = await call(recentFilings, req({}, { page: 1, per_page: 25 }));
    expect(e.pagination).toMatchObject({ total: 6, page: 1, per_page: 25 });
    expect(e.data[0]).toEqual({ company_number: '00193009', barcode: null, period_end: '2023-03-31', filing_type: 'micro', has_financials: true, filed_at: '2026-10-01T00:00:00Z' });
    expect(e.data.at(-1)).toMatchObject({ company_number: '10000001', period_end: '2025-06-30', filed_at: '2026-01-15T00:00:00Z' });
    expect(String(e.meta.caveat)).toMatch(/barcode is null/);
    const full = await call(recentFilings, req({}, { filing_type: 'full', page: 1, per_page: 25 }));
    expect(full.data.map((r: { company_number: string }) => r.company_number)).toEqual(['10000001', '10000002', '10000003', '10000001']);
    const jan = await call(recentFilings, req({}, { to: '2026-06-30', page: 1, per_page: 25 }));
    expect(jan.pagination!.total).toBe(1);
    const sic = await call(recentFilings, req({}, { sic_code: '62020', page: 1, per_page: 25 }));
    expect(sic.data.map((r: { company_number: string }) => r.company_number)).toEqual(['10000002']);
    await expect(recentFilings(req({}, { from: '2026-13-01', page: 1, per_page: 25 }), ctx)).rejects.toMatchObject({ status: 400 });
    // Not calendar dates (2026 has no 29 February; no month has 31 days in April): the handler's own
    // check refuses them too, instead of DuckDB's CAST failing as an internal error.
    for (const bad of ['2026-02-30', '2026-02-29', '2026-04-31']) {
      await expect(recentFilings(req({}, { from: bad, page: 1, per_page: 25 }), ctx), bad).rejects.toMatchObject({ status: 400, code: 'invalid_parameter' });
    }
  });

  it('parts of the register routes: latest filing, accounts_filed events, sector financials', async () => {
    expect(await latestFiling(ctx, '10000001')).toEqual({ period_end: '2026-06-30', filing_type: 'full', has_financials: true, filed_at: '2026-10-01' });
    expect(await latestFiling(ctx, '99999999')).toBeNull();
    expect((await accountsEvents(ctx, '10000001')).map((e) => [e.date, e.details.period_end])).toEqual([['2026-10-01', '2026-06-30'], ['2026-01-15', '2025-06-30']]);
    const s = await sectorFinancials(ctx, '62012');
    expect(s).toMatchObject({ financial_benchmarks: { median_revenue: 300000, median_profit_margin: 10, median_total_assets: 75000 }, filing_count: 4 });
  });
});
