/**
 * road-traffic: a sync from a local HTTP server (the zipped AADF file, the 2025-release regional file with
 * `2.28e+08` numbers, a generated road-type file, the local-authority file with `9.00E+05` numbers), then
 * the four traffic routes; expected records are computed here from the fixture CSVs with plain JS. Then a
 * `--from` of the 2021-release regional file (BOM, CRLF, other column names) that keeps the other parts,
 * and the 2025 AADF layout.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import type { SyncReport } from '../../sync/types.js';
import { ctxFor, sqlOn, tempDir } from '../support/mirror-helper.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import type { CsvRow } from './stats19-fixture.js';
import { copy, REAL, ROAD_CATEGORIES, rows, writeAadf2025, writeAadfZip, writeRoadTypeFile } from './traffic-fixture.js';

const up = useUpstreamServer('pd-traffic-');
let mirror: string;
let report: SyncReport;
let roadType: CsvRow[];
const leeds = rows(REAL.aadfLeeds);
const FLOWS = [
  'pedal_cycles', 'two_wheeled_motor_vehicles', 'cars_and_taxis', 'buses_and_coaches', 'lgvs', 'hgvs_2_rigid_axle', 'hgvs_3_rigid_axle',
  'hgvs_4_or_more_rigid_axle', 'hgvs_3_or_4_articulated_axle', 'hgvs_5_articulated_axle', 'hgvs_6_articulated_axle', 'all_hgvs', 'all_motor_vehicles',
];
const VEHICLE_TYPES = ['pedal_cycles', 'two_wheeled_motor_vehicles', 'cars_and_taxis', 'buses_and_coaches', 'lgvs', 'all_hgvs', 'all_motor_vehicles'];

beforeAll(async () => {
  const src = tempDir('pd-traffic-src-');
  await writeAadfZip(join(src, 'dft_traffic_counts_aadf.zip'));
  roadType = writeRoadTypeFile(join(src, 'region_traffic_by_road_type.csv'), [2019, 2020]);
  up.server.setFile('/road-traffic/dft_traffic_counts_aadf.zip', join(src, 'dft_traffic_counts_aadf.zip'));
  up.server.setFile('/road-traffic/region_traffic_by_vehicle_type.csv', REAL.regional2025);
  up.server.setFile('/road-traffic/region_traffic_by_road_type.csv', join(src, 'region_traffic_by_road_type.csv'));
  up.server.setFile('/road-traffic/local_authority_traffic.csv', REAL.localAuthority);
  const opts = up.syncOptions();
  mirror = opts.mirrorDir;
  report = await syncDataset('road-traffic', opts);
}, 60_000);

const get = (path: string, query: Record<string, string> = {}, dir = mirror) => getRoute(path, query, ctxFor(dir));
async function ok(path: string, query: Record<string, string> = {}, dir = mirror): Promise<SuccessEnvelope<any>> {
  const r = await get(path, query, dir);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}
/** Every page of a route (per_page 100). */
async function all(path: string, query: Record<string, string> = {}, dir = mirror): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const env = await ok(path, { ...query, per_page: '100', page: String(page) }, dir);
    out.push(...env.data);
    if (page >= env.pagination!.total_pages) return out;
  }
}

const text = (s: string | undefined): string | null => (s === undefined || s === '' ? null : s);
const byteCmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function expectedAadf(r: CsvRow): Record<string, unknown> {
  return {
    count_point_id: Number(r.count_point_id),
    year: Number(r.year),
    road_name: text(r.road_name),
    estimation_method: text(r.estimation_method),
    daily_flows: Object.fromEntries(FLOWS.map((k) => [k, r[k] === '' ? null : Math.round(Number(r[k]))])),
    road_category: text(r.road_category),
    road_type: text(r.road_type),
    region_name: text(r.region_name),
    local_authority_name: text(r.local_authority_name),
  };
}
const aadfOrder = (a: any, b: any) => a.count_point_id - b.count_point_id || a.year - b.year;

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** Count points as documented: the latest year in the range, with that year's attributes. */
function expectedPoints(from = -Infinity, to = Infinity): Array<Record<string, unknown>> {
  const best = new Map<number, CsvRow>();
  for (const r of leeds) {
    const y = Number(r.year);
    if (y < from || y > to) continue;
    const id = Number(r.count_point_id);
    const cur = best.get(id);
    if (!cur || Number(cur.year) < y) best.set(id, r);
  }
  return [...best.values()]
    .map((r) => ({
      count_point_id: Number(r.count_point_id), year: Number(r.year), road_name: text(r.road_name), road_type: text(r.road_type),
      latitude: Number(r.latitude), longitude: Number(r.longitude),
    }))
    .sort((a, b) => a.count_point_id - b.count_point_id);
}

