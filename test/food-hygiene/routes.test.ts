/**
 * The five /v1/food-hygiene routes over a mirror synced from the real fixture files: filters, radius
 * search against an independent haversine over the XML's coordinates, and bad input rejected before any
 * data access (the bad-input calls run against a mirror directory that does not exist: a 400 and not
 * 503 dataset_not_synced shows the mirror was never reached).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, ctxFor, tempDir } from '../support/mirror-helper.js';
import { errorOf, getRoute } from '../support/route.js';
import { AUTHORITIES, fileName, FIXTURE_DIR, haversineKm, readXml, SPEC_VALUE } from './fixture.js';

let dir: string;
let mirrorDir: string;
const all = AUTHORITIES.flatMap((a) => readXml(fileName(a.code)));

beforeAll(async () => {
  dir = tempDir('pd-food-routes-');
  mirrorDir = join(dir, 'mirror');
  await syncDataset('food-hygiene', { env: {}, mirrorDir, cacheDir: join(dir, 'cache'), from: FIXTURE_DIR });
});
afterAll(async () => {
  await closeAll();
  await cleanup([dir]);
});

const get = async (path: string, q: Record<string, string> = {}) => {
  const r = await getRoute(path, q, ctxFor(mirrorDir));
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.envelope)}`);
  return r.envelope as any;
};
const ids = (env: any): number[] => env.data.map((e: any) => e.fhrs_id).sort((a: number, b: number) => a - b);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('GET /v1/food-hygiene/establishments', () => {
  it('radius search: the establishments an independent haversine puts within the radius, nearest first, with distance_km', async () => {
    const waverley = readXml('FHRS314en-GB.xml').filter((e) => e.lat !== null);
    const centre = waverley[7]!;
    for (const radius of [0.5, 2, 5]) {
      const expected = all
        .filter((e) => e.lat !== null && e.lng !== null)
        .map((e) => ({ id: e.id, d: haversineKm(centre.lat!, centre.lng!, e.lat!, e.lng!) }))
        .filter((x) => x.d <= radius)
        .sort((a, b) => a.d - b.d || a.id - b.id);
      expect(expected.length).toBeGreaterThan(0);
      const env = await get('/v1/food-hygiene/establishments', { lat: String(centre.lat), lng: String(centre.lng), radius_km: String(radius), per_page: '100' });
      expect(env.pagination.total).toBe(expected.length);
      expect(env.data.map((e: any) => e.fhrs_id)).toEqual(expected.slice(0, 100).map((x) => x.id));
      env.data.forEach((e: any, i: number) => expect(e.distance_km).toBeCloseTo(expected[i]!.d, 3));
    }
  });

  it('filters: name substring, postcode district vs prefix, rating list, min_rating, scheme, authority', async () => {
    const pizza = all.filter((e) => e.name.toLowerCase().includes('pizza'));
    expect(pizza.length).toBeGreaterThan(0);
    expect(ids(await get('/v1/food-hygiene/establishments', { name: 'PiZzA', per_page: '100' }))).toEqual(sorted(pizza.map((e) => e.id)));

    const withPc = all.map((e) => ({ ...e, pc: e.postcode ?? e.lines.find((l) => /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i.test(l.trim())) ?? null }));
    const outward = (pc: string) => pc.toUpperCase().replace(/\s+/g, '').slice(0, -3);
    const gu = withPc.find((e) => e.pc && /^GU\d/.test(e.pc.toUpperCase()))!;
    const district = outward(gu.pc!);
    const inDistrict = withPc.filter((e) => e.pc && outward(e.pc) === district);
    expect(ids(await get('/v1/food-hygiene/establishments', { postcode: district.toLowerCase(), per_page: '100' }))).toEqual(sorted(inDistrict.map((e) => e.id)));
    const inArea = withPc.filter((e) => e.pc && /^GU\d/i.test(e.pc));
    expect((await get('/v1/food-hygiene/establishments', { postcode: 'GU' })).pagination.total).toBe(inArea.length);
    const full = gu.pc!;
    const same = withPc.filter((e) => e.pc && e.pc.toUpperCase().replace(/\s/g, '') === full.toUpperCase().replace(/\s/g, ''));
    expect(ids(await get('/v1/food-hygiene/establishments', { postcode: full.replace(/\s/g, ''), per_page: '100' }))).toEqual(sorted(same.map((e) => e.id)));

    const r45 = all.filter((e) => e.rating === '4' || e.rating === '5');
    expect((await get('/v1/food-hygiene/establishments', { rating: '4,5' })).pagination.total).toBe(r45.length);
    expect((await get('/v1/food-hygiene/establishments', { min_rating: '4' })).pagination.total).toBe(r45.length);
    const improvement = all.filter((e) => SPEC_VALUE[e.rating] === 'improvement_required' || SPEC_VALUE[e.rating] === 'awaiting_inspection');
    expect((await get('/v1/food-hygiene/establishments', { rating: 'Improvement_Required,awaiting_inspection' })).pagination.total).toBe(improvement.length);
    // The FSA's own spellings, as the files write them, are accepted for the spec's values (issue 37).
    const eatSafe = all.filter((e) => e.rating === 'Pass and Eat Safe');
    expect(eatSafe.length).toBeGreaterThan(0);
    const bySpelling = await get('/v1/food-hygiene/establishments', { rating: 'Pass and Eat Safe', per_page: '100' });
    expect(ids(bySpelling)).toEqual(sorted(eatSafe.map((e) => e.id)));
    expect(bySpelling.data.every((e: any) => e.rating.value === 'pass_and_eat_safe')).toBe(true);
    const awaiting = all.filter((e) => e.rating === 'AwaitingInspection' || e.rating === 'Awaiting Inspection');
    expect((await get('/v1/food-hygiene/establishments', { rating: 'AwaitingInspection' })).pagination.total).toBe(awaiting.length);
    const fhis = readXml('FHRS760en-GB.xml');
    expect((await get('/v1/food-hygiene/establishments', { scheme: 'fhis' })).pagination.total).toBe(fhis.length);
    expect((await get('/v1/food-hygiene/establishments', { scheme: 'fhis', min_rating: '0' })).pagination.total).toBe(0);
    expect((await get('/v1/food-hygiene/establishments', { local_authority: 'aberdeen' })).pagination.total).toBe(fhis.length);
  });

  it('pages and sorts: rating best first, rating_date newest first', async () => {
    const byRating = await get('/v1/food-hygiene/establishments', { sort: 'rating', local_authority: '314', per_page: '100' });
    const numeric = byRating.data.map((e: any) => e.rating.numeric).filter((n: any) => n !== null);
    expect(numeric).toEqual([...numeric].sort((a, b) => b - a));
    const byDate = await get('/v1/food-hygiene/establishments', { sort: 'rating_date', per_page: '100' });
    const dates = byDate.data.map((e: any) => e.rating.date).filter((d: any) => d !== null);
    expect(dates).toEqual([...dates].sort().reverse());
    const p2 = await get('/v1/food-hygiene/establishments', { page: '2', per_page: '50' });
    expect(p2.pagination).toEqual({ total: all.length, page: 2, per_page: 50, total_pages: Math.ceil(all.length / 50) });
    expect(p2.data).toHaveLength(50);
  });
});

describe('the other routes', () => {
  it('business types: ids and counts as the files give them', async () => {
    const env = await get('/v1/food-hygiene/business-types');
    const total = env.data.reduce((n: number, t: any) => n + t.establishment_count, 0);
    expect(total).toBe(all.length);
    expect(env.data.find((t: any) => t.business_type_id === 1)).toMatchObject({ business_type: 'Restaurant/Cafe/Canteen' });
  });

  it('statistics of an FHIS authority: no numeric share, no scores; of a postcode district', async () => {
    const s = await get('/v1/food-hygiene/statistics', { local_authority: '760' });
    expect(s.data).toMatchObject({ area: 'Aberdeen City', share_4_or_5: null, average_scores: null });
    expect((await get('/v1/food-hygiene/statistics', { local_authority: 'er' })).data.area).toBe('Aberdeen City, River Tees, Waverley'); // each authority a name matches
    const tees = readXml('FHRS648en-GB.xml');
    const t = await get('/v1/food-hygiene/statistics', { postcode: 'TS6' });
    expect(t.data.establishment_count).toBe(tees.filter((e) => e.lines.some((l) => /^TS6 /.test(l)) || /^TS6 /.test(e.postcode ?? '')).length);
  });

  it('detail: unknown id 404 in the error envelope', async () => {
    const r = await getRoute('/v1/food-hygiene/establishments/999999999', {}, ctxFor(mirrorDir));
    expect(errorOf(r)).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('bad input: 400 invalid_parameter naming the parameter, before the mirror is opened', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['/v1/food-hygiene/establishments/abc', {}, /fhrs_id/],
    ['/v1/food-hygiene/establishments/1.5', {}, /fhrs_id/],
    ['/v1/food-hygiene/establishments', { rating: 'excellent' }, /'rating'/],
    ['/v1/food-hygiene/establishments', { rating: '4,six' }, /'rating'/],
    ['/v1/food-hygiene/establishments', { rating: 'Pass and Eat' }, /'rating'/],
    ['/v1/food-hygiene/establishments', { lat: '51.2' }, /'lat': needs 'lng'/],
    ['/v1/food-hygiene/establishments', { lng: '-0.7' }, /'lng': needs 'lat'/],
    ['/v1/food-hygiene/establishments', { radius_km: '2' }, /'radius_km': needs 'lat'/],
    ['/v1/food-hygiene/establishments', { lat: '51.2', lng: '-0.7', radius_km: '50.5' }, /radius_km.*at most 50/],
    ['/v1/food-hygiene/establishments', { lat: '51,2', lng: '-0.7' }, /'lat'.*not a number/],
    ['/v1/food-hygiene/establishments', { lat: '91', lng: '0' }, /'lat'/],
    ['/v1/food-hygiene/establishments', { min_rating: '6' }, /'min_rating'/],
    ['/v1/food-hygiene/establishments', { min_rating: 'four' }, /'min_rating'/],
    ['/v1/food-hygiene/establishments', { postcode: 'LS6 1AB X' }, /'postcode'/],
    ['/v1/food-hygiene/establishments', { postcode: '123' }, /'postcode'/],
    ['/v1/food-hygiene/establishments', { scheme: 'ni' }, /'scheme'/],
    ['/v1/food-hygiene/establishments', { sort: 'distance' }, /'sort'.*lat/],
    ['/v1/food-hygiene/establishments', { per_page: '101' }, /'per_page'/],
    ['/v1/food-hygiene/statistics', { local_authority: '314', postcode: 'GU7' }, /cannot be given together/],
    ['/v1/food-hygiene/authorities', { page: '0' }, /'page'/],
  ];
  it.each(cases)('%s %j', async (path, q, message) => {
    const r = await getRoute(path, q, ctxFor(join(dir, 'no-such-mirror')));
    const e = errorOf(r);
    expect(e).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(e.message).toMatch(message);
  });

  it('a valid call on the missing mirror is 503 dataset_not_synced (so the 400s above came first)', async () => {
    const r = await getRoute('/v1/food-hygiene/establishments', { lat: '51.2', lng: '-0.7' }, ctxFor(join(dir, 'no-such-mirror')));
    expect(errorOf(r)).toMatchObject({ status: 503, code: 'dataset_not_synced' });
  });
});
