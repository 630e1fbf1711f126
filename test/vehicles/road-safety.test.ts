/**
 * road-safety: a sync from a local HTTP server of two years in the two STATS19 layouts (2021 republished,
 * 2022 before the 2024 republication), then the collisions routes. Expected records are computed here
 * from the fixture CSVs and the code list with plain JS.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import roadSafety, { defaultYears } from '../../src/domains/vehicles/sync/road-safety.js';
import type { SyncReport } from '../../sync/types.js';
import { ctxFor, loadOnly, sqlOn, tempDir } from '../support/mirror-helper.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import { codeLabels, type CsvRow, readRows, STATS19, writeStats19Year, type Stats19Year } from './stats19-fixture.js';
import { DATASETS } from '../../src/registry.js';

const up = useUpstreamServer('pd-stats19-');
const labels = codeLabels();
let mirror: string;
let report: SyncReport;
let years: Stats19Year[];

beforeAll(async () => {
  const src = tempDir('pd-stats19-src-');
  years = [writeStats19Year(src, 2021), writeStats19Year(src, 2022)];
  for (const f of readdirSync(src)) up.server.setFile(`/road-safety/${f}`, join(src, f));
  const opts = up.syncOptions();
  mirror = opts.mirrorDir;
  report = await syncDataset('road-safety', { ...opts, years: { from: 2021, to: 2022 } });
}, 60_000);

const get = (path: string, query: Record<string, string> = {}) => getRoute(path, query, ctxFor(mirror));
async function ok(path: string, query: Record<string, string> = {}): Promise<SuccessEnvelope<any>> {
  const r = await get(path, query);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}

const int = (s: string | undefined): number | null => (s === undefined || s.trim() === '' ? null : Number(s));
const text = (s: string | undefined): string | null => (s === undefined || s.trim() === '' ? null : s);
const label = (table: string, field: string, v: string | undefined) => (v === undefined || v === '' ? null : (labels.get(`${table}|${field}|${v}`) ?? null));
function isoDate(d: string): string {
  const [dd, mm, yyyy] = d.split('/');
  return `${yyyy}-${mm}-${dd}`;
}

/** The list item of one collision row of either layout. */
function expectedItem(r: CsvRow, year: number): Record<string, unknown> {
  const sev = r.collision_severity ?? r.accident_severity;
  return {
    collision_index: r.collision_index ?? r.accident_index,
    collision_year: year,
    collision_reference: r.collision_ref_no ?? r.accident_reference,
    longitude: text(r.longitude),
    latitude: text(r.latitude),
    collision_severity: int(sev),
    collision_severity_label: label('collision', 'collision_severity', sev),
    number_of_vehicles: int(r.number_of_vehicles),
    number_of_casualties: int(r.number_of_casualties),
    collision_date: isoDate(r.date!),
    collision_time: r.time ? `${r.time}:00` : null,
    police_force: int(r.police_force),
    local_authority_ons_district: text(r.local_authority_ons_district),
    speed_limit: int(r.speed_limit),
    road_type: int(r.road_type),
    road_type_label: label('collision', 'road_type', r.road_type),
    urban_or_rural_area: int(r.urban_or_rural_area),
    urban_or_rural_area_label: label('collision', 'urban_or_rural_area', r.urban_or_rural_area),
    lsoa: text(r.lsoa_of_accident_location),
  };
}

const allRows = () => years.flatMap((y) => y.collisions);
const allItems = () => years.flatMap((y) => y.collisions.map((r) => expectedItem(r, y.year)));
/** Newest first: date, time (unknown last), then index. */
function newestFirst(a: Record<string, any>, b: Record<string, any>): number {
  if (a.collision_date !== b.collision_date) return a.collision_date < b.collision_date ? 1 : -1;
  if (a.collision_time !== b.collision_time) {
    if (a.collision_time === null) return 1;
    if (b.collision_time === null) return -1;
    return a.collision_time < b.collision_time ? 1 : -1;
  }
  return a.collision_index < b.collision_index ? -1 : 1;
}