describe('sync road-traffic (local HTTP server)', () => {
  it('reads the zipped AADF file and the three CSVs', async () => {
    expect(report.status).toBe('synced');
    const la = rows(REAL.localAuthority);
    const regional = rows(REAL.regional2025);
    expect(report.rows_loaded).toBe(leeds.length + regional.length + roadType.length + la.length);
    expect(report.rows_rejected).toBe(0);
    const years = [...leeds, ...regional, ...la, ...roadType].map((r) => Number(r.year));
    expect(report.as_of).toBe(`${Math.max(...years)}-12-31`);
  });
});

describe('GET /v1/vehicles/traffic/aadf', () => {
  it('every row, by count point and year, with every vehicle class as whole vehicles per day', async () => {
    expect(await all('/v1/vehicles/traffic/aadf')).toEqual(leeds.map(expectedAadf).sort(aadfOrder));
  });

  it('filters: count point, years, road name, road class, region, local authority (substrings, any case)', async () => {
    const check = async (q: Record<string, string>, pred: (r: CsvRow) => boolean) => {
      const exp = leeds.filter(pred).map(expectedAadf).sort(aadfOrder);
      expect(exp.length).toBeGreaterThan(0);
      expect(await all('/v1/vehicles/traffic/aadf', q)).toEqual(exp);
    };
    await check({ count_point: leeds[1]!.count_point_id! }, (r) => r.count_point_id === leeds[1]!.count_point_id);
    await check({ year_from: '2018', year_to: '2019' }, (r) => Number(r.year) >= 2018 && Number(r.year) <= 2019);
    await check({ road_name: 'a6' }, (r) => r.road_name!.toLowerCase().includes('a6'));
    await check({ road_class: 'MAJOR' }, (r) => r.road_type === 'Major');
    await check({ region: 'humber' }, () => true);
    await check({ local_authority: 'LEEDS', road_name: 'M1' }, (r) => r.road_name!.includes('M1'));
    expect(await all('/v1/vehicles/traffic/aadf', { local_authority: 'Bradford' })).toEqual([]);
    // a LIKE wildcard in the value is a literal character
    expect(await all('/v1/vehicles/traffic/aadf', { road_name: '%' })).toEqual([]);
  });

  it('meta: unit vehicles/day, provenance and the caveat on modelled estimates', async () => {
    const env = await ok('/v1/vehicles/traffic/aadf');
    expect(env.meta).toMatchObject({ unit: 'vehicles/day', source: 'Department for Transport', licence: 'Open Government Licence v3.0', source_url: 'https://roadtraffic.dft.gov.uk/downloads' });
    expect(env.meta.as_of).toMatch(/^\d{4}-12-31$/);
    expect(env.meta.caveat).toMatch(/modelled estimates/);
  });

  it('malformed numeric filters are 400 invalid_parameter', async () => {
    for (const q of [{ count_point: 'x1' }, { year_from: '2019.5' }] as Array<Record<string, string>>) {
      const r = await get('/v1/vehicles/traffic/aadf', q);
      expect(r.status).toBe(400);
      expect((r.envelope as any).error.code).toBe('invalid_parameter');
    }
  });
});

