/**
 * The food hygiene section of the area profile (src/domains/food-hygiene/area-section.ts), built in process
 * on the food hygiene fixture mirror alone (test/support/area-section.ts), against the establishments of the
 * real Waverley file (FHRS314en-GB.xml) within 1 km of GU7 1HR's point (as the generated postcode directory
 * gives it: 51.1856, -0.6115), read here with regular expressions and this folder's own haversine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { haversineKm } from './fixture.js';

const fx = useFixtureMirror('pd-food-area-', 'food-hygiene');
const GU7: [number, number] = [51.1856, -0.6115];

describe('area section: food hygiene', () => {
  it('establishments within 1 km: ratings, the share rated 4 or 5, the nearest rated 0 to 2', async () => {
    const { answer: s, map } = await buildSection('food_hygiene', place({ lat: GU7[0], lng: GU7[1] }), join(fx.dir(), 'mirror'));
    const xml = readFileSync(join(__dirname, '..', 'fixtures', 'food-hygiene', 'FHRS314en-GB.xml'), 'utf8');
    const items = [...xml.matchAll(/<EstablishmentDetail>([\s\S]*?)<\/EstablishmentDetail>/g)].map((m) => ({
      rating: /<RatingValue>([^<]*)<\/RatingValue>/.exec(m[1]!)![1]!,
      lat: Number(/<Latitude>([^<]*)<\/Latitude>/.exec(m[1]!)?.[1] ?? NaN),
      lng: Number(/<Longitude>([^<]*)<\/Longitude>/.exec(m[1]!)?.[1] ?? NaN),
    })).filter((e) => Number.isFinite(e.lat) && haversineKm(GU7[0], GU7[1], e.lat, e.lng) <= 1);
    expect(items.length).toBeGreaterThan(0);
    expect(s.status).toBe('ok');
    expect(s.count).toBe(items.length);
    const numeric = items.filter((e) => /^[0-5]$/.test(e.rating));
    expect(s.share_4_or_5).toBe(Math.round((numeric.filter((e) => Number(e.rating) >= 4).length / numeric.length) * 1000) / 1000);
    expect((s.by_rating as Record<string, number>)['5'] ?? 0).toBe(items.filter((e) => e.rating === '5').length);
    expect((s.lowest_rated as unknown[]).length).toBe(Math.min(5, numeric.filter((e) => Number(e.rating) <= 2).length));
    expect(map).toEqual([{ layer: 'food', paths: ['/v1/food-hygiene/establishments?lat=51.1856&lng=-0.6115&radius_km=1&sort=distance'] }]);
  });

  it('no_location without a point; not_synced without the data', async () => {
    expect((await buildSection('food_hygiene', place({}), join(fx.dir(), 'mirror'))).answer.status).toBe('no_location');
    expect((await buildSection('food_hygiene', place({ lat: GU7[0], lng: GU7[1] }), join(fx.dir(), 'nothing-here'))).answer).toEqual({ status: 'not_synced', sync: 'publicdata sync food-hygiene' });
  });
});