/**
 * The UTC instant of a London wall-clock time, found with Intl's own Europe/London data (independent of
 * src/uk-time.ts): the earlier of local-1h and local whose London reading is that wall time.
 */
function utcOfLondon(local: string): string {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const wall = (ms: number) => {
    const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  };
  const asUtc = Date.parse(`${local}Z`);
  const hit = [asUtc - 3_600_000, asUtc].find((ms) => wall(ms) === local);
  if (hit === undefined) throw new Error(`no instant shows ${local} in London`);
  return `${new Date(hit).toISOString().slice(0, 19)}Z`;
}

describe('sync road-safety (local HTTP server, both layouts)', () => {
  it('downloads the three files of each year and loads every row', async () => {
    expect(report.status).toBe('synced');
    expect(report.files.map((f) => f.name).sort()).toEqual(
      ['collision', 'vehicle', 'casualty'].flatMap((k) => [2021, 2022].map((y) => `dft-road-casualty-statistics-${k}-${y}.csv`)).sort(),
    );
    const n = years.reduce((s, y) => s + y.collisions.length + y.vehicles.length + y.casualties.length, 0);
    expect(report.rows_loaded).toBe(n);
    expect(report.rows_rejected).toBe(0);
    const dates = allItems().map((i) => i.collision_date as string).sort();
    expect(report.as_of).toBe(dates.at(-1));
  });

  it('maps the old layout onto the republished columns (2011 codings into *_historic)', async () => {
    const old = years[1]!.collisions[0]!;
    const rows = await sqlOn(
      join(mirror, 'road_safety.duckdb'),
      'SELECT junction_detail_historic, junction_detail, carriageway_hazards_historic, collision_adjusted_severity_serious FROM collisions WHERE collision_index = ?',
      [old.accident_index!],
    );
    expect(rows).toEqual([
      { junction_detail_historic: Number(old.junction_detail), junction_detail: null, carriageway_hazards_historic: Number(old.carriageway_hazards), collision_adjusted_severity_serious: null },
    ]);
    const v = years[1]!.vehiclesNew[0]!;
    const veh = await sqlOn(
      join(mirror, 'road_safety.duckdb'),
      'SELECT vehicle_manoeuvre_historic, vehicle_manoeuvre FROM vehicles WHERE collision_index = ? AND vehicle_reference = 1',
      [v.collision_index!],
    );
    expect(veh).toEqual([{ vehicle_manoeuvre_historic: Number(v.vehicle_manoeuvre_historic), vehicle_manoeuvre: null }]);
  });

  it('defaults to 2021 to the latest final year (final data out by October of the next year)', () => {
    expect(defaultYears(new Date('2026-11-21T12:00:00Z'))).toEqual({ from: 2021, to: 2025 });
    expect(defaultYears(new Date('2026-09-30T12:00:00Z'))).toEqual({ from: 2021, to: 2024 });
  });

  it('rejects a row without a valid date and keeps the rest', async () => {
    const d = tempDir('pd-stats19-bad-');
    const lines = (await import('node:fs')).readFileSync(join(STATS19, 'dft-road-casualty-statistics-collision-2021.csv'), 'utf8').split('\n');
    lines[3] = lines[3]!.replace(/,\d{2}\/\d{2}\/2021,/, ',31/02/2021,');
    const file = join(d, 'dft-road-casualty-statistics-collision-2021.csv');
    writeFileSync(file, lines.join('\n'));
    const res = await loadOnly(roadSafety, file, join(d, 'rs.duckdb'));
    expect(res).toMatchObject({ rows: 29, rejected: 1 });
    expect(await sqlOn(join(d, 'rs.duckdb'), 'SELECT line::INTEGER AS line FROM rejects')).toEqual([{ line: 4 }]);
  });
});

