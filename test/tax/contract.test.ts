/** tax's routes as the router and validator see them (moved from test/cli/contract.test.ts). */
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/registry.js';
import { errorOf, validate } from '../support/validate-call.js';

describe('tax routes: matching and validation', () => {
  it('prefers literal segments to parameters', () => {
    expect(matchRoute('GET', '/v1/tax/years/current').route.id).toBe('tax.years.current');
    expect(matchRoute('GET', '/v1/tax/years/2024-25').route.id).toBe('tax.years.get');
  });

  it('answers 405 for the wrong method', () => {
    const e = errorOf(() => matchRoute('GET', '/v1/tax/take-home/calculate'));
    expect([e.status, e.code]).toEqual([405, 'method_not_allowed']);
  });

  it('applies pagination defaults and limits', () => {
    expect(validate('GET', '/v1/tax/years').query).toEqual({ page: 1, per_page: 25 });
    const e = errorOf(() => validate('GET', '/v1/tax/years', { per_page: '101' }));
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_parameter', "Invalid parameter 'per_page': must be at most 100."]);
    expect(errorOf(() => validate('GET', '/v1/tax/years', { page: 'two' })).code).toBe('invalid_parameter');
  });

  it('checks calculator bodies: required fields, types, regions, tax years', () => {
    const missing = errorOf(() => validate('POST', '/v1/tax/take-home/calculate', {}, {}));
    expect([missing.status, missing.code, missing.message]).toEqual([400, 'bad_request', "Missing required field 'gross_income'."]);
    expect(errorOf(() => validate('POST', '/v1/tax/take-home/calculate', {}, { gross_income: '45k' })).code).toBe('bad_request');
    const region = errorOf(() => validate('POST', '/v1/tax/income/calculate', {}, { gross_income: 1, region: 'atlantis' }));
    expect([region.status, region.code]).toEqual([400, 'invalid_region']);
    const year = errorOf(() => validate('POST', '/v1/tax/income/calculate', {}, { gross_income: 1, tax_year: '2025-2026' }));
    expect([year.status, year.code]).toEqual([404, 'invalid_tax_year']);
    const type = errorOf(() => validate('POST', '/v1/tax/national-insurance/calculate', {}, { annual_salary: 1, type: 'freelance' }));
    expect([type.status, type.code]).toEqual([422, 'invalid_type']);
    expect(validate('POST', '/v1/tax/employer-cost/calculate', {}, { annual_salary: 30000 }).body).toEqual({
      annual_salary: 30000,
      pension_rate: 0.03,
      num_employees: 1,
      employment_allowance: false,
    });
  });
});
