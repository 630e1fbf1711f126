/**
 * The crime domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the real 2025-05 City of London street file.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncDataset } from '../../sync/framework.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  routes: [
    { route: 'crime.street', method: 'GET', path: '/v1/crime/street?force=city-of-london&month=2025-05&per_page=5' },
    { route: 'crime.outcomes', method: 'GET', path: '/v1/crime/outcomes/5dcf36aec35688cb126aabd863e5eb6bddbfef1dee38bc4827a7923e315a56dc' },
    { route: 'crime.statistics', method: 'GET', path: '/v1/crime/statistics?lat=51.5155&lng=-0.0922&radius_km=1' },
    { route: 'crime.categories', method: 'GET', path: '/v1/crime/categories' },
    { route: 'crime.forces', method: 'GET', path: '/v1/crime/forces' },
  ],
  errors: [
    { route: 'crime.street', method: 'GET', path: '/v1/crime/street?lsoa=E01000002&force=surrey' },
    { route: 'crime.outcomes', method: 'GET', path: `/v1/crime/outcomes/${'0'.repeat(64)}` },
  ],
  datasets: ['crime'],
  build: async ({ dataDir, mirror, cacheDir }) => {
    // One real street file under its archive member name (a lone member CSV with --from).
    const cr = join(dataDir, '2025-05-city-of-london-street.csv');
    copyFileSync(join(__dirname, '..', 'fixtures', 'crime', '2025-05-city-of-london-street.csv'), cr);
    await syncDataset('crime', { mirrorDir: mirror, cacheDir, env: {}, from: cr });
  },
};
