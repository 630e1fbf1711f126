/**
 * The schools domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the generated GIAS rows and the real Ofsted MI excerpt (Leeds).
 */
import { join } from 'node:path';
import { syncDataset } from '../../sync/framework.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  routes: [
    { route: 'schools.search', method: 'GET', path: '/v1/schools?local_authority=Leeds&per_page=5' },
    { route: 'schools.detail', method: 'GET', path: '/v1/schools/107848' },
    { route: 'schools.inspections.statistics', method: 'GET', path: '/v1/schools/inspections/statistics?local_authority=383' },
  ],
  datasets: ['schools'],
  build: async ({ mirror, cacheDir }) => {
    // The generated GIAS rows of the real Leeds MI excerpt's schools, and the real MI rows (test/fixtures/schools).
    await syncDataset('schools', {
      mirrorDir: mirror, cacheDir, env: {},
      from: ['GENERATED-gias-leeds-rows.csv', 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'].map((f) => join(__dirname, '..', 'fixtures', 'schools', f)),
    });
  },
};
