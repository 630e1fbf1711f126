/**
 * /v1/vehicles/licensing and /registrations over a mirror synced from GENERATED format-true VEH files
 * (veh-fixture.ts). Expected pages are computed here from the generated rows with plain JS.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import type { ErrorEnvelope, SuccessEnvelope } from '../../src/contract/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import { quarterSeries } from '../../src/domains/vehicles/renderers.js';
import { cleanup, ctxFor, tempDir } from '../support/mirror-helper.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { expectedLong, generateVeh, MAKES, vehCsv, type Geo, type LongRow, type VehTable } from './veh-fixture.js';

const FILES: Array<{ name: string; table: VehTable; geo: Geo; rows: number; seed: number }> = [
  { name: 'df_VEH0120_GB.csv', table: 'licensing', geo: 'GB', rows: 400, seed: 21 },
  { name: 'df_VEH0120_UK.csv', table: 'licensing', geo: 'UK', rows: 200, seed: 22 },
  { name: 'df_VEH0160_GB.csv', table: 'registrations', geo: 'GB', rows: 200, seed: 23 },
  { name: 'df_VEH0160_UK.csv', table: 'registrations', geo: 'UK', rows: 120, seed: 24 },
];
const gen = FILES.map((f) => ({ ...f, data: generateVeh(f.table, f.geo, f.rows, f.seed) }));
const LIC = gen.filter((g) => g.table === 'licensing').flatMap((g) => expectedLong(g.data, g.geo));
const REG = gen.filter((g) => g.table === 'registrations').flatMap((g) => expectedLong(g.data, g.geo));

const dirs: string[] = [];
let mirror = '';
let dataDir = '';
beforeAll(async () => {
  const src = tempDir('pd-vehl-src-');
  dirs.push(src);
  for (const g of gen) writeFileSync(join(src, g.name), vehCsv(g.data));
  mirror = join(src, 'mirror');
  dataDir = src;
  await syncDataset('vehicle-licensing', { mirrorDir: mirror, cacheDir: join(src, 'cache'), env: {}, from: src });
}, 120_000);
afterAll(() => cleanup(dirs));

const call = (path: string, query: Record<string, string>, dir = mirror) => getRoute(path, query, ctxFor(dir));
async function ok(path: string, query: Record<string, string>): Promise<SuccessEnvelope<Array<Record<string, unknown>>>> {
  const r = await call(path, query);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<Array<Record<string, unknown>>>;
}

// The spec's order, written out here: one make -> newest quarter first; else make, then newest quarter;
// ties by geography, body type, generic model, model, fuel, licence status (byte-wise, as DuckDB compares).
const cmp = (a: string | undefined, b: string | undefined) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
function order(rows: LongRow[], byMake: boolean): LongRow[] {
  return [...rows].sort(
    (a, b) =>
      (byMake ? cmp(a.make, b.make) : 0) ||
      cmp(b.quarter, a.quarter) ||
      cmp(a.geography, b.geography) ||
      cmp(a.body_type, b.body_type) ||
      cmp(a.generic_model, b.generic_model) ||
      cmp(a.model, b.model) ||
      cmp(a.fuel, b.fuel) ||
      cmp(a.licence_status, b.licence_status),
  );
}
const record = (r: LongRow) => ({
  quarter: r.quarter, geography: r.geography, ...(r.licence_status ? { licence_status: r.licence_status } : {}), body_type: r.body_type,
  make: r.make, generic_model: r.generic_model, model: r.model, fuel: r.fuel, count: r.count,
});
const page = <T>(xs: T[], p: number, n: number) => xs.slice((p - 1) * n, p * n);

describe('GET /v1/vehicles/licensing', () => {
  it('an exact make: newest quarter first, every page, exact totals and provenance', async () => {
    const want = order(LIC.filter((r) => r.make === 'TESLA' && r.geography === 'UK'), false).map(record);
    expect(want.length).toBeGreaterThan(30);
    const e1 = await ok('/v1/vehicles/licensing', { make: 'tesla', geography: 'UK', per_page: '25' });
    expect(e1.data).toEqual(page(want, 1, 25));
    expect(e1.pagination).toEqual({ total: want.length, page: 1, per_page: 25, total_pages: Math.ceil(want.length / 25) });
    const e2 = await ok('/v1/vehicles/licensing', { make: 'TESLA', geography: 'UK', per_page: '25', page: '2' });
    expect(e2.data).toEqual(page(want, 2, 25));
    expect(e1.meta).toMatchObject({
      api_version: 'v1',
      licence: 'Open Government Licence v3.0',
      source: 'Department for Transport',
      source_url: 'https://www.gov.uk/government/statistical-data-sets/vehicle-licensing-statistics-data-files',
      as_of: '2026-03-31',
      last_updated: '2026 Q1',
      coverage: { from: '2014-09-30', to: '2026-03-31', geography: 'UK' },
      makes_matched: ['TESLA'],
    });
  });

  it('a value equal to a make is that make only; a prefix of two makes orders by make, then newest quarter', async () => {
    const ford = await ok('/v1/vehicles/licensing', { make: 'Ford', per_page: '100' });
    expect(ford.pagination!.total).toBe(LIC.filter((r) => r.make === 'FORD').length);
    const want = order(LIC.filter((r) => r.make.startsWith('FO')), true).map(record);
    expect(new Set(want.map((r) => r.make))).toEqual(new Set(['FORD', 'FORDSON']));
    const e = await ok('/v1/vehicles/licensing', { make: 'fo', per_page: '40', page: '3' });
    expect(e.data).toEqual(page(want, 3, 40));
    expect(e.pagination!.total).toBe(want.length);
    expect(e.meta.makes_matched).toEqual(['FORD', 'FORDSON']);
  });

  it('422 make_prefix_too_broad for one character and for more than 25 makes (with the count)', async () => {
    const one = await call('/v1/vehicles/licensing', { make: 'M' });
    expect(one.status).toBe(422);
    expect((one.envelope as ErrorEnvelope).error.code).toBe('make_prefix_too_broad');
    const ma = new Set(LIC.filter((r) => r.make.startsWith('MA')).map((r) => r.make));
    expect(ma.size).toBeGreaterThan(25);
    const broad = await call('/v1/vehicles/licensing', { make: 'ma' });
    expect(broad.status).toBe(422);
    expect((broad.envelope as ErrorEnvelope).error.message).toContain(`matches ${ma.size} makes`);
    const mas = await ok('/v1/vehicles/licensing', { make: 'MAS', per_page: '5' });
    expect(mas.pagination!.total).toBe(LIC.filter((r) => r.make.startsWith('MAS')).length);
    // registrations have no such rule
    const reg = await call('/v1/vehicles/registrations', { make: 'M' });
    expect(reg.status).toBe(200);
    expect(MAKES.length).toBeGreaterThan(25);
  });

  it('model, licence status, body type and quarter range filters', async () => {
    const q = { make: 'FORD', model: 'fiesta', licence_status: 'SORN', body_type: 'cars', quarter_from: '2015-01-01', quarter_to: '2020-12-31', per_page: '100' };
    const want = order(
      LIC.filter(
        (r) =>
          r.make === 'FORD' && (r.model.startsWith('FIESTA') || r.generic_model.startsWith('FIESTA') || r.generic_model.startsWith('FORD FIESTA')) &&
          r.licence_status === 'SORN' && r.body_type === 'Cars' && r.quarter >= '2015-01-01' && r.quarter <= '2020-12-31',
      ),
      false,
    ).map(record);
    expect(want.length).toBeGreaterThan(0);
    const e = await ok('/v1/vehicles/licensing', q);
    expect(e.data).toEqual(want.slice(0, 100));
    expect(e.pagination!.total).toBe(want.length);
  });

  it('no match is an empty 200; a bad date is 400; no mirror is 503 naming the sync', async () => {
    const none = await ok('/v1/vehicles/licensing', { make: 'ZZTOP' });
    expect(none.data).toEqual([]);
    expect(none.pagination!.total).toBe(0);
    const bad = await call('/v1/vehicles/licensing', { quarter_from: '2020-13-01' });
    expect(bad.status).toBe(400);
    const empty = tempDir('pd-vehl-none-');
    dirs.push(empty);
    const ns = await call('/v1/vehicles/licensing', {}, empty);
    expect(ns.status).toBe(503);
    expect((ns.envelope as ErrorEnvelope).error.message).toContain("publicdata sync vehicle-licensing");
  });
});

describe('GET /v1/vehicles/registrations', () => {
  it('filters by make prefix and geography, with last_updated and coverage', async () => {
    const want = order(REG.filter((r) => r.make === 'KIA' && r.geography === 'GB'), false).map(record);
    const e = await ok('/v1/vehicles/registrations', { make: 'KIA', geography: 'GB', per_page: '100' });
    expect(e.data).toEqual(want.slice(0, 100));
    expect(e.pagination!.total).toBe(want.length);
    expect(e.meta).toMatchObject({ last_updated: '2026 Q1', coverage: { from: '2001-03-31', to: '2026-03-31', geography: 'GB' } });
    expect(e.data[0]).not.toHaveProperty('licence_status');
    const all = await ok('/v1/vehicles/registrations', { per_page: '1' });
    expect(all.pagination!.total).toBe(REG.length);
    expect(all.meta.coverage).toEqual({ from: '2001-03-31', to: '2026-03-31', geography: 'GB and UK' });
  });
});

describe('vehicles registrations --chart', () => {
  it('sums the answer by quarter for one geography and draws it on a terminal', async () => {
    const rows = REG.filter((r) => r.make === 'TESLA');
    const series = quarterSeries(rows.map(record), 'GB');
    const sums = new Map<string, number>();
    for (const r of rows.filter((x) => x.geography === 'GB')) sums.set(r.quarter, (sums.get(r.quarter) ?? 0) + r.count);
    expect(series).toEqual([...sums].sort((a, b) => cmp(a[0], b[0])).map(([quarter, count]) => ({ quarter, count })));
    const env = isolatedEnv({ PUBLICDATA_DATA_DIR: dataDir });
    const r = await runCli(['vehicles', 'registrations', '--make', 'tesla', '--all', '--chart', '--source', 'local'], { tty: true, env, columns: 100 });
    expect(r.code).toBe(0);
    const first = series[0]!.quarter;
    const last = series[series.length - 1]!.quarter;
    const lbl = (d: string) => `${d.slice(0, 4)} Q${Math.ceil(Number(d.slice(5, 7)) / 3)}`;
    expect(r.stdout).toContain(`TESLA first registrations, GB, ${lbl(first)} to ${lbl(last)} (sum by quarter; UK left out (use --geography))`);
    // the y axis is labelled up to the largest quarterly sum
    expect(r.stdout).toContain(Math.max(...series.map((p) => p.count)).toLocaleString('en-GB'));
  });
});