describe('GET /v1/vehicles/traffic/count-points', () => {
  it('one row per point: latest year, that year’s road and position', async () => {
    expect(await all('/v1/vehicles/traffic/count-points')).toEqual(expectedPoints());
    const env = await ok('/v1/vehicles/traffic/count-points');
    const years = leeds.map((r) => Number(r.year));
    expect(env.meta).toMatchObject({ coverage: `${Math.min(...years)}-${Math.max(...years)}`, source: 'Department for Transport' });
    expect(env.meta.count_point_year).toMatch(/latest year/);
  });

  it('a year range picks the latest year inside it', async () => {
    expect(await all('/v1/vehicles/traffic/count-points', { year_from: '2000', year_to: '2010' })).toEqual(expectedPoints(2000, 2010));
    expect(await all('/v1/vehicles/traffic/count-points', { year_to: '2005', count_point: leeds[0]!.count_point_id! })).toEqual(
      expectedPoints(-Infinity, 2005).filter((p) => p.count_point_id === Number(leeds[0]!.count_point_id)),
    );
  });

  it('radius search: great-circle distance, nearest first', async () => {
    const lat = 53.8;
    const lng = -1.55;
    for (const radius of ['2', '5']) {
      const exp = expectedPoints()
        .map((p) => ({ p, d: haversine(lat, lng, p.latitude as number, p.longitude as number) }))
        .filter((x) => x.d <= Number(radius))
        .sort((a, b) => a.d - b.d || (a.p.count_point_id as number) - (b.p.count_point_id as number))
        .map((x) => ({ ...x.p, distance_km: Math.round(x.d * 1000) / 1000 }));
      expect(exp.length).toBeGreaterThan(0);
      expect(await all('/v1/vehicles/traffic/count-points', { lat: String(lat), lng: String(lng), radius_km: radius })).toEqual(exp);
    }
    // default radius 5 km
    expect(await all('/v1/vehicles/traffic/count-points', { lat: String(lat), lng: String(lng) })).toEqual(
      await all('/v1/vehicles/traffic/count-points', { lat: String(lat), lng: String(lng), radius_km: '5' }),
    );
  });

  it('lat and lng are required together; radius_km at most 100', async () => {
    for (const q of [{ lat: '53.8' }, { lng: '-1.5' }, { lat: '53.8', lng: '-1.5', radius_km: '100.5' }, { lat: 'north', lng: '-1.5' }] as Array<Record<string, string>>) {
      const r = await get('/v1/vehicles/traffic/count-points', q);
      expect(r.status).toBe(400);
      expect((r.envelope as any).error.code).toBe('invalid_parameter');
    }
  });
});

function expectedRegional(): any[] {
  const vt = rows(REAL.regional2025).map((r) => ({
    year: Number(r.year), region_name: r.region_name, breakdown: 'vehicle_type',
    vehicle_miles: Object.fromEntries(VEHICLE_TYPES.map((k) => [k, Number(r[k === 'lgvs' ? 'LGVs' : k === 'all_hgvs' ? 'all_HGVs' : k])])),
  }));
  const groups = new Map<string, any>();
  for (const r of roadType) {
    const key = `${r.year}|${r.region_name}`;
    if (!groups.has(key)) groups.set(key, { year: Number(r.year), region_name: r.region_name, breakdown: 'road_type', vehicle_miles: {} });
    groups.get(key).vehicle_miles[r.road_category_name!.toLowerCase()] = Number(r.all_motor_vehicles);
  }
  return [...vt, ...groups.values()].sort((a, b) => byteCmp(a.region_name, b.region_name) || byteCmp(a.breakdown, b.breakdown) || a.year - b.year);
}

describe('GET /v1/vehicles/traffic/regional', () => {
  it('both breakdowns: vehicle miles as published (2.28e+08 read as 228000000), road categories in order', async () => {
    const got = await all('/v1/vehicles/traffic/regional');
    expect(got).toEqual(expectedRegional());
    const rt = got.find((g) => g.breakdown === 'road_type')!;
    expect(Object.keys(rt.vehicle_miles)).toEqual(ROAD_CATEGORIES.map((c) => c[1].toLowerCase()));
    expect(got.find((g) => g.year === 1993 && g.region_name === 'South West' && g.breakdown === 'vehicle_type').vehicle_miles.pedal_cycles).toBe(228000000);
  });

  it('filters: breakdown, region substring, years', async () => {
    const exp = expectedRegional().filter((r) => r.breakdown === 'road_type' && r.region_name.toLowerCase().includes('east') && r.year === 2020);
    expect(exp.length).toBeGreaterThan(0);
    expect(await all('/v1/vehicles/traffic/regional', { breakdown: 'road_type', region: 'EAST', year_from: '2020', year_to: '2020' })).toEqual(exp);
    const bad = await get('/v1/vehicles/traffic/regional', { breakdown: 'fuel' });
    expect(bad.status).toBe(400);
  });

  it('region in the region vocabulary (issue 37): an ONS slug or GSS code is that DfT region; England is not one', async () => {
    // the 2025-release file's region_ons_code of North West is E12000002
    const exp = expectedRegional().filter((r) => r.region_name === 'North West');
    expect(exp.length).toBeGreaterThan(0);
    for (const region of ['E12000002', 'north_west', 'North-West']) expect(await all('/v1/vehicles/traffic/regional', { region })).toEqual(exp);
    const england = await get('/v1/vehicles/traffic/regional', { region: 'E92000001' });
    expect(england.status).toBe(400);
    expect((england.envelope as any).error.message).toContain("is not one of DfT's road traffic regions");
  });

  it('meta: unit and presentation', async () => {
    const env = await ok('/v1/vehicles/traffic/regional');
    expect(env.meta).toMatchObject({ unit: 'vehicle miles', source: 'Department for Transport' });
    expect(env.meta.presentation).toMatch(/nearest million/);
  });
});

