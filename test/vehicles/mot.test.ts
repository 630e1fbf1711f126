/**
 * /v1/vehicles/mot-tests, /mot-pass-rates, /mot-failures over a mirror synced from GENERATED format-true
 * 2025-layout files (mot-fixture.ts). Expected pages are computed here from the generated rows.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import type { ErrorEnvelope, SuccessEnvelope } from '../../src/contract/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, ctxFor, tempDir } from '../support/mirror-helper.js';
import {
  ageBand, expectedFailures, expectedPassRates, firstUse, firstUseBand, fuelLabel, generateMot, itemDetailCsv, itemGroupCsv, itemsCsv,
  RESULT_LABEL, resultsCsv, type MotResult,
} from './mot-fixture.js';

const Y = generateMot(2025, 3000, 9);
const KEPT = Y.results.filter((x) => RESULT_LABEL[x.test_result]);
const dirs: string[] = [];
let mirror = '';
beforeAll(async () => {
  const src = tempDir('pd-mot-h-');
  dirs.push(src);
  const files: Record<string, string> = {
    'dft_test_result_extract_202501.csv': resultsCsv(Y.results, '2025'),
    'dft_test_item_extract_202501.csv': itemsCsv(Y.items, '2025'),
    'item_detail.csv': itemDetailCsv(),
    'item_group.csv': itemGroupCsv(),
  };
  for (const [n, t] of Object.entries(files)) writeFileSync(join(src, n), t);
  mirror = join(src, 'mirror');
  await syncDataset('mot', { mirrorDir: mirror, cacheDir: join(src, 'cache'), env: {}, from: Object.keys(files).map((n) => join(src, n)) });
}, 120_000);
afterAll(() => cleanup(dirs));

const call = (path: string, query: Record<string, string>) => getRoute(path, query, ctxFor(mirror));
async function ok(path: string, query: Record<string, string>): Promise<SuccessEnvelope<Array<Record<string, unknown>>>> {
  const r = await call(path, query);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<Array<Record<string, unknown>>>;
}
const cmp = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

function record(x: MotResult) {
  const mileage = Number(x.test_mileage);
  return {
    test_id: x.test_id,
    test_date: x.test_date,
    test_year: 2025,
    test_class: x.test_class_id,
    test_type: { NT: 'normal_test', RT: 'retest', PL: 'partial_retest_left_vts' }[x.test_type]!,
    result: RESULT_LABEL[x.test_result]!,
    odometer: { reading: x.test_mileage === '' || mileage === 0 ? null : mileage, unit: 'mi' },
    postcode_area: x.postcode_area,
    make: x.make,
    model: x.model,
    colour: x.colour,
    fuel_type: fuelLabel(x.fuel_type),
    cylinder_capacity_cc: x.cylinder_capacity === '' ? null : Number(x.cylinder_capacity),
    first_use_date: firstUse(x),
  };
}

describe('GET /v1/vehicles/mot-tests', () => {
  it('filters by make, result and postcode area (any case); pages in test-date order; no vehicle id', async () => {
    const want = KEPT.filter((x) => x.make === 'FORD' && x.test_result === 'F')
      .sort((a, b) => cmp(a.test_date, b.test_date) || a.test_id - b.test_id)
      .map(record);
    expect(want.length).toBeGreaterThan(20);
    const e = await ok('/v1/vehicles/mot-tests', { make: 'ford', result: 'failed', per_page: '10', page: '2' });
    expect(e.data).toEqual(want.slice(10, 20));
    expect(e.pagination).toEqual({ total: want.length, page: 2, per_page: 10, total_pages: Math.ceil(want.length / 10) });
    expect(JSON.stringify(e)).not.toMatch(/vehicle_id/);
    expect(e.meta).toMatchObject({
      source: 'Driver and Vehicle Standards Agency', licence: 'Open Government Licence v3.0', coverage: 'results_only',
      available_test_years: [2025], test_year: 2025,
    });
    const area = KEPT.filter((x) => x.postcode_area === 'LS').length;
    expect((await ok('/v1/vehicles/mot-tests', { postcode_area: 'ls', per_page: '1' })).pagination!.total).toBe(area);
  });

  it('first-use year range and fuel type; unknown enum values and malformed years are 400', async () => {
    const want = KEPT.filter((x) => {
      const fu = firstUse(x);
      return fu !== null && fu >= '2010-01-01' && fu <= '2015-12-31' && fuelLabel(x.fuel_type) === 'diesel';
    });
    const e = await ok('/v1/vehicles/mot-tests', { first_use_year_from: '2010', first_use_year_to: '2015', fuel_type: 'diesel', per_page: '100' });
    expect(e.pagination!.total).toBe(want.length);
    expect(new Set(e.data.map((r) => r.test_id))).toEqual(new Set(want.sort((a, b) => cmp(a.test_date, b.test_date) || a.test_id - b.test_id).slice(0, 100).map((x) => x.test_id)));
    expect((await call('/v1/vehicles/mot-tests', { fuel_type: 'coal' })).status).toBe(400);
    const bad = await call('/v1/vehicles/mot-tests', { test_year: '20x5' });
    expect(bad.status).toBe(400);
    expect((bad.envelope as ErrorEnvelope).error.code).toBe('invalid_parameter');
  });
});

describe('GET /v1/vehicles/mot-pass-rates', () => {
  it('normal tests per make, model, bands and fuel; PRS counts as a pass; default test year 2025', async () => {
    const all = expectedPassRates(Y.results);
    const want = [...all]
      .map(([k, v]) => {
        const [year, make, model, fuel, fub, age] = k.split('|');
        return { make, model, first_use_year_band: fub, vehicle_age_band: age, fuel_type: fuel, test_year: Number(year), statistics: { tests: v.tests, passes: v.passes, pass_rate: Math.round((v.passes / v.tests) * 10000) / 10000 } };
      })
      .filter((r) => r.make === 'FORD' && r.model === 'FOCUS');
    const ageOrder = ['0-3', '4-6', '7-9', '10-14', '15-19', '20+', 'unknown'];
    want.sort((a, b) => cmp(b.first_use_year_band, a.first_use_year_band) || ageOrder.indexOf(a.vehicle_age_band!) - ageOrder.indexOf(b.vehicle_age_band!) || cmp(a.fuel_type, b.fuel_type));
    const e = await ok('/v1/vehicles/mot-pass-rates', { make: 'FORD', model: 'FOCUS', per_page: '100' });
    expect(e.data).toEqual(want);
    expect(e.meta).toMatchObject({ test_year: 2025, coverage: 'results_only', aggregation: 'normal_initial_tests' });
    // the totals of one make across every band, computed straight from the rows
    const nt = KEPT.filter((x) => x.test_type === 'NT' && x.make === 'VAUXHALL' && ageBand(x) === '10-14');
    const e2 = await ok('/v1/vehicles/mot-pass-rates', { make: 'vauxhall', vehicle_age_band: '10-14', per_page: '100' });
    const sum = e2.data.reduce((s, r) => s + (r.statistics as { tests: number }).tests, 0);
    expect(sum).toBe(nt.length);
    expect(e2.data.reduce((s, r) => s + (r.statistics as { passes: number }).passes, 0)).toBe(nt.filter((x) => x.test_result !== 'F').length);
    expect(new Set(e2.data.map((r) => r.first_use_year_band))).toEqual(new Set(nt.map(firstUseBand)));
  });

  it('a first use after the test date: both bands unknown, also read from a mirror synced before the fix', async () => {
    // Counted from the generated rows: normal tests with a first-use date later than their test date.
    const after = KEPT.filter((x) => x.test_type === 'NT' && firstUse(x) !== null && firstUse(x)! > x.test_date);
    expect(after.length).toBeGreaterThan(0);
    const unknownOf = (rows: Array<Record<string, unknown>>) =>
      rows.filter((r) => r.vehicle_age_band === 'unknown').map((r) => [r.first_use_year_band, (r.statistics as { tests: number }).tests]);
    for (const x of after.slice(0, 5)) {
      const q = { make: x.make, model: x.model, fuel_type: fuelLabel(x.fuel_type), per_page: '100' };
      // All tests of that make, model and fuel whose age is unknown (no first use, or after the test): one row.
      const n = KEPT.filter((y) => y.test_type === 'NT' && y.make === x.make && y.model === x.model && fuelLabel(y.fuel_type) === fuelLabel(x.fuel_type) && (firstUse(y) === null || firstUse(y)! > y.test_date)).length;
      expect(unknownOf((await ok('/v1/vehicles/mot-pass-rates', q)).data), String(x.test_id)).toEqual([['unknown', n]]);
    }
    // A mirror synced before the fix stored such tests under their year band (e.g. 2025-2029) with age
    // band unknown: make one (a copy, the old rows written back) and read it through the route.
    const old = tempDir('pd-mot-old-');
    dirs.push(old);
    cpSync(mirror, old, { recursive: true });
    const inst = await DuckDBInstance.create(join(old, 'mot.duckdb'));
    const conn = await inst.connect();
    await conn.run(`CREATE TABLE staged AS SELECT * FROM mot_pass_rates WHERE vehicle_age_band <> 'unknown'`);
    await conn.run(`INSERT INTO staged SELECT test_year, make, model, fuel_type,
        CASE WHEN first_use_date IS NULL THEN 'unknown' ELSE CAST(year(first_use_date) // 5 * 5 AS VARCHAR) || '-' || CAST(year(first_use_date) // 5 * 5 + 4 AS VARCHAR) END,
        'unknown', count(*), count(*) FILTER (WHERE result IN ('passed', 'pass_with_rectification'))
      FROM mot_tests WHERE test_type_code = 'NT' AND (first_use_date IS NULL OR first_use_date > test_date) GROUP BY ALL`);
    const stale = await (await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM staged WHERE vehicle_age_band = 'unknown' AND first_use_year_band <> 'unknown'`)).getRowObjects();
    expect(stale[0]!.n).toBeGreaterThan(0);
    await conn.run('DELETE FROM mot_pass_rates');
    await conn.run('INSERT INTO mot_pass_rates SELECT * FROM staged');
    await conn.run('DROP TABLE staged');
    conn.closeSync();
    inst.closeSync();
    for (const x of after.slice(0, 5)) {
      const q = { make: x.make, model: x.model, fuel_type: fuelLabel(x.fuel_type), per_page: '100' };
      const fresh = await ok('/v1/vehicles/mot-pass-rates', q);
      const r = await getRoute('/v1/vehicles/mot-pass-rates', q, ctxFor(join(old)));
      expect((r.envelope as SuccessEnvelope<unknown>).data, String(x.test_id)).toEqual(fresh.data);
    }
  });

  it('a test year not in the mirror: empty 200 saying which years it holds', async () => {
    const e = await ok('/v1/vehicles/mot-pass-rates', { test_year: '2019' });
    expect(e.data).toEqual([]);
    expect(String(e.meta.note)).toContain("publicdata sync mot --years 2019");
    expect((await call('/v1/vehicles/mot-pass-rates', { vehicle_age_band: '3-5' })).status).toBe(400);
  });
});

describe('GET /v1/vehicles/mot-failures', () => {
  it('items per make, model and reason: failures are item rows, affected_tests distinct tests; dangerous_only', async () => {
    const all = [...expectedFailures(Y.results, Y.items)].map(([k, v]) => {
      const [year, make, model, rfr, cat, desc, dang] = k.split('|');
      return { make, model, test_year: Number(year), rfr_type: rfr, defect_category: cat, defect_description: desc, dangerous: dang === 'true', statistics: { failures: v.failures, affected_tests: v.tests.size } };
    });
    const order = (xs: typeof all) =>
      xs.sort((a, b) => b.statistics.failures - a.statistics.failures || cmp(a.make, b.make) || cmp(a.model, b.model) || cmp(a.rfr_type, b.rfr_type) || cmp(a.defect_description, b.defect_description));
    const ford = order(all.filter((r) => r.make === 'FORD'));
    const e = await ok('/v1/vehicles/mot-failures', { make: 'FORD', per_page: '100' });
    expect(e.data).toEqual(ford.slice(0, 100));
    expect(e.pagination!.total).toBe(ford.length);
    expect(e.meta).toMatchObject({ coverage: 'failure_items', aggregation: 'make_model_reason', test_year: 2025 });
    const dang = order(all.filter((r) => r.make === 'FORD' && r.dangerous && r.rfr_type === 'fail'));
    const d = await ok('/v1/vehicles/mot-failures', { make: 'ford', dangerous_only: 'true', rfr_type: 'fail', per_page: '100' });
    expect(d.data).toEqual(dang);
    expect(dang.every((r) => r.defect_category === 'Brakes' || r.defect_category === 'Tyres')).toBe(true);
    expect((await call('/v1/vehicles/mot-failures', { rfr_type: 'major' })).status).toBe(400);
  });
});
