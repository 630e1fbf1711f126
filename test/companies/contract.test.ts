/** companies's routes as the router and validator see them (moved from test/cli/contract.test.ts). */
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/registry.js';

describe('companies routes: matching and validation', () => {
  it('prefers literal segments to parameters', () => {
    expect(matchRoute('GET', '/v1/companies/sic-codes').route.id).toBe('companies.sic-codes');
    expect(matchRoute('GET', '/v1/companies/00445790').route.id).toBe('companies.get');
  });
});
