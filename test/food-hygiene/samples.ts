/**
 * The food-hygiene domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the four real FSA files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  unansweredExamples: {
    'food-hygiene stats --authority Leeds --chart': { code: 1, error: 'not_found', why: 'the fixture\'s authorities do not include Leeds' },
  },
  routes: [
    { route: 'food-hygiene.establishments', method: 'GET', path: '/v1/food-hygiene/establishments?lat=51.1856&lng=-0.6115&radius_km=2' },
    { route: 'food-hygiene.establishment', method: 'GET', path: '/v1/food-hygiene/establishments/1280734' },
    { route: 'food-hygiene.authorities', method: 'GET', path: '/v1/food-hygiene/authorities' },
    { route: 'food-hygiene.business-types', method: 'GET', path: '/v1/food-hygiene/business-types' },
    { route: 'food-hygiene.statistics', method: 'GET', path: '/v1/food-hygiene/statistics?local_authority=760' },
  ],
  errors: [
    { route: 'food-hygiene.establishments', method: 'GET', path: '/v1/food-hygiene/establishments?lat=51.2' },
  ],
  datasets: ['food-hygiene'],
  build: async ({ mirror, cacheDir }) => {
    // The four real FSA files (test/fixtures/food-hygiene), synced with --from.
    await syncDataset('food-hygiene', { mirrorDir: mirror, cacheDir, env: {}, from: join(__dirname, '..', 'fixtures', 'food-hygiene') });
  },
  lake: {
    datasets: ['food-hygiene'],
    check: async (lake) => {
      // one row per <FHRSID> of the four real FSA files (no establishment is in two of them), one authority a file
      const dir = join(__dirname, '..', 'fixtures', 'food-hygiene');
      const xml = readdirSync(dir).filter((f) => f.endsWith('.xml'));
      const fhrs = xml.flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/<FHRSID>(\d+)<\/FHRSID>/g)].map((m) => m[1]!));
      expect((await lake.rows('food-hygiene', 'establishments')).map((r) => String(r.fhrs_id)).sort()).toEqual([...fhrs].sort());
      expect((await lake.rows('food-hygiene', 'authorities')).map((r) => r.code).sort()).toEqual(xml.map((f) => /^FHRS(\d+)/.exec(f)![1]).sort());
    },
  },
  wide: async ({ call, allPages }) => {
    const places = await allPages('food-hygiene.establishments', '/v1/food-hygiene/establishments');
    for (const e of places) await call('food-hygiene.establishment', `/v1/food-hygiene/establishments/${e.fhrs_id}`);
    const authorities = await allPages('food-hygiene.authorities', '/v1/food-hygiene/authorities');
    for (const a of authorities) await call('food-hygiene.statistics', `/v1/food-hygiene/statistics?local_authority=${a.code}`);
    await call('food-hygiene.statistics', '/v1/food-hygiene/statistics');
    expect([places.length > 50, authorities.length]).toEqual([true, 4]); // the four authorities' files
  },
};
