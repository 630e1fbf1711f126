/** calendar's routes as the router and validator see them (moved from test/cli/contract.test.ts). */
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/registry.js';
import { errorOf, validate } from '../support/validate-call.js';

describe('calendar routes: matching and validation', () => {
  it('prefers literal segments to parameters', () => {
    expect(matchRoute('GET', '/v1/calendar/bank-holidays/next').route.id).toBe('calendar.bank-holidays.next');
  });

  it('a malformed year is invalid_year', () => {
    expect(errorOf(() => validate('GET', '/v1/calendar/bank-holidays/20x6')).code).toBe('invalid_year');
  });
});
