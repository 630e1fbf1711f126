/**
 * GET /v1/area/{postcode} and `publicdata area` over the fixture mirror of every domain, each section checked
 * against a count made here from the fixture files themselves (own CSV/XML reading, haversine by hand, the
 * schools' grid references converted by the schools tests' hand formulas), not by calling the domain's route.
 * The postcodes are the generated 2026 edition's (test/fixtures/postcodes), placed where the fixtures hold records.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it, beforeAll } from 'vitest';
import { runCli, json } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { FIXED_NOW } from '../support/handler-context.js';
import { syncDataset } from '../../src/sync-runner.js';
import { giasGenerated, gridToWgs84ByHand } from '../schools/fixture.js';
import { GENERATED_2026_CSV } from './samples.js';
import { parseCsv, rowsOf } from './fixture.js';

const fx = useFixtureMirror('pd-area-');
const area = async (args: string[]) => runCli(['area', ...args, '--format', 'json'], { env: fx.env() });
const FIX = join(__dirname, '..', 'fixtures');

function km(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b[0] - a[0]) * r) / 2) ** 2 + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.sin(((b[1] - a[1]) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}
const at = (pc: string): [number, number] => {
  const r = rowsOf(GENERATED_2026_CSV).find((x) => x.pcds === pc)!;
  return [Number(r.lat), Number(r.long)];
};

describe('area sections against independent counts', () => {
  it('crime: the street crimes of the newest month within 1 km of EC2V 7HH, by category, a 12-month window', async () => {
    const r = await area(['EC2V 7HH', '--sections', 'crime']);
    expect(r.code).toBe(0);
    const s = json(r).data.sections.crime;
    const rows = parseCsv(readFileSync(join(FIX, 'crime', '2025-05-city-of-london-street.csv'), 'utf8'))
      .filter((x) => x.Latitude !== '' && km(at('EC2V 7HH'), [Number(x.Latitude), Number(x.Longitude)]) <= 1);
    expect(s.status).toBe('ok');
    expect(s.months).toEqual({ from: '2024-06', to: '2025-05' });
    expect(s.total).toBe(rows.length);
    const burglary = rows.filter((x) => x['Crime type'] === 'Burglary').length;
    expect(s.by_category.find((c: any) => c.category === 'burglary').count).toBe(burglary);
    expect(s.by_month).toHaveLength(12);
    expect(s.by_month.at(-1)).toEqual({ month: '2025-05', count: rows.length });
    expect(s.by_month[0]).toEqual({ month: '2024-06', count: 0 });
    expect(s.source).toContain('/v1/crime/statistics?lat=51.5155&lng=-0.0922&radius_km=1&month_from=2024-06&month_to=2025-05');
    // the source path runs as it is and gives the figure
    const again = json(await runCli(['api', 'GET', s.source.at(-1), '--format', 'json'], { env: fx.env() }));
    expect(again.data.total).toBe(s.total);
  });

  it('schools: open schools within 5 km of LS8 3BS, nearest first', async () => {
    const s = json(await area(['LS8 3BS', '--radius-km', '5', '--sections', 'schools'])).data.sections.schools;
    const near = giasGenerated()
      .filter((g) => g['EstablishmentStatus (name)'].startsWith('Open') && g.Easting !== '')
      .map((g) => ({ urn: Number(g.URN), d: km(at('LS8 3BS'), (({ latitude, longitude }) => [latitude, longitude] as [number, number])(gridToWgs84ByHand(Number(g.Easting), Number(g.Northing)))) }))
      .filter((x) => x.d <= 5)
      .sort((a, b) => a.d - b.d);
    expect(near.length).toBeGreaterThan(0);
    expect(s.count).toBe(near.length);
    expect(s.nearest.map((x: any) => x.urn)).toEqual(near.slice(0, 10).map((x) => x.urn));
    expect(Object.values(s.by_phase as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(near.length);
  });

  it('food hygiene: establishments within 1 km of GU7 1HR in the Waverley file, ratings, share rated 4 or 5', async () => {
    const s = json(await area(['GU7 1HR', '--sections', 'food_hygiene'])).data.sections.food_hygiene;
    const xml = readFileSync(join(FIX, 'food-hygiene', 'FHRS314en-GB.xml'), 'utf8');
    const items = [...xml.matchAll(/<EstablishmentDetail>([\s\S]*?)<\/EstablishmentDetail>/g)].map((m) => ({
      rating: /<RatingValue>([^<]*)<\/RatingValue>/.exec(m[1]!)![1]!,
      lat: Number(/<Latitude>([^<]*)<\/Latitude>/.exec(m[1]!)?.[1] ?? NaN),
      lng: Number(/<Longitude>([^<]*)<\/Longitude>/.exec(m[1]!)?.[1] ?? NaN),
    })).filter((e) => Number.isFinite(e.lat) && km(at('GU7 1HR'), [e.lat, e.lng]) <= 1);
    expect(items.length).toBeGreaterThan(0);
    expect(s.count).toBe(items.length);
    const numeric = items.filter((e) => /^[0-5]$/.test(e.rating));
    expect(s.share_4_or_5).toBe(Math.round((numeric.filter((e) => Number(e.rating) >= 4).length / numeric.length) * 1000) / 1000);
    expect(s.by_rating['5'] ?? 0).toBe(items.filter((e) => e.rating === '5').length);
    expect(s.lowest_rated.length).toBe(Math.min(5, numeric.filter((e) => Number(e.rating) <= 2).length));
  });

  it('road safety: the 2022 collisions (the years held) within 5 km of EC2V 7HH, by severity, casualties', async () => {
    const s = json(await area(['EC2V 7HH', '--radius-km', '5', '--sections', 'road_safety'])).data.sections.road_safety;
    // the fixture mirror holds the 2022 file (old layout): its rows counted here, each by its own distance
    const rows = parseCsv(readFileSync(join(FIX, 'vehicles', 'stats19', 'dft-road-casualty-statistics-collision-2022-pre2024-layout.csv'), 'utf8'))
      .filter((x) => x.latitude !== '' && km(at('EC2V 7HH'), [Number(x.latitude), Number(x.longitude)]) <= 5);
    expect(rows.length).toBeGreaterThan(3);
    // none of them is in the City of London's own district: counting by authority would have found none
    expect(rows.filter((x) => x.local_authority_ons_district === 'E09000001')).toEqual([]);
    const sev = (n: string) => rows.filter((x) => x.accident_severity === n).length;
    expect(s).toMatchObject({
      status: 'ok', radius_km: 5, years: { from: 2022, to: 2022 }, collisions: rows.length,
      by_severity: { fatal: sev('1'), serious: sev('2'), slight: sev('3') },
      casualties: rows.reduce((n, x) => n + Number(x.number_of_casualties), 0),
    });
    expect(s.source).toEqual(['/v1/vehicles/road-safety/nearby/summary?lat=51.5155&lng=-0.0922&radius_km=5']);
    // the source path runs as it is and gives the figure; the records behind it are the same circle on /nearby
    const again = json(await runCli(['api', 'GET', s.source[0], '--format', 'json'], { env: fx.env() }));
    expect(again.data.collisions).toBe(s.collisions);
    const list = json(await runCli(['api', 'GET', `${s.source[0].replace('/nearby/summary?', '/nearby?')}&per_page=100`, '--format', 'json'], { env: fx.env() }));
    expect(list.data.map((x: any) => x.collision_index).sort()).toEqual(rows.map((x) => x.accident_index).sort());
  });

  it('traffic: the 3 count points nearest LS8 3BS within 2 km, each with its latest year and that year\'s all-motor-vehicle flow', async () => {
    const s = json(await area(['LS8 3BS', '--radius-km', '2', '--sections', 'traffic'])).data.sections.traffic;
    // the Leeds AADF file: per count point its newest year's row (position and flow of that year)
    const latest = new Map<string, Record<string, string>>();
    for (const r of parseCsv(readFileSync(join(FIX, 'vehicles', 'dft-road-traffic', 'dft_aadf_local_authority_id_63.csv'), 'utf8'))) {
      const cur = latest.get(r.count_point_id!);
      if (!cur || Number(r.year) > Number(cur.year)) latest.set(r.count_point_id!, r);
    }
    const near = [...latest.values()]
      .map((r) => ({ id: Number(r.count_point_id), road: r.road_name, year: Number(r.year), amv: Number(r.all_motor_vehicles), d: Math.round(km(at('LS8 3BS'), [Number(r.latitude), Number(r.longitude)]) * 1000) / 1000 }))
      .filter((x) => x.d <= 2)
      .sort((a, b) => a.d - b.d || a.id - b.id);
    expect(near.length).toBeGreaterThan(3);
    expect(s.status).toBe('ok');
    expect(s.count_points).toEqual(near.slice(0, 3).map((x) => ({ count_point_id: x.id, road_name: x.road, distance_km: x.d, year: x.year, all_motor_vehicles: x.amv })));
  });

  it('calendar and energy: the next bank holiday of the division after the fixed date; no price cap in Northern Ireland', async () => {
    const d = json(await area(['BT1 5GS', '--sections', 'calendar,energy'])).data.sections;
    const events = JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'calendar', 'bank-holidays.json'), 'utf8'))['northern-ireland'].events as Array<{ date: string; title: string }>;
    const next = events.filter((e) => e.date >= FIXED_NOW.toISOString().slice(0, 10)).sort((a, b) => a.date.localeCompare(b.date))[0]!;
    expect(d.calendar).toMatchObject({ status: 'ok', division: 'northern-ireland', next_bank_holiday: { date: next.date, title: next.title } });
    expect(d.energy.status).toBe('no_coverage');
    const e = json(await area(['EC2V 7HH', '--sections', 'energy'])).data.sections.energy;
    expect(e).toMatchObject({ status: 'ok', region: 'gb_average' });
  });

  it('no_location for the radius sections of a postcode without a grid reference', async () => {
    const d = json(await area(['LS8 9ZZ', '--sections', 'crime,schools,food_hygiene,road_safety,traffic'])).data.sections;
    for (const s of Object.values(d)) expect((s as any).status).toBe('no_location');
  });
});

describe('area: not synced, bad input, the terminal report', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    const data = mkdtempSync(join(tmpdir(), 'pd-area-only-'));
    await syncDataset('postcodes', { mirrorDir: join(data, 'mirror'), cacheDir: join(data, 'cache'), env: {}, from: [GENERATED_2026_CSV] });
    env = { PUBLICDATA_DATA_DIR: data, PUBLICDATA_CONFIG_DIR: join(data, 'config'), PUBLICDATA_CACHE_DIR: join(data, 'cache') };
  }, 60_000);

  it('a section whose dataset is not synced names its sync command; the others answer', async () => {
    const r = await runCli(['area', 'LS8 3BS', '--format', 'json'], { env });
    expect(r.code).toBe(0);
    const { sections } = json(r).data;
    expect(sections.crime).toEqual({ status: 'not_synced', sync: 'publicdata sync crime' });
    expect(sections.schools).toEqual({ status: 'not_synced', sync: 'publicdata sync schools' });
    expect(sections.food_hygiene).toEqual({ status: 'not_synced', sync: 'publicdata sync food-hygiene' });
    expect(sections.calendar.status).toBe('ok'); // shipped bank holidays
    expect(json(r).meta.missing).toEqual(expect.arrayContaining(['crime', 'schools', 'food_hygiene']));
  });

  it('bad input: 400 before any data access, 404 for a postcode not in the directory', async () => {
    for (const args of [['hello'], ['LS8 3BS', '--radius-km', '6'], ['LS8 3BS', '--months', '0'], ['LS8 3BS', '--months', '37'], ['LS8 3BS', '--sections', 'weather']]) {
      const r = await runCli(['area', ...args, '--format', 'json'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(json(r).error.code).toBe('invalid_parameter');
    }
    const r = await runCli(['area', 'ZZ1 1ZZ', '--format', 'json'], { env });
    expect(json(r).error.code).toBe('not_found');
  });

  it('on a terminal: one report within 80 columns, a heading per section, a crime sparkline', async () => {
    const r = await runCli(['area', 'EC2V', '7HH'], { env: fx.env(), tty: true, columns: 80 });
    expect(r.code).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/^CRIME/m);
    expect(r.stdout).toMatch(/by month {2}▁{11}█/);
  });
});
