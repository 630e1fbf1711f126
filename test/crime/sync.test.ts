/**
 * crime: syncs from a real local HTTP server of archives built from the real street and outcomes files,
 * then the /v1/crime routes. Every expected figure is counted here from the CSV files with plain JS.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import type { SyncReport } from '../../sync/types.js';
import { ctxFor, sqlOn } from '../support/mirror-helper.js';
import { errorOf, getRoute } from '../support/route.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import { openApiDocument } from '../../src/server/openapi.js';
import { ROUTES, loadResponseSchemas } from '../../src/registry.js';
import { answerValidator } from '../support/openapi-validate.js';
import { archive, bytesOf, countBy, type CsvRow, distanceKm, FILES, month2401, month2505, rowsOf, variant2505 } from './fixture.js';

const up = useUpstreamServer('pd-crime-');
const LABELS: Record<string, string> = Object.fromEntries(
  (JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'crime', 'categories.json'), 'utf8')) as { categories: Array<{ category: string; label: string }> })
    .categories.map((c) => [c.label, c.category]),
);

let mirror: string;
let first: SyncReport;
let second: SyncReport;
let third: SyncReport;
const messages: string[] = [];

beforeAll(async () => {
  const opts = up.syncOptions();
  mirror = opts.mirrorDir;
  // sync 1: the archive of early 2024 (2024-01 as first published)
  up.server.set('/crime/latest.zip', await archive(month2401('old')), { contentType: 'application/zip' });
  first = await syncDataset('crime', opts);
  // sync 2: a later archive re-issuing 2024-01 (outcomes moved on, rows reordered) and carrying 2025-05;
  // served closing the connection after the body, as some servers do
  up.server.set('/crime/latest.zip', await archive([...month2505(), ...month2401('new')]), { contentType: 'application/zip', fault: { closeAfterBody: true } });
  second = await syncDataset('crime', { ...opts, progress: (e) => (e.type === 'message' ? messages.push(e.text) : undefined) });
}, 120_000);

const get = (path: string, query: Record<string, string> = {}) => getRoute(path, query, ctxFor(mirror));
async function ok(path: string, query: Record<string, string> = {}): Promise<SuccessEnvelope<any>> {
  const r = await get(path, query);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}
async function allPages(path: string, query: Record<string, string>): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const e = await ok(path, { ...query, page: String(page), per_page: '100' });
    out.push(...e.data);
    if (page >= e.pagination!.total_pages) return out;
  }
}

const city2505 = () => rowsOf(FILES.city2505);
const city2401 = () => rowsOf(FILES.city2401new);
const surrey2401 = () => rowsOf(FILES.surrey2401);

describe('sync crime from the archive (local HTTP server)', () => {
  it('loads every street and outcomes row of the months carried', () => {
    expect(first.status).toBe('synced');
    expect(first.rows_loaded).toBe(rowsOf(FILES.city2401old).length + surrey2401().length + rowsOf(FILES.met2401outcomes).length);
    expect(second.status).toBe('synced');
    expect(second.rows_loaded).toBe(city2505().length + city2401().length + surrey2401().length + rowsOf(FILES.met2401outcomes).length);
    expect(second.rows_rejected).toBe(0);
    expect(second.as_of).toBe('2025-05-31');
  });

  it('the later archive replaces the month it re-issues: outcomes updated, row set of the new download', async () => {
    const rows = await sqlOn(join(mirror, 'crime.duckdb'), "SELECT crime_id, last_outcome FROM street WHERE force = 'city-of-london' AND month = '2024-01' AND crime_id IS NOT NULL");
    const got = new Map(rows.map((r) => [r.crime_id as string, r.last_outcome]));
    const newer = new Map(city2401().filter((r) => r['Crime ID']).map((r) => [r['Crime ID']!, r['Last outcome category']!]));
    const older = new Map(rowsOf(FILES.city2401old).filter((r) => r['Crime ID']).map((r) => [r['Crime ID']!, r['Last outcome category']!]));
    expect(got).toEqual(newer);
    // the test can fail: most crimes in both downloads changed their last outcome
    const moved = [...newer.keys()].filter((k) => older.has(k) && older.get(k) !== newer.get(k));
    expect(moved.length).toBeGreaterThan(40);
    const id = moved[0]!;
    const o = await ok(`/v1/crime/outcomes/${id}`);
    expect(o.data.month).toBe('2024-01');
    expect(o.data.last_outcome).toBe(newer.get(id));
    expect(o.data.outcomes).toEqual([]); // known from the street file only: empty outcomes, not 404
  });

  it('counts by category equal the file counted independently (force, one month), slugs from the map', async () => {
    const e = await ok('/v1/crime/statistics', { force: 'city-of-london', month: '2025-05' });
    const want = countBy(city2505(), (r) => r['Crime type']!);
    expect(e.data.total).toBe(city2505().length);
    expect(new Map(e.data.by_category.map((c: any) => [c.category_label, c.count]))).toEqual(want);
    for (const c of e.data.by_category) expect(c.category).toBe(LABELS[c.category_label]);
    const counts = e.data.by_category.map((c: any) => c.count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    expect(e.data.by_month).toEqual([{ month: '2025-05', count: city2505().length }]);
    const outcomes = countBy(city2505(), (r) => r['Last outcome category'] || 'null');
    expect(new Map(e.data.by_outcome.map((o: any) => [o.outcome ?? 'null', o.count]))).toEqual(outcomes);
    expect(e.meta.coverage).toEqual({ from: '2024-01', to: '2025-05' });
    expect(String(e.meta.caveat)).toMatch(/anonymised/);
  });

  it('an LSOA counts the rows of every force whose point falls in it (Surrey rows in a City LSOA)', async () => {
    const lsoa = 'E01032739';
    const rows = [...city2401(), ...surrey2401()].filter((r) => r['LSOA code'] === lsoa);
    const bySurrey = rows.filter((r) => r['Reported by'] === 'Surrey Police').length;
    expect(bySurrey).toBeGreaterThan(0);
    const e = await ok('/v1/crime/statistics', { lsoa, month: '2024-01' });
    expect(e.data.total).toBe(rows.length);
    const list = await allPages('/v1/crime/street', { lsoa: lsoa.toLowerCase(), month: '2024-01' });
    expect(list.length).toBe(rows.length);
    expect(list.filter((c) => c.reported_by === 'Surrey Police').length).toBe(bySurrey);
    expect(new Set(list.map((c) => c.lsoa.code))).toEqual(new Set([lsoa]));
  });

  it('"No Location" rows: null location, counted in the force, never in a radius or LSOA', async () => {
    const noLoc = city2505().filter((r) => r.Location === 'No Location');
    expect(noLoc.length).toBe(42);
    const list = await allPages('/v1/crime/street', { force: 'city-of-london', month: '2025-05' });
    expect(list.length).toBe(city2505().length);
    expect(list.filter((c) => c.location === null).length).toBe(noLoc.length);
    expect(list.filter((c) => c.location === null && c.lsoa === null).length).toBe(noLoc.length);
    // anti-social behaviour: null crime_id, one record per row
    expect(list.filter((c) => c.crime_id === null).length).toBe(city2505().filter((r) => r['Crime ID'] === '').length);
    const withPoint = list.find((c) => c.location !== null);
    expect(typeof withPoint.location.latitude).toBe('number');
  });

  it('a radius query returns exactly the rows an independent haversine puts inside it, nearest first within the month', async () => {
    const lat = 51.5155;
    const lng = -0.0922;
    for (const radius of [0.3, 1]) {
      const want = city2505()
        .filter((r) => r.Latitude !== '' && distanceKm(lat, lng, Number(r.Latitude), Number(r.Longitude)) <= radius)
        .map((r) => distanceKm(lat, lng, Number(r.Latitude), Number(r.Longitude)));
      expect(want.length).toBeGreaterThan(5);
      const list = await allPages('/v1/crime/street', { lat: String(lat), lng: String(lng), radius_km: String(radius), month: '2025-05' });
      expect(list.length).toBe(want.length);
      const d = list.map((c) => c.distance_km);
      expect(d).toEqual([...d].sort((a, b) => a - b));
      expect(Math.max(...d)).toBeLessThanOrEqual(radius);
      // the total rides on the page's query (pagedQuery totalInPage); a page past the end asks for the count
      const q = { lat: String(lat), lng: String(lng), radius_km: String(radius), month: '2025-05', per_page: '3' };
      const p2 = await ok('/v1/crime/street', { ...q, page: '2' });
      expect(p2.pagination!.total).toBe(want.length);
      expect(p2.data.map((c: any) => c.distance_km)).toEqual(d.slice(3, 6));
      const past = await ok('/v1/crime/street', { ...q, page: String(Math.ceil(want.length / 3) + 1) });
      expect(past.pagination!.total).toBe(want.length);
      expect(past.data).toEqual([]);
    }
    const none = await ok('/v1/crime/street', { lat: '58.5', lng: '-3', radius_km: '1', month: '2025-05' });
    expect(none.pagination!.total).toBe(0);
    expect(none.data).toEqual([]);
  });

  it('a category filter keeps the rows of those slugs only', async () => {
    const e = await ok('/v1/crime/street', { force: 'city-of-london', month: '2025-05', category: 'burglary,robbery', per_page: '100' });
    const want = city2505().filter((r) => r['Crime type'] === 'Burglary' || r['Crime type'] === 'Robbery').length;
    expect(e.pagination!.total).toBe(want);
    expect(new Set(e.data.map((c: any) => c.category))).toEqual(new Set(['burglary', 'robbery']));
  });

  it('outcomes of a crime known only from the outcomes files, a repeated Crime ID, and 404 for an unknown id', async () => {
    const met = rowsOf(FILES.met2401outcomes);
    const twice = [...countBy(met, (r) => r['Crime ID']!)].find(([, n]) => n > 1)![0];
    const o = await ok(`/v1/crime/outcomes/${twice}`);
    const want = met.filter((r) => r['Crime ID'] === twice).map((r) => ({ month: r.Month, outcome: r['Outcome type'] }));
    expect(o.data.outcomes).toEqual(want.sort((a, b) => (a.month + a.outcome < b.month + b.outcome ? -1 : 1)));
    expect(o.data.category).toBeNull();
    const repeated = [...countBy(city2505().filter((r) => r['Crime ID']), (r) => r['Crime ID']!)].find(([, n]) => n === 3)![0];
    const r = await ok(`/v1/crime/outcomes/${repeated}`);
    expect(r.data.street_records.length).toBe(3);
    expect(String(r.meta.note)).toMatch(/3 rows/);
    // Both answers in the shape the published schema states (the conformance sample's outcomes are empty).
    const validate = answerValidator(openApiDocument(ROUTES, 'http://127.0.0.1/v1', { auth: true, responses: await loadResponseSchemas() }));
    expect([...validate('crime.outcomes', o), ...validate('crime.outcomes', r)]).toEqual([]);
    expect(validate('crime.outcomes', { ...o, data: { ...o.data, outcomes: [{ month: '2024-1', outcome: 'x' }] } }).join()).toMatch(/month/);
    const missing = await get(`/v1/crime/outcomes/${'0'.repeat(64)}`);
    expect(errorOf(missing)).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('forces: months and street counts per force', async () => {
    const e = await ok('/v1/crime/forces');
    expect(e.data).toEqual([
      { force: 'city-of-london', name: 'City of London Police', months: { from: '2024-01', to: '2025-05' }, street_count: city2401().length + city2505().length },
      { force: 'surrey', name: 'Surrey Police', months: { from: '2024-01', to: '2024-01' }, street_count: surrey2401().length },
    ]);
  });

  it('months default to the newest loaded; a range outside the coverage is an empty answer with a note', async () => {
    const e = await ok('/v1/crime/statistics', { force: 'city-of-london' });
    expect(e.data.months).toEqual({ from: '2025-05', to: '2025-05' });
    const old = await ok('/v1/crime/street', { force: 'surrey', month_from: '2020-01', month_to: '2020-12' });
    expect(old.data).toEqual([]);
    expect(String(old.meta.note)).toMatch(/outside the months loaded/);
  });
});

describe('crime commands over the synced mirror', () => {
  it('crime stats --near --months N, crime street --lsoa --from/--to, --chart, usage errors', async () => {
    const { runCli } = await import('../support/cli.js');
    const { dirname } = await import('node:path');
    const env = { PUBLICDATA_DATA_DIR: dirname(mirror), PUBLICDATA_CACHE_DIR: join(dirname(mirror), 'cache'), PUBLICDATA_CONFIG_DIR: join(dirname(mirror), 'config') };
    const lat = 51.5155;
    const lng = -0.0922;
    const within = (rows: CsvRow[]) => rows.filter((r) => r.Latitude !== '' && distanceKm(lat, lng, Number(r.Latitude), Number(r.Longitude)) <= 1.6).length;
    const r = await runCli(['crime', 'stats', '--near', `${lat},${lng}`, '--months', '24', '--source', 'local', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout).data;
    expect(d.months).toEqual({ from: '2023-06', to: '2025-05' });
    expect(d.total).toBe(within([...city2505(), ...city2401(), ...surrey2401()]));
    expect(d.by_month).toEqual([
      { month: '2024-01', count: within([...city2401(), ...surrey2401()]) },
      { month: '2025-05', count: within(city2505()) },
    ]);
    const s = await runCli(['crime', 'street', '--lsoa', 'E01032739', '--from', '2024-01', '--to', '2024-01', '--all', '--source', 'local', '--format', 'ndjson'], { env });
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout.trim().split('\n').length).toBe([...city2401(), ...surrey2401()].filter((x) => x['LSOA code'] === 'E01032739').length);
    const chart = await runCli(['crime', 'stats', '--force', 'city-of-london', '--months', '24', '--chart', '--source', 'local'], { env, tty: true, columns: 80 });
    expect(chart.stdout).toContain('street-level crimes by month, 2024-01 to 2025-05'); // the loaded months of the range
    const bad = await runCli(['crime', 'street', '--near', '51.5', '--source', 'local'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--near');
    const both = await runCli(['crime', 'street', '--force', 'surrey', '--lsoa', 'E01032739', '--source', 'local'], { env });
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/only one of/);
  });
});

describe('sync crime: months kept, --months, unknown labels', () => {
  it('a later archive without 2024-01 keeps it; --months 1 loads only the newest month', async () => {
    up.server.set('/crime/latest.zip', await archive(month2505()), { contentType: 'application/zip' });
    third = await syncDataset('crime', { ...up.syncOptions(), mirrorDir: mirror });
    expect(third.status).toBe('synced');
    const months = await sqlOn(join(mirror, 'crime.duckdb'), 'SELECT month, street_rows FROM coverage ORDER BY month');
    expect(months).toEqual([
      { month: '2024-01', street_rows: city2401().length + surrey2401().length },
      { month: '2025-05', street_rows: city2505().length },
    ]);
    const opts = up.syncOptions();
    up.server.set('/crime/latest.zip', await archive([...month2401('new'), ...month2505()]), { contentType: 'application/zip' });
    const r = await syncDataset('crime', { ...opts, months: 1 });
    expect(r.rows_loaded).toBe(city2505().length);
  });

  it('a lone member CSV given with --from replaces that force\'s month only', async () => {
    const opts = up.syncOptions();
    up.server.set('/crime/latest.zip', await archive(month2401('old')), { contentType: 'application/zip' });
    await syncDataset('crime', opts);
    const dir = join(opts.mirrorDir, '..', 'from');
    mkdirSync(dir, { recursive: true });
    const lone = join(dir, '2024-01-city-of-london-street.csv');
    writeFileSync(lone, bytesOf(FILES.city2401new));
    const r = await syncDataset('crime', { ...opts, from: lone });
    // the rows this sync loaded, reported as an update of the data there (the other forces kept)
    expect(r).toMatchObject({ mode: 'incremental', action: 'updated', rows_loaded: city2401().length });
    expect(r.rows_total).toBe(city2401().length + surrey2401().length + rowsOf(FILES.met2401outcomes).length);
    const forces = await sqlOn(join(opts.mirrorDir, 'crime.duckdb'), 'SELECT force, count(*) AS n FROM street GROUP BY force ORDER BY force');
    expect(forces).toEqual([{ force: 'city-of-london', n: city2401().length }, { force: 'surrey', n: surrey2401().length }]);
    const loads = await sqlOn(join(opts.mirrorDir, 'crime.duckdb'), 'SELECT force, source FROM loads ORDER BY force');
    expect(loads).toEqual([
      { force: 'city-of-london', source: '2024-01-city-of-london-street.csv' },
      { force: 'metropolitan', source: 'latest.zip' },
      { force: 'surrey', source: 'latest.zip' },
    ]);
  });

  it('keeps a Crime type the map does not know (category null, label as published) and counts identical ASB rows each', async () => {
    const v = variant2505('Fraud and forgery');
    const opts = up.syncOptions();
    up.server.set('/crime/latest.zip', await archive(month2505(v.data)), { contentType: 'application/zip' });
    const log: string[] = [];
    const r = await syncDataset('crime', { ...opts, progress: (e) => (e.type === 'message' ? log.push(e.text) : undefined) });
    const rows = rowsOf(v.data);
    expect(r.rows_loaded).toBe(rows.length);
    expect(log.some((m) => m.includes("'Fraud and forgery'"))).toBe(true);
    const e = (await getRoute('/v1/crime/statistics', { force: 'city-of-london' }, ctxFor(opts.mirrorDir))).envelope as SuccessEnvelope<any>;
    expect(e.data.by_category.find((c: any) => c.category_label === 'Fraud and forgery')).toEqual({ category: null, category_label: 'Fraud and forgery', count: 1 });
    const asb = rows.filter((x: CsvRow) => x['Crime type'] === 'Anti-social behaviour').length;
    expect(e.data.by_category.find((c: any) => c.category === 'anti-social-behaviour').count).toBe(asb);
    expect(rows.filter((x: CsvRow) => Object.values(x).join(',') === v.asbLine).length).toBe(2);
    expect(String(e.meta.note)).toMatch(/category map does not know/);
  });

  it('--forces loads only those forces; a force the archive lacks fails the sync before loading', async () => {
    const opts = up.syncOptions();
    up.server.set('/crime/latest.zip', await archive([...month2401('new'), ...month2505()]), { contentType: 'application/zip' });
    const r = await syncDataset('crime', { ...opts, lists: { forces: ['surrey'] } });
    expect(r.rows_loaded).toBe(surrey2401().length);
    // the same archive again: --force, or the framework answers up to date without loading
    await expect(syncDataset('crime', { ...opts, lists: { forces: ['surrey', 'kent'] }, force: true })).rejects.toThrow(/kent not in the files given/);
    const forces = await sqlOn(join(opts.mirrorDir, 'crime.duckdb'), 'SELECT force FROM forces');
    expect(forces).toEqual([{ force: 'surrey' }]);
  });

  it('a row with coordinates that are not numbers is rejected, stored in rejects and counted', async () => {
    const lines = bytesOf(FILES.city2505).toString('utf8').split('\r\n');
    const cells = lines[5]!.split(',');
    cells[5] = '51.5x'; // GENERATED fault in a copy of a real row: the latitude
    lines[5] = cells.join(',');
    const opts = up.syncOptions();
    up.server.set('/crime/latest.zip', await archive(month2505(Buffer.from(lines.join('\r\n')))), { contentType: 'application/zip' });
    const r = await syncDataset('crime', opts);
    expect(r.rows_rejected).toBe(1);
    expect(r.rows_loaded).toBe(city2505().length - 1);
    const rej = await sqlOn(join(opts.mirrorDir, 'crime.duckdb'), 'SELECT file, raw FROM rejects');
    expect(rej).toEqual([{ file: '2025-05-city-of-london-street.csv', raw: lines[5] }]);
  });

  it('a corrupt archive fails and leaves the previous data answering', async () => {
    const good = await ok('/v1/crime/statistics', { force: 'city-of-london', month: '2025-05' });
    const zip = await archive(month2505());
    const cut = zip.subarray(0, zip.length - 40);
    up.server.set('/crime/latest.zip', cut, { contentType: 'application/zip' });
    await expect(syncDataset('crime', { ...up.syncOptions(), mirrorDir: mirror })).rejects.toThrow();
    const after = await ok('/v1/crime/statistics', { force: 'city-of-london', month: '2025-05' });
    expect(after.data).toEqual(good.data);
    expect(bytesOf(FILES.city2505).length).toBeGreaterThan(0);
  });
});
