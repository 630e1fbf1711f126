/** calendar's commands map argv to the route call (moved from test/cli/argv.test.ts). */
import { describe, expect, it } from 'vitest';
import { callOf } from '../support/run-call.js';

describe('calendar commands map argv to the route call', () => {
  it('bank-holidays --region: a query parameter', async () => {
    expect(await callOf(['calendar', 'bank-holidays', '--region', 'scotland'])).toMatchObject({ method: 'GET', path: '/v1/calendar/bank-holidays', query: { region: 'scotland' } });
  });
});
