/** vehicles's routes as the router and validator see them (moved from test/cli/contract.test.ts). */
import { describe, expect, it } from 'vitest';
import { errorOf, validate } from '../support/validate-call.js';

describe('vehicles routes: matching and validation', () => {
  it('the collisions date filters answer 422 invalid_parameter (spec doc 3)', () => {
    const c = errorOf(() => validate('GET', '/v1/vehicles/road-safety/collisions', { date_from: '2023/01/01' }));
    expect([c.status, c.code]).toEqual([422, 'invalid_parameter']);
  });
});
