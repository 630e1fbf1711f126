/**
 * The route table and the contract's validation (src/contract/): the table against the spec documents for
 * the domains registered, the router's matching and the validator's codes on the example domain
 * (test/support/example-domain/) and on synthetic routes. Each domain's own routes: test/<domain>/contract.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRouter, normalisePath } from '../../src/contract/router.js';
import type { RouteSpec } from '../../src/contract/route.js';
import { matchRoute, ROUTES as ALL_ROUTES } from '../../src/registry.js';
import { PRODUCTION_DOMAINS, PRODUCTION_ROUTES as ROUTES } from '../support/production.js';
import { isValidTaxYear, isValidDate } from '../../src/contract/validate.js';
import { EXIT, exitCodeFor } from '../../src/contract/errors.js';
import { specEndpoints } from '../support/spec-routes.js';
import { errorOf, validate } from '../support/validate-call.js';

/** The domain an endpoint of the spec documents belongs to: its first path segment (`GET /v1/tax/years` -> tax). */
const domainOf = (endpoint: string) => endpoint.split(' ')[1]!.split('/')[2]!;

describe('route table', () => {
  it('lists every endpoint of the spec documents (docs/spec) of the domains registered, and none they do not name', () => {
    const registered = new Set(PRODUCTION_DOMAINS.map((d) => d.name));
    const all = specEndpoints();
    // A domain the documents name is registered, unless it is not in this tree at all (npm run check:domains
    // removes a domain's folder with its registry line): then its endpoints are not looked for.
    const absent = [...new Set([...all].map(domainOf))].filter((d) => !registered.has(d));
    for (const d of absent) expect(existsSync(join(__dirname, '..', '..', 'src', 'domains', d)), `${d} is in the spec documents and in src/domains but not registered`).toBe(false);
    const spec = new Set([...all].filter((e) => registered.has(domainOf(e))));
    const code = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    // Routes the code adds beyond the documents' words, each with its reason.
    const EXTENSIONS: Record<string, string> = Object.fromEntries(Object.entries({
      // every other tax reference route has its /{tax_year} form; the documents list it for these two's siblings
      'GET /v1/tax/national-insurance/categories/{tax_year}': 'the year form of NI categories, as NI thresholds',
      'GET /v1/tax/capital-gains/allowances/{tax_year}': 'the year form of CGT allowances, as CGT rates',
    }).filter(([e]) => registered.has(domainOf(e))));
    expect([...spec].filter((e) => !code.has(e))).toEqual([]);
    // publicdata's own routes (RouteSpec.extension: spec 5-places.md, not the published API's documents)
    const own = new Set(ROUTES.filter((r) => r.extension).map((r) => `${r.method} ${r.path}`));
    expect([...code].filter((e) => !spec.has(e) && !(e in EXTENSIONS) && !own.has(e))).toEqual([]);
    for (const e of Object.keys(EXTENSIONS)) expect(code.has(e), `${e} is listed as an extension but is not a route`).toBe(true);
    const ids = new Set(ALL_ROUTES.map((r) => r.id));
    expect(ids.size).toBe(ALL_ROUTES.length);
    expect(ROUTES.length).toBe(spec.size + Object.keys(EXTENSIONS).length + own.size);
  });

  it('costs 1 credit per GET and 10 per POST (spec doc 1 §8)', () => {
    expect(ALL_ROUTES.map((r) => `${r.method} ${r.id}`)).toEqual(expect.arrayContaining(['GET example.items', 'POST example.calculate']));
    // the area profile (a publicdata extension) costs 10 as its spec says (5-places.md: "Cost: 10 credits under serve")
    for (const r of ALL_ROUTES) expect(r.cost, r.id).toBe(r.id === 'area.profile' ? 10 : r.method === 'GET' ? 1 : 10);
  });

  it('prefers literal segments to parameters, whatever the order they are declared in', () => {
    const route = (id: string, path: string): RouteSpec => ({ id, method: 'GET', path, domain: 'x', summary: id, cost: 1, errors: [] });
    for (const order of [['p', 'l'], ['l', 'p']]) {
      const routes = order.map((k) => (k === 'p' ? route('years.get', '/v1/x/years/{year}') : route('years.current', '/v1/x/years/current')));
      const r = createRouter(routes);
      expect(r.match('GET', '/v1/x/years/current').route.id, order.join()).toBe('years.current');
      expect(r.match('GET', '/v1/x/years/2024').route.id, order.join()).toBe('years.get');
    }
    expect(matchRoute('GET', '/v1/example/items/3').route.id).toBe('example.item');
    expect(matchRoute('GET', '/v1/example/items').route.id).toBe('example.items');
  });

  it('answers 404 for unknown paths and 405 for the wrong method', () => {
    expect(errorOf(() => matchRoute('GET', '/v1/nope')).status).toBe(404);
    const e = errorOf(() => matchRoute('GET', '/v1/example/calculate'));
    expect([e.status, e.code]).toEqual([405, 'method_not_allowed']);
  });

  it('normalises paths', () => {
    expect(normalisePath('tax/years/')).toBe('/v1/tax/years');
    expect(normalisePath('/v1/tax/years')).toBe('/v1/tax/years');
  });
});

describe('validation', () => {
  it('applies pagination defaults and limits', () => {
    expect(validate('GET', '/v1/example/items').query).toEqual({ page: 1, per_page: 25 });
    const e = errorOf(() => validate('GET', '/v1/example/items', { per_page: '101' }));
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_parameter', "Invalid parameter 'per_page': must be at most 100."]);
    expect(errorOf(() => validate('GET', '/v1/example/items', { page: 'two' })).code).toBe('invalid_parameter');
  });

  it('uses the spec codes for bounds, enumerations, path integers', () => {
    const lat = errorOf(() => validate('GET', '/v1/example/items', { lat: '95', lng: '1' }));
    expect([lat.status, lat.code, lat.message]).toEqual([400, 'invalid_parameter', "Invalid parameter 'lat': must be at most 90."]);
    expect(errorOf(() => validate('GET', '/v1/example/items', { colour: 'purple' })).code).toBe('invalid_parameter');
    // caseInsensitive enumerations are taken in any case
    expect(validate('GET', '/v1/example/summary', { colour: 'RED' }).query.colour).toBe('red');
    expect(errorOf(() => validate('GET', '/v1/example/items/abc')).code).toBe('invalid_parameter');
  });

  it('checks calculator bodies: required fields, types, enumerations, patterns', () => {
    const missing = errorOf(() => validate('POST', '/v1/example/calculate', {}, {}));
    expect([missing.status, missing.code, missing.message]).toEqual([400, 'bad_request', "Missing required field 'amount'."]);
    expect(errorOf(() => validate('POST', '/v1/example/calculate', {}, { amount: '45k' })).code).toBe('bad_request');
    expect(errorOf(() => validate('POST', '/v1/example/calculate', {}, { amount: 1, colour: 'purple' })).status).toBe(400);
    expect(errorOf(() => validate('POST', '/v1/example/calculate', {}, { amount: 1, label: 'ABC' })).status).toBe(400);
    expect(validate('POST', '/v1/example/calculate', {}, { amount: 30, colour: 'Green' }).body).toEqual({ amount: 30, colour: 'green' });
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
