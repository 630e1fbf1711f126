/**
 * The vehicles domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: STATS19, road traffic (real and generated), generated licensing and MOT files.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncDataset } from '../../sync/framework.js';
import { itemDetailCsv, itemGroupCsv, itemsCsv, generateMot, resultsCsv } from './mot-fixture.js';
import { writeStats19Year } from './stats19-fixture.js';
import { generateVeh, writeVeh } from './veh-fixture.js';
import { REAL, writeAadfZip, writeRoadTypeFile } from './traffic-fixture.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  routes: [
    { route: 'vehicles.licensing', method: 'GET', path: '/v1/vehicles/licensing?make=FO&per_page=5' },
    { route: 'vehicles.registrations', method: 'GET', path: '/v1/vehicles/registrations?make=KIA&geography=GB&per_page=5' },
    { route: 'vehicles.mot-tests', method: 'GET', path: '/v1/vehicles/mot-tests?make=FORD&result=failed&per_page=5' },
    { route: 'vehicles.mot-pass-rates', method: 'GET', path: '/v1/vehicles/mot-pass-rates?make=FORD&model=FOCUS' },
    { route: 'vehicles.mot-failures', method: 'GET', path: '/v1/vehicles/mot-failures?make=FORD&dangerous_only=true' },
    { route: 'vehicles.collisions', method: 'GET', path: '/v1/vehicles/road-safety/collisions?year=2022&per_page=5' },
    { route: 'vehicles.collisions.get', method: 'GET', path: '/v1/vehicles/road-safety/collisions/2022010352073' },
    { route: 'vehicles.traffic.count-points', method: 'GET', path: '/v1/vehicles/traffic/count-points?per_page=5' },
    { route: 'vehicles.traffic.aadf', method: 'GET', path: '/v1/vehicles/traffic/aadf?count_point=6009' },
    { route: 'vehicles.traffic.regional', method: 'GET', path: '/v1/vehicles/traffic/regional?region=East%20Midlands' },
    { route: 'vehicles.traffic.local-authority', method: 'GET', path: '/v1/vehicles/traffic/local-authority?per_page=5' },
  ],
  errors: [
    { route: 'vehicles.licensing', method: 'GET', path: '/v1/vehicles/licensing?make=MA' },
  ],
  datasets: ['road-safety', 'road-traffic', 'vehicle-licensing', 'mot'],
  build: async ({ dataDir, mirror, cacheDir }) => {
    const rs = join(dataDir, 'stats19');
    const tr = join(dataDir, 'road-traffic');
    const vl = join(dataDir, 'vehicle-licensing');
    const mt = join(dataDir, 'mot');
    // The publishers' files under their own names, synced with --from.
    await Promise.all([
      (async () => {
        writeStats19Year(rs, 2022);
        await syncDataset('road-safety', { mirrorDir: mirror, cacheDir, env: {}, from: readdirSync(rs).map((f) => join(rs, f)) });
      })(),
      (async () => {
        mkdirSync(tr, { recursive: true });
        await writeAadfZip(join(tr, 'dft_traffic_counts_aadf.zip'));
        writeRoadTypeFile(join(tr, 'region_traffic_by_road_type.csv'), [2019, 2020]);
        copyFileSync(REAL.regional2025, join(tr, 'region_traffic_by_vehicle_type.csv'));
        copyFileSync(REAL.localAuthority, join(tr, 'local_authority_traffic.csv'));
        await syncDataset('road-traffic', { mirrorDir: mirror, cacheDir, env: {}, from: readdirSync(tr).map((f) => join(tr, f)) });
      })(),
      // Licensing and MOT: GENERATED format-true files (veh-fixture.ts, mot-fixture.ts).
      (async () => {
        mkdirSync(vl, { recursive: true });
        writeVeh(join(vl, 'df_VEH0120_GB.csv'), generateVeh('licensing', 'GB', 200, 31));
        writeVeh(join(vl, 'df_VEH0160_GB.csv'), generateVeh('registrations', 'GB', 120, 32));
        await syncDataset('vehicle-licensing', { mirrorDir: mirror, cacheDir, env: {}, from: vl });
      })(),
      (async () => {
        mkdirSync(mt, { recursive: true });
        const y = generateMot(2025, 600, 33);
        writeFileSync(join(mt, 'dft_test_result_extract_202501.csv'), resultsCsv(y.results, '2025'));
        writeFileSync(join(mt, 'dft_test_item_extract_202501.csv'), itemsCsv(y.items, '2025'));
        writeFileSync(join(mt, 'item_detail.csv'), itemDetailCsv());
        writeFileSync(join(mt, 'item_group.csv'), itemGroupCsv());
        await syncDataset('mot', { mirrorDir: mirror, cacheDir, env: {}, from: mt });
      })(),
    ]);
  },
};
