/**
 * The earnings domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the real ASHE Table 8.7a 2020.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { buildDataset } from '../support/mirror-helper.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  unansweredExamples: {
    'earnings rank 650 --measure weekly_gross --chart': { code: 1, error: 'dataset_not_synced', why: 'the fixture loads no ASHE Table 7 weekly_gross' },
    'earnings rank 38000 --occupation 2231': { code: 1, error: 'dataset_not_synced', why: 'the fixture loads no ASHE Table 14 (occupation)' },
  },
  routes: [
    { route: 'earnings.regions', method: 'GET', path: '/v1/earnings/regions?basis=residence&level=region&population=all' },
    { route: 'earnings.industries', method: 'GET', path: '/v1/earnings/industries?level=section' },
    { route: 'earnings.occupations', method: 'GET', path: '/v1/earnings/occupations' },
    { route: 'earnings.percentile', method: 'POST', path: '/v1/earnings/percentile', body: { amount: 28000, population: 'all' } },
  ],
  errors: [
    { route: 'earnings.regions', method: 'GET', path: '/v1/earnings/regions?basis=residence&year=2019' },
  ],
  datasets: ['earnings'],
  build: async ({ mirror }) => {
    // The REAL ASHE Table 8.7a 2020 only; Tables 4, 7, 14 not loaded: empty answers with a note.
    await buildDataset('earnings', join(__dirname, '..', 'fixtures', 'earnings', 'Home Geography Table 8.7a   Annual pay - Gross 2020.xls'), mirror);
  },
  lake: {
    datasets: ['earnings'],
    check: async (lake) => {
      // one source row (Table 8, annual gross, 2020) and every row from that file
      const src = await lake.rows('earnings', 'earnings_sources');
      expect(src.map((r) => [r.ons_table, r.measure, Number(r.year)])).toEqual([['8', 'annual_gross', 2020]]);
      const earn = await lake.rows('earnings', 'earnings');
      expect(earn.length).toBe(Number(src[0]!.rows));
      expect(new Set(earn.map((r) => Number(r.year)))).toEqual(new Set([2020]));
    },
  },
};
