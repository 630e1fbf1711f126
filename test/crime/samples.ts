/**
 * The crime domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the real 2025-05 City of London street file.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { archive, bytesOf, FILES, month2401, rowsOf } from './fixture.js';
import { syncFrom } from '../support/sync-from.js';
import { syncDataset } from '../../src/sync-runner.js';
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
  lake: {
    datasets: ['crime'],
    build: async ({ mirror, src }) => {
      // the real 2024-01 City and Surrey street files and Met outcomes in an archive (zip built here), then
      // the real 2025-05 City street file as a lone member CSV: two months, so two `month` partitions
      const cr = join(src, 'crime');
      mkdirSync(cr, { recursive: true });
      writeFileSync(join(cr, 'latest.zip'), await archive(month2401('new')));
      await syncFrom('crime', mirror, src, join(cr, 'latest.zip'));
      writeFileSync(join(cr, '2025-05-city-of-london-street.csv'), bytesOf(FILES.city2505));
      await syncFrom('crime', mirror, src, join(cr, '2025-05-city-of-london-street.csv'));
    },
    check: async (lake) => {
      // street partitioned by month, one directory a month; the rows of each month's real files
      const perMonth = new Map<string, number>();
      for (const r of await lake.rows('crime', 'street')) perMonth.set(String(r.month), (perMonth.get(String(r.month)) ?? 0) + 1);
      expect([...perMonth.entries()].sort()).toEqual([
        ['2024-01', rowsOf(FILES.city2401new).length + rowsOf(FILES.surrey2401).length],
        ['2025-05', rowsOf(FILES.city2505).length],
      ]);
      expect(lake.files('crime', 'street').map((f) => f.values)).toEqual([{ month: '2024-01' }, { month: '2025-05' }]);
      const met = rowsOf(FILES.met2401outcomes);
      const outcomes = await lake.rows('crime', 'outcomes');
      expect(outcomes.length).toBe(met.length);
      expect(new Set(outcomes.map((r) => r.crime_id))).toEqual(new Set(met.map((r) => r['Crime ID'])));
      // loads: one row per month and force of the files given (the 2024-01 archive's three forces, then the lone 2025-05 file)
      const loads = (await lake.rows('crime', 'loads')).map((r) => `${String(r.month)} ${String(r.force)}`).sort();
      expect(loads).toEqual(['2024-01 city-of-london', '2024-01 metropolitan', '2024-01 surrey', '2025-05 city-of-london']);
      await lake.expectSorted('crime', 'street', ['lsoa_code']);
      await lake.expectSorted('crime', 'outcomes', ['crime_id']);
    },
  },
  wide: async ({ call, allPages }) => {
    const crimes = await allPages('crime.street', '/v1/crime/street?force=city-of-london');
    for (const c of crimes.filter((x) => x.crime_id).slice(0, 40)) await call('crime.outcomes', `/v1/crime/outcomes/${c.crime_id}`);
    await call('crime.street', '/v1/crime/street?lat=51.5155&lng=-0.0922&radius_km=1');
    await call('crime.statistics', '/v1/crime/statistics?lsoa=E01000001');
    expect(crimes.length).toBe(rowsOf(FILES.city2505).length); // the real 2025-05 City file's 342 rows
  },
};
