/** property's routes as the router and validator see them (moved from test/cli/contract.test.ts). */
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/registry.js';
import { errorOf, validate } from '../support/validate-call.js';

describe('property routes: matching and validation', () => {
  it('prefers literal segments to parameters', () => {
    expect(matchRoute('GET', '/v1/property/price-paid/statistics').route.id).toBe('property.price-paid.statistics');
  });

  it('uses the spec codes for dates and required filters; council tax band is not an enumeration', () => {
    expect(errorOf(() => validate('GET', '/v1/property/hpi', { from: '2020-13-01' })).message).toContain('Invalid date format. Use YYYY-MM-DD.');
    // band is not an enumeration (an unknown band is an empty 200, spec doc 2): the handler upper-cases it
    expect(validate('GET', '/v1/property/council-tax', { band: 'd' }).query.band).toBe('d');
    expect(errorOf(() => validate('GET', '/v1/property/price-paid/search', {})).code).toBe('invalid_parameter');
  });
});