describe('GET /v1/vehicles/road-safety/collisions', () => {
  it('lists every collision, newest first, with labels from the code list and -1 kept', async () => {
    const env = await ok('/v1/vehicles/road-safety/collisions', { per_page: '100' });
    const expected = allItems().sort(newestFirst);
    expect(env.data).toEqual(expected);
    expect(env.pagination).toEqual({ total: expected.length, page: 1, per_page: 100, total_pages: 1 });
    // -1 (unknown) is kept as published, not turned into null
    const unknown = await sqlOn(join(mirror, 'road_safety.duckdb'), 'SELECT count(*)::INTEGER AS n FROM collisions WHERE junction_control = -1');
    expect(unknown[0]!.n).toBe(allRows().filter((r) => r.junction_control === '-1').length);
    expect(unknown[0]!.n).toBeGreaterThan(0);
  });

  it('pages', async () => {
    const env = await ok('/v1/vehicles/road-safety/collisions', { per_page: '10', page: '3' });
    expect(env.data).toEqual(allItems().sort(newestFirst).slice(20, 30));
    expect(env.pagination).toMatchObject({ total: 55, page: 3, total_pages: 6 });
  });

  it('filters by year, severity, district (any case) and dates', async () => {
    const all = allItems();
    const check = async (q: Record<string, string>, pred: (i: Record<string, any>) => boolean) => {
      const env = await ok('/v1/vehicles/road-safety/collisions', { ...q, per_page: '100' });
      const exp = all.filter(pred).sort(newestFirst);
      expect(exp.length).toBeGreaterThan(0);
      expect(env.data).toEqual(exp);
    };
    await check({ year: '2022' }, (i) => i.collision_year === 2022);
    await check({ severity: '2' }, (i) => i.collision_severity === 2);
    await check({ local_authority: 'e06000002' }, (i) => i.local_authority_ons_district === 'E06000002');
    await check({ date_from: '2021-03-01', date_to: '2021-06-30' }, (i) => i.collision_date >= '2021-03-01' && i.collision_date <= '2021-06-30');
  });

  it('answers an empty 200 for no match', async () => {
    const env = await ok('/v1/vehicles/road-safety/collisions', { year: '2019' });
    expect(env.data).toEqual([]);
    expect(env.pagination).toMatchObject({ total: 0 });
  });

  it('malformed dates are 422, malformed integers 400 invalid_parameter', async () => {
    const bad = await get('/v1/vehicles/road-safety/collisions', { date_from: '2021-02-30' });
    expect(bad.status).toBe(422);
    expect((bad.envelope as any).error.code).toBe('invalid_parameter');
    expect((await get('/v1/vehicles/road-safety/collisions', { date_to: '01/02/2021' })).status).toBe(422);
    const y = await get('/v1/vehicles/road-safety/collisions', { year: '20x1' });
    expect(y.status).toBe(400);
    expect((y.envelope as any).error.code).toBe('invalid_parameter');
    expect((await get('/v1/vehicles/road-safety/collisions', { severity: '4' })).status).toBe(400);
  });

  it('meta: provenance, coverage, date coverage, geography, cadence, caveat', async () => {
    const env = await ok('/v1/vehicles/road-safety/collisions');
    const dates = allItems().map((i) => i.collision_date as string).sort();
    expect(env.meta).toMatchObject({
      api_version: 'v1',
      licence: 'Open Government Licence v3.0',
      source: 'Department for Transport',
      source_url: 'https://www.data.gov.uk/dataset/cb7ae6f0-4be6-4935-9277-47e5ce24a11f/road-accidents-safety-data',
      as_of: dates.at(-1),
      coverage: { from: 2021, to: 2022 },
      date_coverage: { from: dates[0], to: dates.at(-1) },
      geography: 'Great Britain',
    });
    expect(env.meta.last_updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(env.meta.cadence).toMatch(/annual/);
    expect(env.meta.caveat).toMatch(/reported to the police/);
  });
});

describe('GET /v1/vehicles/road-safety/collisions/{collision_index}', () => {
  const expectedVehicle = (v: CsvRow) => ({
    vehicle_reference: int(v.vehicle_reference),
    vehicle_type: int(v.vehicle_type),
    vehicle_type_label: label('vehicle', 'vehicle_type', v.vehicle_type),
    sex_of_driver: int(v.sex_of_driver),
    sex_of_driver_label: label('vehicle', 'sex_of_driver', v.sex_of_driver),
    age_of_driver: int(v.age_of_driver),
    age_band_of_driver: int(v.age_band_of_driver),
    age_band_of_driver_label: label('vehicle', 'age_band_of_driver', v.age_band_of_driver),
    engine_capacity_cc: int(v.engine_capacity_cc),
    propulsion_code: int(v.propulsion_code),
    age_of_vehicle: int(v.age_of_vehicle),
    generic_make_model: text(v.generic_make_model),
    escooter_flag: int(v.escooter_flag),
  });
  const expectedCasualty = (c: CsvRow) => ({
    vehicle_reference: int(c.vehicle_reference),
    casualty_reference: int(c.casualty_reference),
    casualty_class: int(c.casualty_class),
    casualty_class_label: label('casualty', 'casualty_class', c.casualty_class),
    sex_of_casualty: int(c.sex_of_casualty),
    sex_of_casualty_label: label('casualty', 'sex_of_casualty', c.sex_of_casualty),
    age_of_casualty: int(c.age_of_casualty),
    age_band_of_casualty: int(c.age_band_of_casualty),
    age_band_of_casualty_label: label('casualty', 'age_band_of_casualty', c.age_band_of_casualty),
    casualty_severity: int(c.casualty_severity),
    casualty_severity_label: label('casualty', 'casualty_severity', c.casualty_severity),
    casualty_type: int(c.casualty_type),
    casualty_type_label: label('casualty', 'casualty_type', c.casualty_type),
    casualty_imd_decile: int(c.casualty_imd_decile),
    pedestrian_location: int(c.pedestrian_location),
    lsoa: text(c.lsoa_of_casualty),
  });

  it.each([2021, 2022])('returns a %i collision with its vehicles and casualties (both layouts)', async (year) => {
    const y = years.find((x) => x.year === year)!;
    for (const row of y.collisions.filter((r) => Number(r.number_of_vehicles) >= 2).slice(0, 3)) {
      const item = expectedItem(row, year);
      const idx = item.collision_index as string;
      const env = await ok(`/v1/vehicles/road-safety/collisions/${idx}`);
      expect(env.data).toEqual({
        ...item,
        collision_time: item.collision_time === null ? null : utcOfLondon(`${item.collision_date}T${item.collision_time}`),
        collision_local_time: item.collision_time === null ? null : `${item.collision_date}T${item.collision_time}`,
        vehicles: y.vehiclesNew.filter((v) => v.collision_index === idx).map(expectedVehicle),
        casualties: y.casualtiesNew.filter((c) => c.collision_index === idx).map(expectedCasualty),
      });
      expect(env.data.vehicles).toHaveLength(Number(row.number_of_vehicles));
      expect(env.meta).toMatchObject({ coverage: { from: 2021, to: 2022 }, geography: 'Great Britain', source: 'Department for Transport' });
    }
  });

  it('keeps indexes with letters and leading zeros as strings', async () => {
    const withLetters = readRows(join(STATS19, 'dft-road-casualty-statistics-collision-2021.csv')).find((r) => /[A-Z]/.test(r.collision_index!))!;
    const env = await ok(`/v1/vehicles/road-safety/collisions/${withLetters.collision_index}`);
    expect(env.data.collision_index).toBe(withLetters.collision_index);
    expect(env.data.collision_reference).toBe(withLetters.collision_ref_no);
  });

  it('404 not_found for an unknown index', async () => {
    const r = await get('/v1/vehicles/road-safety/collisions/2021999999999');
    expect(r.status).toBe(404);
    expect((r.envelope as any).error.code).toBe('not_found');
  });
});

describe('sync road-safety: --from and upstream overrides', () => {
  const total = () => years.reduce((s, y) => s + y.collisions.length + y.vehicles.length + y.casualties.length, 0);

  it('a folder of publisher-named files', async () => {
    const src = tempDir('pd-stats19-folder-');
    writeStats19Year(src, 2021);
    writeStats19Year(src, 2022);
    writeFileSync(join(src, 'notes.txt'), 'not a STATS19 file');
    const r = await syncDataset('road-safety', { ...up.syncOptions(), from: [src] });
    expect(r.rows_loaded).toBe(total());
    expect(r.files).toHaveLength(6);
  });

  it('repeated files, in either layout', async () => {
    const src = tempDir('pd-stats19-files-');
    writeStats19Year(src, 2022);
    const files = ['collision', 'vehicle'].map((k) => join(src, `dft-road-casualty-statistics-${k}-2022.csv`));
    const opts = up.syncOptions();
    const r = await syncDataset('road-safety', { ...opts, from: files });
    expect(r.rows_loaded).toBe(years[1]!.collisions.length + years[1]!.vehicles.length);
    const c = await sqlOn(join(opts.mirrorDir, 'road_safety.duckdb'), 'SELECT (SELECT count(*) FROM casualties)::INTEGER AS cas, (SELECT count(DISTINCT collision_year) FROM collisions)::INTEGER AS y');
    expect(c).toEqual([{ cas: 0, y: 1 }]);
  });

  it('a URL prefix, and PUBLICDATA_UPSTREAM_ROAD_SAFETY, serve the publisher names', async () => {
    const a = await syncDataset('road-safety', { ...up.syncOptions(), env: {}, from: [`${up.server.url}/road-safety/`], years: { from: 2021, to: 2022 } });
    expect(a.rows_loaded).toBe(total());
    const b = await syncDataset('road-safety', { ...up.syncOptions(), env: { PUBLICDATA_UPSTREAM_ROAD_SAFETY: `${up.server.url}/road-safety` }, years: { from: 2022, to: 2022 } });
    expect(b.files.map((f) => f.url)).toEqual(['collision', 'vehicle', 'casualty'].map((k) => `${up.server.url}/road-safety/dft-road-casualty-statistics-${k}-2022.csv`));
  });

  it('a year the publisher has not published fails and names --years', async () => {
    await expect(syncDataset('road-safety', { ...up.syncOptions(), years: { from: 2023, to: 2023 } })).rejects.toThrow(/404|not found/i);
  });
});

describe('publicdata vehicles collisions <index> (CLI, piped)', () => {
  it('prints the detail envelope', async () => {
    const { runCli } = await import('../support/cli.js');
    const { dirname } = await import('node:path');
    const env = { PUBLICDATA_DATA_DIR: dirname(mirror), PUBLICDATA_CACHE_DIR: join(dirname(mirror), 'cache'), PUBLICDATA_CONFIG_DIR: join(dirname(mirror), 'config') };
    const idx = years[0]!.collisions[5]!.collision_index!;
    const r = await runCli(['vehicles', 'collisions', idx], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await get(`/v1/vehicles/road-safety/collisions/${idx}`)).envelope);
    const missing = await runCli(['vehicles', 'collisions', '2021000000000', '--source', 'local'], { env });
    expect(JSON.parse(missing.stdout).error.code).toBe('not_found');
    expect(missing.code).not.toBe(0);
  });
});

describe('mirror export road-safety', () => {
  it('Parquet partitioned by collision year', async () => {
    const { exportMirror } = await import('../../src/mirror/export.js');
    const out = tempDir('pd-stats19-export-');
    const tables = await exportMirror({ catalogue: DATASETS, outDir: out, datasets: ['road-safety'], format: 'parquet', mirrorDir: mirror, env: {} });
    const coll = tables.find((t) => t.table === 'collisions')!;
    expect(coll).toMatchObject({ rows: 55, partitioned_by: 'collision_year' });
    expect(readdirSync(coll.path).sort()).toEqual(['collision_year=2021', 'collision_year=2022']);
  });
});