describe('GET /v1/vehicles/traffic/local-authority', () => {
  const expected = () =>
    rows(REAL.localAuthority)
      .map((r) => ({
        year: Number(r.year), local_authority_name: r.local_authority_name, local_authority_code: text(r.local_authority_code),
        vehicle_miles: { cars_and_taxis: Number(r.cars_and_taxis), all_motor_vehicles: Number(r.all_motor_vehicles) },
      }))
      .sort((a, b) => byteCmp(a.local_authority_name!, b.local_authority_name!) || a.year - b.year);

  it('every row; 9.00E+05 read as 900000', async () => {
    const got = await all('/v1/vehicles/traffic/local-authority');
    expect(got).toEqual(expected());
    expect(got.find((g) => g.local_authority_name === 'Isles of Scilly' && g.year === 1993).vehicle_miles.cars_and_taxis).toBe(900000);
  });

  it('filters by name substring and years', async () => {
    const exp = expected().filter((r) => r.local_authority_name!.toLowerCase().includes('shire') && r.year >= 2000);
    expect(exp.length).toBeGreaterThan(0);
    expect(await all('/v1/vehicles/traffic/local-authority', { local_authority: 'SHIRE', year_from: '2000' })).toEqual(exp);
  });
});

describe('other releases', () => {
  it('--from the 2021-release regional file (BOM, CRLF, Region_name, ons_code) replaces that part and keeps the rest', async () => {
    const opts = up.syncOptions();
    opts.mirrorDir = mirror;
    const src = tempDir('pd-traffic-2021-');
    copy(REAL.regional2021, join(src, 'region_traffic_by_vehicle_type.csv'));
    const r = await syncDataset('road-traffic', { ...opts, from: join(src, 'region_traffic_by_vehicle_type.csv') });
    expect(r.status).toBe('synced');
    const old = rows(REAL.regional2021);
    const got = await all('/v1/vehicles/traffic/regional', { breakdown: 'vehicle_type' });
    expect(got).toEqual(
      old
        .map((x) => ({ year: Number(x.year), region_name: x.Region_name, breakdown: 'vehicle_type', vehicle_miles: Object.fromEntries(VEHICLE_TYPES.map((k) => [k, Number(x[k])])) }))
        .sort((a, b) => byteCmp(a.region_name!, b.region_name!) || a.year - b.year),
    );
    // the AADF, road-type and local-authority parts are still there
    expect(await all('/v1/vehicles/traffic/aadf')).toHaveLength(leeds.length);
    expect((await all('/v1/vehicles/traffic/regional', { breakdown: 'road_type' })).length).toBeGreaterThan(0);
    const t = await sqlOn(join(mirror, 'road_traffic.duckdb'), 'SELECT count(*)::INTEGER AS n FROM local_authority_traffic');
    expect(t[0]!.n).toBe(rows(REAL.localAuthority).length);
  });

  it('the 2025 AADF layout (LGVs, HGVs_*, road_category, 8.1647e+04)', async () => {
    const src = tempDir('pd-traffic-2025-');
    const file = join(src, 'dft_traffic_counts_aadf.csv');
    const gen = writeAadf2025(file, 40);
    const opts = up.syncOptions();
    const r = await syncDataset('road-traffic', { ...opts, from: file });
    expect(r.status).toBe('synced');
    const exp = gen
      .map((g) => expectedAadf(Object.fromEntries(Object.entries(g).map(([k, v]) => [k.toLowerCase(), v]))))
      .sort(aadfOrder);
    expect(exp.some((e: any) => e.road_category === 'TM')).toBe(true);
    expect(await all('/v1/vehicles/traffic/aadf', {}, opts.mirrorDir)).toEqual(exp);
    expect(await all('/v1/vehicles/traffic/aadf', { road_class: 'tm' }, opts.mirrorDir)).toEqual(exp.filter((e: any) => e.road_category === 'TM'));
  });
});

