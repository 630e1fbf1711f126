import { describe, expect, it } from 'vitest';
import { normalisePath } from '../../src/contract/router.js';
import { matchRoute } from '../../src/registry.js';
import { PRODUCTION_ROUTES as ROUTES } from '../support/production.js';
import { validateCall, isValidTaxYear, isValidDate } from '../../src/contract/validate.js';
import { ApiError, EXIT, exitCodeFor } from '../../src/contract/errors.js';
import { specEndpoints } from '../support/spec-routes.js';

function validate(method: 'GET' | 'POST', path: string, query: Record<string, string> = {}, body?: unknown) {
  const m = matchRoute(method, path);
  return validateCall(m.route, m.pathValues, query, body);
}

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('route table', () => {
  it('lists every endpoint of the spec documents (docs/spec), and none they do not name', () => {
    const spec = specEndpoints();
    const code = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    // Routes the code adds beyond the documents' words, each with its reason.
    const EXTENSIONS: Record<string, string> = {
      // every other tax reference route has its /{tax_year} form; the documents list it for these two's siblings
      'GET /v1/tax/national-insurance/categories/{tax_year}': 'the year form of NI categories, as NI thresholds',
      'GET /v1/tax/capital-gains/allowances/{tax_year}': 'the year form of CGT allowances, as CGT rates',
    };
    expect([...spec].filter((e) => !code.has(e))).toEqual([]);
    // publicdata's own routes (RouteSpec.extension: spec 5-places.md, not the published API's documents)
    const own = new Set(ROUTES.filter((r) => r.extension).map((r) => `${r.method} ${r.path}`));
    expect([...code].filter((e) => !spec.has(e) && !(e in EXTENSIONS) && !own.has(e))).toEqual([]);
    for (const e of Object.keys(EXTENSIONS)) expect(code.has(e), `${e} is listed as an extension but is not a route`).toBe(true);
    const ids = new Set(ROUTES.map((r) => r.id));
    expect(ids.size).toBe(ROUTES.length);
    expect(ROUTES.length).toBe(spec.size + Object.keys(EXTENSIONS).length + own.size);
  });

  it('costs 1 credit per GET and 10 per POST (spec doc 1 §8)', () => {
    // the area profile (a publicdata extension) costs 10 as its spec says (5-places.md: "Cost: 10 credits under serve")
    for (const r of ROUTES) expect(r.cost).toBe(r.id === 'area.profile' ? 10 : r.method === 'GET' ? 1 : 10);
  });

  it('prefers literal segments to parameters', () => {
    expect(matchRoute('GET', '/v1/tax/years/current').route.id).toBe('tax.years.current');
    expect(matchRoute('GET', '/v1/tax/years/2024-25').route.id).toBe('tax.years.get');
    expect(matchRoute('GET', '/v1/property/price-paid/statistics').route.id).toBe('property.price-paid.statistics');
    expect(matchRoute('GET', '/v1/calendar/bank-holidays/next').route.id).toBe('calendar.bank-holidays.next');
    expect(matchRoute('GET', '/v1/companies/sic-codes').route.id).toBe('companies.sic-codes');
    expect(matchRoute('GET', '/v1/companies/00445790').route.id).toBe('companies.get');
  });

  it('answers 404 for unknown paths and 405 for the wrong method', () => {
    expect(errorOf(() => matchRoute('GET', '/v1/nope')).status).toBe(404);
    const e = errorOf(() => matchRoute('GET', '/v1/tax/take-home/calculate'));
    expect([e.status, e.code]).toEqual([405, 'method_not_allowed']);
  });

  it('normalises paths', () => {
    expect(normalisePath('tax/years/')).toBe('/v1/tax/years');
    expect(normalisePath('/v1/tax/years')).toBe('/v1/tax/years');
  });
});

describe('validation', () => {
  it('applies pagination defaults and limits', () => {
    expect(validate('GET', '/v1/tax/years').query).toEqual({ page: 1, per_page: 25 });
    const e = errorOf(() => validate('GET', '/v1/tax/years', { per_page: '101' }));
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_parameter', "Invalid parameter 'per_page': must be at most 100."]);
    expect(errorOf(() => validate('GET', '/v1/tax/years', { page: 'two' })).code).toBe('invalid_parameter');
  });

  it('uses the spec codes for dates, bounds, enumerations', () => {
    expect(errorOf(() => validate('GET', '/v1/property/hpi', { from: '2020-13-01' })).message).toContain('Invalid date format. Use YYYY-MM-DD.');
    const c = errorOf(() => validate('GET', '/v1/vehicles/road-safety/collisions', { date_from: '2023/01/01' }));
    expect([c.status, c.code]).toEqual([422, 'invalid_parameter']);
    // band is not an enumeration (an unknown band is an empty 200, spec doc 2): the handler upper-cases it
    expect(validate('GET', '/v1/property/council-tax', { band: 'd' }).query.band).toBe('d');
    expect(errorOf(() => validate('GET', '/v1/calendar/bank-holidays/20x6')).code).toBe('invalid_year');
    expect(errorOf(() => validate('GET', '/v1/property/price-paid/search', {})).code).toBe('invalid_parameter');
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

  it('knows tax years and dates', () => {
    expect([isValidTaxYear('1999-00'), isValidTaxYear('2025-26'), isValidTaxYear('2025-27')]).toEqual([true, true, false]);
    // malformed: length, separator, non-digits (also just outside '0'..'9'), trailing text
    for (const bad of ['2025-2', '2025-266', '2025/26', '202a-26', '2025-2a', '/025-26', ':025-26', '2025-:6', ' 2025-26', '2025-26\n', '２０２５-26', ''])
      expect(isValidTaxYear(bad), JSON.stringify(bad)).toBe(false);
    expect([isValidDate('2024-02-29'), isValidDate('2023-02-29')]).toEqual([true, false]);
  });
});

describe('exit codes', () => {
  it('switch on the error code first, then the status', () => {
    expect(exitCodeFor('insufficient_credits', 429)).toBe(EXIT.CREDITS);
    expect(exitCodeFor('insufficient_credits', 402)).toBe(EXIT.CREDITS);
    expect(exitCodeFor('rate_limit_exceeded', 429)).toBe(EXIT.RATE_LIMITED);
    expect(exitCodeFor('unauthorized', 401)).toBe(EXIT.AUTH);
    expect(exitCodeFor('forbidden', 403)).toBe(EXIT.AUTH);
    expect(exitCodeFor('invalid_parameter', 400)).toBe(EXIT.USAGE);
    expect(exitCodeFor('VALIDATION_ERROR', 400)).toBe(EXIT.USAGE);
    expect(exitCodeFor('invalid_tax_year', 404)).toBe(EXIT.ERROR);
    expect(exitCodeFor('marriage_allowance_ineligible', 422)).toBe(EXIT.ERROR);
    expect(exitCodeFor('invalid_parameter', 422)).toBe(EXIT.USAGE); // README exit table: the code decides (collisions dates answer 422)
    expect(exitCodeFor('not_available_offline', 503)).toBe(EXIT.AUTH); // issue 10 item 8: same exit as no key under --source live
    expect(exitCodeFor('server_error', 500)).toBe(EXIT.NETWORK);
    expect(exitCodeFor('network_error', 503)).toBe(EXIT.NETWORK);
  });
});
