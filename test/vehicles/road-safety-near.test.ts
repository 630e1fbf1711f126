/**
 * The road-safety radius routes (publicdata extensions): /v1/vehicles/road-safety/nearby (collisions within a
 * radius, nearest first) and /nearby/summary (counts by severity, casualties, per year), over a sync of the
 * two fixture years (2021: collisions across England in the republished layout; 2022: London, in the layout
 * before 2024). Expected figures are counted here from the fixture CSV rows with a haversine written in this
 * file, not by calling the code under test.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor, tempDir } from '../support/mirror-helper.js';
import { json, runCli } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';
import { type CsvRow, writeStats19Year, type Stats19Year } from './stats19-fixture.js';

let mirror: string;
let years: Stats19Year[];

beforeAll(async () => {
  const src = tempDir('pd-stats19-near-src-');
  years = [writeStats19Year(src, 2021), writeStats19Year(src, 2022)];
  const data = tempDir('pd-stats19-near-');
  mirror = join(data, 'mirror');
  await syncDataset('road-safety', { mirrorDir: mirror, cacheDir: join(data, 'cache'), env: {}, from: readdirSync(src).map((f) => join(src, f)) });
}, 60_000);

const get = (path: string, query: Record<string, string> = {}) => getRoute(path, query, ctxFor(mirror));

/** Great-circle km on a sphere of 6371.0088 km (the IUGG mean radius), written out here. */
function km(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

interface Near {
  index: string;
  year: number;
  severity: number;
  casualties: number;
  d: number;
}
/** The fixture collisions of the years within radius of (lat, lng), counted from the CSV rows. */
function nearRows(lat: number, lng: number, radius: number, from = 2021, to = 2022): Near[] {
  return years
    .filter((y) => y.year >= from && y.year <= to)
    .flatMap((y) => y.collisions.map((r: CsvRow) => ({ r, year: y.year })))
    .filter(({ r }) => r.latitude !== '' && r.longitude !== '')
    .map(({ r, year }) => ({
      index: (r.collision_index ?? r.accident_index)!,
      year,
      severity: Number(r.collision_severity ?? r.accident_severity),
      casualties: Number(r.number_of_casualties),
      d: km(lat, lng, Number(r.latitude), Number(r.longitude)),
    }))
    .filter((x) => x.d <= radius)
    .sort((a, b) => Math.round(a.d * 1000) - Math.round(b.d * 1000) || (a.index < b.index ? -1 : 1));
}
const severities = (xs: Near[]) => ({
  fatal: xs.filter((x) => x.severity === 1).length,
  serious: xs.filter((x) => x.severity === 2).length,
  slight: xs.filter((x) => x.severity === 3).length,
});

// Hull (2021 rows) and the City of London (2022 rows)
const HULL = { lat: 53.7434, lng: -0.3874 };
const CITY = { lat: 51.5155, lng: -0.0922 };

describe('GET /v1/vehicles/road-safety/nearby/summary', () => {
  it.each([
    ['Hull, 5 km', HULL, 5],
    ['the City, 3 km', CITY, 3],
    ['the City, 10 km', CITY, 10],
  ])('%s: collisions, by severity and casualties as counted from the CSV rows', async (_name, p, radius) => {
    const want = nearRows(p.lat, p.lng, radius);
    expect(want.length).toBeGreaterThan(1);
    const r = await get('/v1/vehicles/road-safety/nearby/summary', { lat: String(p.lat), lng: String(p.lng), radius_km: String(radius) });
    expect(r.status, JSON.stringify(r.envelope)).toBe(200);
    const d = (r.envelope as any).data;
    expect(d).toMatchObject({ radius_km: radius, years: { from: 2021, to: 2022 }, collisions: want.length, by_severity: severities(want) });
    expect(d.casualties).toBe(want.reduce((n, x) => n + x.casualties, 0));
    expect(d.by_year.map((y: any) => [y.year, y.collisions])).toEqual([2021, 2022].map((y) => [y, want.filter((x) => x.year === y).length]));
  });

  it('a year range: only those years; the newest five held by default; a range outside the years held is 404', async () => {
    const want = nearRows(CITY.lat, CITY.lng, 10, 2022, 2022);
    const r = await get('/v1/vehicles/road-safety/nearby/summary', { lat: String(CITY.lat), lng: String(CITY.lng), radius_km: '10', year_from: '2022' });
    expect((r.envelope as any).data).toMatchObject({ years: { from: 2022, to: 2022 }, collisions: want.length });
    const hull2022 = await get('/v1/vehicles/road-safety/nearby/summary', { lat: String(HULL.lat), lng: String(HULL.lng), radius_km: '5', year_from: '2022', year_to: '2022' });
    expect((hull2022.envelope as any).data).toMatchObject({ collisions: 0, by_severity: { fatal: 0, serious: 0, slight: 0 }, casualties: 0 });
    // asked 2015-2021: narrowed to the years held, and said so
    const narrowed = await get('/v1/vehicles/road-safety/nearby/summary', { lat: String(HULL.lat), lng: String(HULL.lng), radius_km: '5', year_from: '2015', year_to: '2021' });
    expect((narrowed.envelope as any).data.years).toEqual({ from: 2021, to: 2021 });
    expect((narrowed.envelope as any).meta.note).toMatch(/narrowed/);
    const none = await get('/v1/vehicles/road-safety/nearby/summary', { lat: String(HULL.lat), lng: String(HULL.lng), year_from: '2010', year_to: '2012' });
    expect(none.status).toBe(404);
    expect((none.envelope as any).error.code).toBe('not_found');
  });

  it('meta: the years, collisions without a position (counted from the CSV), the distance method', async () => {
    const r = await get('/v1/vehicles/road-safety/nearby/summary', { lat: String(CITY.lat), lng: String(CITY.lng) });
    const m = (r.envelope as any).meta;
    const unplaced = years.flatMap((y) => y.collisions).filter((x) => x.latitude === '' || x.longitude === '').length;
    expect(m).toMatchObject({ years: { from: 2021, to: 2022 }, without_location: unplaced, coverage: { from: 2021, to: 2022 } });
    expect(m.distance).toMatch(/haversine/);
    expect((r.envelope as any).data.radius_km).toBe(1);
  });
});

describe('GET /v1/vehicles/road-safety/nearby', () => {
  it('the collisions within the radius, nearest first (then index), distance_km to the metre, paged', async () => {
    const want = nearRows(CITY.lat, CITY.lng, 10);
    const q = { lat: String(CITY.lat), lng: String(CITY.lng), radius_km: '10' };
    const r = await get('/v1/vehicles/road-safety/nearby', { ...q, per_page: '100' });
    const env = r.envelope as any;
    expect(env.pagination.total).toBe(want.length);
    expect(env.data.map((x: any) => x.collision_index)).toEqual(want.map((x) => x.index));
    expect(env.data.map((x: any) => x.distance_km)).toEqual(want.map((x) => Math.round(x.d * 1000) / 1000));
    const p2 = (await get('/v1/vehicles/road-safety/nearby', { ...q, per_page: '3', page: '2' })).envelope as any;
    expect(p2.data.map((x: any) => x.collision_index)).toEqual(want.slice(3, 6).map((x) => x.index));
    const fatal = (await get('/v1/vehicles/road-safety/nearby', { ...q, severity: '2', per_page: '100' })).envelope as any;
    expect(fatal.data.map((x: any) => x.collision_index)).toEqual(want.filter((x) => x.severity === 2).map((x) => x.index));
  });
});

describe('bad input, --source live, the command', () => {
  const env = () => ({
    PUBLICDATA_DATA_DIR: dirname(mirror),
    PUBLICDATA_CACHE_DIR: join(dirname(mirror), 'cache'),
    PUBLICDATA_CONFIG_DIR: join(dirname(mirror), 'config'),
    PUBLICDATA_API_KEY: fakeKey('test', 'roadsafetynear000000000000000000'),
  });

  it('lat without lng, a radius outside 0.1-25, an undeclared parameter: 400 invalid_parameter (exit 2)', async () => {
    for (const args of [['--lat', '53.7'], ['--near', '53.7,-0.38', '--radius-km', '30'], ['--near', '53.7,-0.38', '--radius-km', '0.05'], ['--near', '53.7,-0.38', '--year-from', 'x']]) {
      const r = await runCli(['vehicles', 'collisions-summary', ...args, '--format', 'json'], { env: env() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(json(r).error.code).toBe('invalid_parameter');
    }
    const u = await runCli(['api', 'GET', '/v1/vehicles/road-safety/nearby?lat=53.7&lng=-0.38&local_authority=E06000010', '--format', 'json'], { env: env() });
    expect(json(u).error.code).toBe('invalid_parameter');
  });

  it('--source live: not_available_live (exit 4) before any request', async () => {
    for (const cmd of ['collisions-summary', 'collisions-near']) {
      const fake = new FakeLive();
      const r = await runCli(['vehicles', cmd, '--near', '53.7434,-0.3874', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
      expect(fake.requests).toEqual([]);
      expect(json(r).error.code).toBe('not_available_live');
      expect(r.code).toBe(4);
    }
  });

  it('vehicles collisions-summary --near LAT,LNG is the route answer for that point', async () => {
    const r = await runCli(['vehicles', 'collisions-summary', '--near', '53.7434,-0.3874', '--radius-km', '5', '--format', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const want = nearRows(HULL.lat, HULL.lng, 5);
    expect(json(r).data).toMatchObject({ collisions: want.length, by_severity: severities(want), years: { from: 2021, to: 2022 } });
  });
});

describe('a mirror synced before the radius routes', () => {
  it('has no collision_points: 503 dataset_not_synced naming the sync, not an internal error', async () => {
    const { copyFileSync, mkdirSync } = await import('node:fs');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const old = join(tempDir('pd-stats19-old-'), 'mirror');
    mkdirSync(old, { recursive: true });
    copyFileSync(join(mirror, 'road_safety.duckdb'), join(old, 'road_safety.duckdb'));
    const db = await DuckDBInstance.create(join(old, 'road_safety.duckdb'));
    const c = await db.connect();
    await c.run('DROP TABLE collision_points');
    c.closeSync();
    db.closeSync();
    const r = await getRoute('/v1/vehicles/road-safety/nearby/summary', { lat: String(HULL.lat), lng: String(HULL.lng) }, ctxFor(old));
    expect(r.status).toBe(503);
    expect((r.envelope as any).error).toMatchObject({ code: 'dataset_not_synced' });
    expect((r.envelope as any).error.message).toContain("'publicdata sync road-safety'");
  });
});
