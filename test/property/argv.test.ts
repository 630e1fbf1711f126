/** property's commands map argv to the route call (moved from test/cli/argv.test.ts). */
import { describe, expect, it } from 'vitest';
import { callOf } from '../support/run-call.js';

describe('property commands map argv to the route call', () => {
  it('price-paid search --postcode: a query parameter', async () => {
    expect(await callOf(['property', 'price-paid', 'search', '--postcode', 'LS8 3BS'])).toMatchObject({ path: '/v1/property/price-paid/search', query: { postcode: 'LS8 3BS' } });
  });
});