describe('publicdata vehicles traffic ... --chart (terminal)', () => {
  it('charts all motor vehicle traffic by year for the first local authority, in million vehicle miles', async () => {
    const { runCli } = await import('../support/cli.js');
    const { dirname } = await import('node:path');
    const env = { PUBLICDATA_DATA_DIR: dirname(mirror), PUBLICDATA_CACHE_DIR: join(dirname(mirror), 'cache'), PUBLICDATA_CONFIG_DIR: join(dirname(mirror), 'config') };
    const la = rows(REAL.localAuthority).filter((r) => r.local_authority_name === 'Nottinghamshire');
    const years = la.map((r) => Number(r.year)).sort((a, b) => a - b);
    const r = await runCli(['vehicles', 'traffic', 'local-authority', '--local-authority', 'Nottinghamshire', '--all', '--chart', '--source', 'local'], { tty: true, env, columns: 80 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Nottinghamshire: all motor vehicles, million vehicle miles, ${years[0]} to ${years.at(-1)}`);
    // the y axis is labelled in whole millions: the largest value appears
    const max = Math.max(...la.map((x) => Math.round(Number(x.all_motor_vehicles) / 1e6)));
    expect(r.stdout).toContain(max.toLocaleString('en-GB'));
    // without --chart the terminal table shows whole millions (the spec's presentation), JSON the published values
    const t = await runCli(['vehicles', 'traffic', 'local-authority', '--local-authority', 'Nottinghamshire', '--source', 'local'], { tty: true, env, columns: 120 });
    const first = la.sort((a, b) => Number(a.year) - Number(b.year))[0]!;
    const row = t.stdout.split('\n').find((l) => l.includes(first.year!))!;
    expect(row.replace(/,/g, '')).toContain(String(Math.round(Number(first.all_motor_vehicles) / 1e6)));
    expect(row.replace(/,/g, '')).not.toContain(first.all_motor_vehicles!);
    expect(t.stdout).toContain('vehicle miles in millions, rounded to the nearest million');
    // piped (no TTY), --chart does not change the JSON envelope
    const piped = await runCli(['vehicles', 'traffic', 'local-authority', '--local-authority', 'Nottinghamshire', '--chart', '--source', 'local'], { env });
    expect(JSON.parse(piped.stdout).data).toHaveLength(la.length);
  });
});

describe('sync road-traffic: --from a folder, rejects, wrong files', () => {
  it('a folder with the zip and a CSV loads those parts (others empty on a first sync)', async () => {
    const src = tempDir('pd-traffic-folder-');
    await writeAadfZip(join(src, 'dft_traffic_counts_aadf.zip'));
    copy(REAL.localAuthority, join(src, 'local_authority_traffic.csv'));
    copy(REAL.localAuthority, join(src, 'README.txt'));
    const opts = up.syncOptions();
    const r = await syncDataset('road-traffic', { ...opts, from: [src] });
    expect(r.files.map((f) => f.name).sort()).toEqual(['dft_traffic_counts_aadf.zip', 'local_authority_traffic.csv']);
    expect(r.rows_loaded).toBe(leeds.length + rows(REAL.localAuthority).length);
    expect(await all('/v1/vehicles/traffic/regional', {}, opts.mirrorDir)).toEqual([]);
  });

  it('a row whose year or number does not parse is rejected with its line', async () => {
    const { loadOnly } = await import('../support/mirror-helper.js');
    const { readFileSync, writeFileSync } = await import('node:fs');
    const roadTraffic = (await import('../../src/domains/vehicles/sync/road-traffic.js')).default;
    const d = tempDir('pd-traffic-bad-');
    const lines = readFileSync(REAL.localAuthority, 'utf8').split('\n');
    lines[2] = lines[2]!.replace(/,1993,/, ',19x3,');
    lines[5] = lines[5]!.replace(/,(\d+)$/, ',12O00');
    const file = join(d, 'local_authority_traffic.csv');
    writeFileSync(file, lines.join('\n'));
    const res = await loadOnly(roadTraffic, file, join(d, 'rt.duckdb'));
    expect(res).toMatchObject({ rows: rows(REAL.localAuthority).length - 2, rejected: 2 });
    expect(await sqlOn(join(d, 'rt.duckdb'), 'SELECT line::INTEGER AS line FROM rejects ORDER BY line')).toEqual([{ line: 3 }, { line: 6 }]);
  });

  it('refuses the by-direction AADF file and a file of another dataset', async () => {
    const d = tempDir('pd-traffic-wrong-');
    const { writeFileSync } = await import('node:fs');
    const byDir = join(d, 'dft_traffic_counts_aadf_by_direction.csv');
    writeFileSync(byDir, 'count_point_id,direction_of_travel,year,all_motor_vehicles\n1,N,2020,5\n');
    await expect(syncDataset('road-traffic', { ...up.syncOptions(), from: byDir })).rejects.toThrow(/by-direction/);
    const other = join(d, 'pp-complete.csv');
    writeFileSync(other, 'a,b,c\n1,2,3\n');
    await expect(syncDataset('road-traffic', { ...up.syncOptions(), from: other })).rejects.toThrow(/not a file of this dataset/);
  });
});
