/**
 * The food-hygiene domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the four real FSA files.
 */
import { join } from 'node:path';
import { syncDataset } from '../../sync/framework.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
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
};
