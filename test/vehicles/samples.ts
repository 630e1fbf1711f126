/**
 * The vehicles domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: STATS19, road traffic (real and generated), generated licensing and MOT files.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { itemDetailCsv, itemGroupCsv, itemsCsv, generateMot, resultsCsv } from './mot-fixture.js';
import { writeStats19Year } from './stats19-fixture.js';
import { generateVeh, vehCsv, writeVeh } from './veh-fixture.js';
import { REAL, writeAadfZip, writeRoadTypeFile } from './traffic-fixture.js';
import type { DomainSamples } from '../support/samples-types.js';
import { syncFrom } from '../support/sync-from.js';

export const samples: DomainSamples = {
  unansweredExamples: {
    'vehicles collisions 2023010419171': { code: 1, error: 'not_found', why: 'the fixture\'s STATS19 collisions are of 2022 only' },
    'vehicles collisions-near --near 53.8,-1.55 --year-from 2023 --severity 1': { code: 1, error: 'not_found', why: 'the fixture\'s STATS19 collisions are of 2022 only' },
  },
  routes: [
    { route: 'vehicles.licensing', method: 'GET', path: '/v1/vehicles/licensing?make=FO&per_page=5' },
    { route: 'vehicles.registrations', method: 'GET', path: '/v1/vehicles/registrations?make=KIA&geography=GB&per_page=5' },
    { route: 'vehicles.mot-tests', method: 'GET', path: '/v1/vehicles/mot-tests?make=FORD&result=failed&per_page=5' },
    { route: 'vehicles.mot-pass-rates', method: 'GET', path: '/v1/vehicles/mot-pass-rates?make=FORD&model=FOCUS' },
    { route: 'vehicles.mot-failures', method: 'GET', path: '/v1/vehicles/mot-failures?make=FORD&dangerous_only=true' },
    { route: 'vehicles.collisions', method: 'GET', path: '/v1/vehicles/road-safety/collisions?year=2022&per_page=5' },
    { route: 'vehicles.collisions.get', method: 'GET', path: '/v1/vehicles/road-safety/collisions/2022010352073' },
    { route: 'vehicles.road-safety.nearby', method: 'GET', path: '/v1/vehicles/road-safety/nearby?lat=51.5155&lng=-0.0922&radius_km=3&per_page=5' },
    { route: 'vehicles.road-safety.nearby.summary', method: 'GET', path: '/v1/vehicles/road-safety/nearby/summary?lat=51.5155&lng=-0.0922&radius_km=3' },
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
  lake: {
    datasets: ['vehicle-licensing', 'mot', 'road-safety', 'road-traffic'],
    build: async ({ mirror, src }) => {
      const veh = join(src, 'veh');
      mkdirSync(veh, { recursive: true });
      for (const [name, table, geo, rows, seed] of [
        ['df_VEH0120_GB.csv', 'licensing', 'GB', 300, 21], ['df_VEH0120_UK.csv', 'licensing', 'UK', 150, 22],
        ['df_VEH0160_GB.csv', 'registrations', 'GB', 150, 23], ['df_VEH0160_UK.csv', 'registrations', 'UK', 90, 24],
      ] as const) writeFileSync(join(veh, name), vehCsv(generateVeh(table, geo, rows, seed)));
      await syncFrom('vehicle-licensing', mirror, src, veh);
      const mot = join(src, 'mot');
      mkdirSync(mot);
      const y24 = generateMot(2024, 800, 3);
      const y25 = generateMot(2025, 1200, 9);
      const motFiles: Record<string, string> = {
        'dft_test_result_extract_202401.csv': resultsCsv(y24.results, '2024'),
        'dft_test_item_extract_202401.csv': itemsCsv(y24.items, '2024'),
        'dft_test_result_extract_202501.csv': resultsCsv(y25.results, '2025'),
        'dft_test_item_extract_202501.csv': itemsCsv(y25.items, '2025'),
        'item_detail.csv': itemDetailCsv(),
        'item_group.csv': itemGroupCsv(),
      };
      for (const [n, t] of Object.entries(motFiles)) writeFileSync(join(mot, n), t);
      await syncFrom('mot', mirror, src, Object.keys(motFiles).map((n) => join(mot, n)));
      const rs = join(src, 'stats19');
      mkdirSync(rs);
      writeStats19Year(rs, 2021);
      writeStats19Year(rs, 2022);
      await syncFrom('road-safety', mirror, src, rs, { years: { from: 2021, to: 2022 } });
      const rt = join(src, 'traffic');
      mkdirSync(rt);
      await writeAadfZip(join(rt, 'dft_traffic_counts_aadf.zip'));
      writeRoadTypeFile(join(rt, 'region_traffic_by_road_type.csv'), [2019, 2020]);
      await syncFrom('road-traffic', mirror, src, [join(rt, 'dft_traffic_counts_aadf.zip'), REAL.regional2025, join(rt, 'region_traffic_by_road_type.csv'), REAL.localAuthority]);
    },
    check: async (lake) => {
      // the tables a reader needs: licensing with make/model/fuel, MOT with failures and pass rates
      expect(lake.columns('vehicle-licensing', 'licensing')).toEqual(expect.arrayContaining(['make', 'model', 'fuel', 'quarter', 'count']));
      expect(lake.columns('mot', 'mot_failures')).toEqual(expect.arrayContaining(['make', 'model', 'failures']));
      expect(lake.columns('mot', 'mot_pass_rates')).toEqual(expect.arrayContaining(['tests', 'passes']));
      // MOT tests by make then model within each year; licensing by make
      await lake.expectSorted('mot', 'mot_tests', ['make', 'model']);
      await lake.expectSorted('vehicle-licensing', 'licensing', ['make']);
    },
  },
  wide: async ({ call, allPages, validate }) => {
    const collisions = await allPages('vehicles.collisions', '/v1/vehicles/road-safety/collisions');
    for (const c of collisions) await call('vehicles.collisions.get', `/v1/vehicles/road-safety/collisions/${c.collision_index}`);
    const records = [
      ...collisions,
      ...(await allPages('vehicles.licensing', '/v1/vehicles/licensing?make=FO')),
      ...(await allPages('vehicles.registrations', '/v1/vehicles/registrations?make=KI')),
      ...(await allPages('vehicles.mot-tests', '/v1/vehicles/mot-tests')),
      ...(await allPages('vehicles.mot-pass-rates', '/v1/vehicles/mot-pass-rates')),
      ...(await allPages('vehicles.mot-failures', '/v1/vehicles/mot-failures')),
      ...(await allPages('vehicles.traffic.count-points', '/v1/vehicles/traffic/count-points')),
      ...(await allPages('vehicles.traffic.aadf', '/v1/vehicles/traffic/aadf')),
      ...(await allPages('vehicles.traffic.regional', '/v1/vehicles/traffic/regional')),
      ...(await allPages('vehicles.traffic.local-authority', '/v1/vehicles/traffic/local-authority')),
    ];
    await call('vehicles.traffic.count-points', '/v1/vehicles/traffic/count-points?lat=53.76&lng=-1.51&radius_km=50');
    expect(collisions.length).toBeGreaterThan(20);
    expect(records.length).toBeGreaterThan(1000);
    // the schemas bite: a spec type broken, a nullable made absent, an undeclared field, a meta field missing
    const env = await call('vehicles.collisions.get', '/v1/vehicles/road-safety/collisions/2022010352073');
    const d = env.data;
    expect(validate('vehicles.collisions.get', { ...env, data: { ...d, collision_severity: '3' } }).join()).toMatch(/collision_severity/);
    expect(validate('vehicles.collisions.get', { ...env, data: { ...d, collision_time: '16:40:00' } }).join()).toMatch(/collision_time/);
    const { lsoa: _l, ...noLsoa } = d;
    expect(validate('vehicles.collisions.get', { ...env, data: noLsoa }).join()).toMatch(/lsoa/);
    expect(validate('vehicles.collisions.get', { ...env, data: { ...d, vehicles: [{ ...d.vehicles[0], colour: 'red' }] } }).join()).toMatch(/additional/);
    const { caveat: _c, ...noCaveat } = env.meta;
    expect(validate('vehicles.collisions.get', { ...env, meta: noCaveat }).join()).toMatch(/caveat/);
  },
};
