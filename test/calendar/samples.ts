/**
 * The calendar domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: shipped data (the bank holidays are optional).
 */
import type { DomainSamples } from '../support/samples-types.js';
import { join } from 'node:path';
import { fixturesOf, buildDataset } from '../support/mirror-helper.js';

const FIXTURES = fixturesOf('calendar');

export const samples: DomainSamples = {
  routes: [
    { route: 'calendar.bank-holidays', method: 'GET', path: '/v1/calendar/bank-holidays?region=scotland' },
    { route: 'calendar.bank-holidays.next', method: 'GET', path: '/v1/calendar/bank-holidays/next' },
    { route: 'calendar.bank-holidays.year', method: 'GET', path: '/v1/calendar/bank-holidays/2026' },
    { route: 'calendar.regions', method: 'GET', path: '/v1/calendar/regions' },
  ],
  errors: [
    { route: 'calendar.bank-holidays.year', method: 'GET', path: '/v1/calendar/bank-holidays/20x6' },
  ],
  lake: {
    datasets: ['bank-holidays'],
    build: async ({ mirror }) => void (await buildDataset('bank-holidays', join(FIXTURES, 'bank-holidays.json'), mirror)),
  },
};
