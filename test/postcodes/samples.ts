/**
 * The postcodes domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * the fixture mirror holds the generated August 2026 edition (its national CSV, test/fixtures/postcodes), whose
 * postcodes sit where the other domains' fixtures hold records (the area tests count around them).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import type { DomainSamples } from '../support/samples-types.js';
import { edition2026Zip } from './fixture.js';

export const GENERATED_2026_CSV = join(__dirname, '..', 'fixtures', 'postcodes', 'GENERATED-ONSPD_AUG_2026', 'Data', 'ONSPD_AUG_2026_UK.csv');

export const samples: DomainSamples = {
  routes: [
    { route: 'postcodes.detail', method: 'GET', path: '/v1/postcodes/LS8%203BS' },
    { route: 'postcodes.lookup', method: 'POST', path: '/v1/postcodes/lookup', body: { postcodes: ['LS8 3BS', 'nonsense', 'ZZ1 1ZZ', 'bt15gs'] } },
    { route: 'postcodes.nearest', method: 'GET', path: '/v1/postcodes?lat=53.8262&lng=-1.5215&radius_km=0.5&include_terminated=true' },
    { route: 'area.profile', method: 'GET', path: '/v1/area/EC2V%207HH?sections=crime,schools,food_hygiene,energy,calendar' },
  ],
  errors: [
    { route: 'postcodes.detail', method: 'GET', path: '/v1/postcodes/LS8%209QQ' },
    { route: 'postcodes.detail', method: 'GET', path: '/v1/postcodes/not-a-postcode' },
    { route: 'postcodes.nearest', method: 'GET', path: '/v1/postcodes?lat=53.8&lng=-1.5&radius_km=3' },
    { route: 'area.profile', method: 'GET', path: '/v1/area/LS8%203BS?radius_km=9' },
  ],
  datasets: ['postcodes'],
  build: async ({ mirror, cacheDir }) => {
    await syncDataset('postcodes', { mirrorDir: mirror, cacheDir, env: {}, from: [GENERATED_2026_CSV] });
  },
  lake: {
    datasets: ['postcodes'],
    // the generated edition as its zip (Documents/ name lookups included, so every table has rows)
    build: async ({ mirror, src }) => {
      mkdirSync(src, { recursive: true });
      const zip = join(src, 'ONSPD_AUG_2026.zip');
      writeFileSync(zip, await edition2026Zip());
      await syncDataset('postcodes', { mirrorDir: mirror, cacheDir: join(src, 'cache'), env: {}, from: [zip] });
    },
    check: async (lake) => {
      // one row per data line of the national CSV (counted here), none from multi_csv/
      const lines = readFileSync(GENERATED_2026_CSV, 'utf8').split(/\r?\n/).filter((l) => l !== '').length - 1;
      expect(await lake.rows('postcodes', 'postcodes')).toHaveLength(lines);
      expect((await lake.rows('postcodes', 'area_names')).find((r) => r.code === 'E08000035')?.name).toBe('Leeds');
    },
  },
  wide: async ({ call }) => {
    const pcs = ['LS8 3BS', 'LS8 3XX', 'LS8 9ZZ', 'EC2V 7HH', 'GU7 1HR', 'NE4 9DN', 'AB10 1AB', 'BT1 5GS'];
    for (const p of pcs) await call('postcodes.detail', `/v1/postcodes/${encodeURIComponent(p)}`);
    const many = await call('postcodes.lookup', '/v1/postcodes/lookup', { postcodes: [...pcs, 'x'] });
    expect(many.data.filter((d: { result: unknown }) => d.result !== null)).toHaveLength(8);
    await call('postcodes.nearest', '/v1/postcodes?lat=51.5155&lng=-0.0922&radius_km=2');
    // every section of every postcode through the area's response schema
    for (const p of pcs) await call('area.profile', `/v1/area/${encodeURIComponent(p)}?radius_km=5`);
  },
};
