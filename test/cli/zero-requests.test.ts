/**
 * Validation happens once, up front, before any backend is chosen: for EVERY route of the table, an
 * invalid path, query or body under `--source live` makes ZERO requests (a strict fake live backend
 * fails on any request) and exits with the same exit code and error code as `--source local`. The routes
 * are whatever is registered (with every real domain removed, `npm run check:domains`, the example
 * domain's); the named calls that once reached the API are checked when their route is registered. The
 * tax commands' own cases (compare, vat-return, --sweep) are in test/tax/zero-requests.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ParamSpec, RouteSpec } from '../../src/contract/route.js';
import { ROUTES } from '../../src/registry.js';
import { isolatedEnv, json, runCli, type RunResult } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('test', 'zeroreq0000000000000000000000000');

/** The named cases of these routes that are registered (a named case of a route not registered is not looked for). */
const registered = <T extends { id: string }>(cases: T[]): T[] => cases.filter((c) => ROUTES.some((r) => r.id === c.id));

/** A value the spec rejects, as a URL would carry it (path, query); undefined when the spec accepts any string. */
function badString(p: ParamSpec): string | undefined {
  switch (p.type) {
    case 'integer':
    case 'number':
      return 'abc';
    case 'boolean':
      return 'maybe';
    case 'date':
      return '2024-02-30';
    case 'tax_year':
      return '2024-26';
    case 'year':
      return '20x6';
    case 'string[]':
      return p.enum ? 'not_a_choice' : undefined;
    case 'string':
      if (p.enum) return 'not_a_choice';
      if (p.minLength && p.minLength > 1) return 'a';
      return undefined;
    default:
      return undefined;
  }
}

/** A JSON body value the spec rejects. */
function badJson(p: ParamSpec): unknown {
  switch (p.type) {
    case 'object':
    case 'array':
    case 'string[]':
      return 'x';
    case 'integer':
    case 'number':
      return 'abc';
    case 'boolean':
      return 'maybe';
    default:
      return badString(p) ?? 42;
  }
}

function goodString(p: ParamSpec): string {
  if (p.pattern !== undefined) return new RegExp(`^(?:${p.pattern})$`, 'i').test('LS8') ? 'LS8' : '00445790';
  switch (p.type) {
    case 'tax_year':
      return '2024-25';
    case 'year':
      return '2026';
    case 'integer':
    case 'number':
      return '1';
    case 'date':
      return '2024-01-01';
    default:
      return p.enum?.[0] ?? 'X1';
  }
}

interface Case {
  what: string;
  method: string;
  path: string;
  body?: unknown;
}

function pathWith(route: RouteSpec, bad?: ParamSpec): string {
  let path = route.path;
  for (const p of route.pathParams ?? []) path = path.replace(`{${p.name}}`, encodeURIComponent(p === bad ? badString(p)! : goodString(p)));
  return path;
}

/** The invalid calls of a route: one per place (path, query, body) that can hold an invalid value. */
function casesFor(route: RouteSpec): Case[] {
  const out: Case[] = [];
  const body = route.method === 'POST' ? {} : undefined;
  const badPath = (route.pathParams ?? []).find((p) => badString(p) !== undefined);
  if (badPath) out.push({ what: `path ${badPath.name}`, method: route.method, path: pathWith(route, badPath), ...(body ? { body } : {}) });
  const badQuery = (route.query ?? []).find((p) => badString(p) !== undefined);
  if (badQuery) {
    const q = new URLSearchParams({ [badQuery.name]: badString(badQuery)! });
    out.push({ what: `query ${badQuery.name}`, method: route.method, path: `${pathWith(route)}?${q}`, ...(body ? { body } : {}) });
  }
  if (route.method === 'POST') {
    if (route.bodyDocument) out.push({ what: 'body document', method: 'POST', path: pathWith(route), body: { transactions: 'nope' } });
    for (const p of route.body ?? []) {
      out.push({ what: `body ${p.name}`, method: 'POST', path: pathWith(route), body: { [p.name]: badJson(p) } });
      break;
    }
    if ((route.body ?? []).some((p) => p.required)) out.push({ what: 'body missing required field', method: 'POST', path: pathWith(route), body: {} });
  }
  // A route without any parameter to get wrong: the wrong method on its path.
  if (out.length === 0) out.push({ what: 'wrong method', method: route.method === 'GET' ? 'POST' : 'GET', path: pathWith(route) });
  return out;
}

async function api(c: Case, source: 'live' | 'local', fake: FakeLive, env: Record<string, string | undefined>): Promise<RunResult> {
  const args = ['api', c.method, c.path, '--source', source];
  if (c.body !== undefined) args.push('--data', JSON.stringify(c.body));
  return runCli(args, { env, liveBackend: fake.factory });
}

/** A JSON value the spec accepts. */
function goodJson(p: ParamSpec): unknown {
  switch (p.type) {
    case 'integer':
    case 'number':
      return Math.max(p.min ?? 1, 1);
    case 'boolean':
      return true;
    case 'string[]':
      return [p.enum?.[0] ?? goodString(p)];
    case 'object':
      return Object.fromEntries((p.fields ?? []).filter((f) => f.required).map((f) => [f.name, goodJson(f)]));
    case 'array':
      return [];
    default:
      return goodString(p);
  }
}

/** The value that breaks one declared rule (pattern, decimal places, bounds), or undefined when the spec has none. */
function ruleBreaker(p: ParamSpec): { rule: string; value: unknown } | undefined {
  if (p.pattern !== undefined) return { rule: 'pattern', value: p.type === 'string[]' ? ['bad!', 'bad!'] : 'bad!' };
  if (p.maxDecimals !== undefined) return { rule: 'maxDecimals', value: Number(`1.${'1'.repeat(p.maxDecimals + 1)}`) };
  if ((p.type === 'number' || p.type === 'integer') && p.max !== undefined) return { rule: 'max', value: p.max + 1 };
  if ((p.type === 'number' || p.type === 'integer') && p.min !== undefined) return { rule: 'min', value: p.min - 1 };
  return undefined;
}

/**
 * One call per declared rule of a route (pattern, decimal places, bounds, excludes, requires), the rest of
 * the call valid: such a call must be refused before any request as surely as a wrong type.
 */
function ruleCases(route: RouteSpec): Case[] {
  const out: Case[] = [];
  const requiredQuery = (route.query ?? []).filter((p) => p.required).map((p) => [p.name, goodString(p)] as [string, string]);
  const goodBody = Object.fromEntries((route.body ?? []).filter((p) => p.required).map((p) => [p.name, goodJson(p)]));
  const body = route.method === 'POST' && !route.bodyDocument ? goodBody : undefined;
  const query = (extra: Array<[string, string]>) => `${pathWith(route)}?${new URLSearchParams([...requiredQuery.filter(([k]) => !extra.some(([e]) => e === k)), ...extra])}`;
  for (const p of route.query ?? []) {
    const b = ruleBreaker(p);
    if (b) out.push({ what: `query ${p.name} (${b.rule})`, method: route.method, path: query([[p.name, String(b.value)]]), ...(body ? { body } : {}) });
    for (const o of p.excludes ?? []) {
      const other = route.query!.find((q) => q.name === o)!;
      out.push({ what: `query ${p.name} excludes ${o}`, method: route.method, path: query([[p.name, goodString(p)], [o, goodString(other)]]), ...(body ? { body } : {}) });
    }
    for (const o of p.requires ?? []) out.push({ what: `query ${p.name} requires ${o}`, method: route.method, path: query([[p.name, goodString(p)]]), ...(body ? { body } : {}) });
  }
  if (body) {
    for (const p of route.body ?? []) {
      const b = ruleBreaker(p);
      if (b) out.push({ what: `body ${p.name} (${b.rule})`, method: 'POST', path: query([]), body: { ...body, [p.name]: b.value } });
      for (const o of p.excludes ?? []) {
        const other = route.body!.find((q) => q.name === o)!;
        out.push({ what: `body ${p.name} excludes ${o}`, method: 'POST', path: query([]), body: { ...body, [p.name]: goodJson(p), [o]: goodJson(other) } });
      }
      for (const o of p.requires ?? []) out.push({ what: `body ${p.name} requires ${o}`, method: 'POST', path: query([]), body: { ...body, [p.name]: goodJson(p) } });
    }
  }
  const badPath = (route.pathParams ?? []).find((p) => p.pattern !== undefined);
  if (badPath) out.push({ what: `path ${badPath.name} (pattern)`, method: route.method, path: route.path.replace(`{${badPath.name}}`, 'bad!'), ...(body ? { body } : {}) });
  return out;
}

const CASES = ROUTES.flatMap((r) => [...casesFor(r), ...ruleCases(r)].map((c) => ({ id: r.id, ...c })));

describe('an invalid call makes no request and fails alike under --source live and local', () => {
  it('covers every route, and every declared rule of the three calls that used to reach the API', () => {
    expect(new Set(CASES.map((c) => c.id))).toEqual(new Set(ROUTES.map((r) => r.id)));
    const what = new Set(CASES.map((c) => `${c.id}: ${c.what}`));
    const named = registered([
      { id: 'tax.income.calculate', what: 'body marriage_allowance_transferor excludes marriage_allowance_recipient' },
      { id: 'companies.get', what: 'path company_number (pattern)' },
      { id: 'tax.take-home.calculate', what: 'body pension_contribution_percent (maxDecimals)' },
      // the example domain's calculator: a body pattern, and its required field missing
      { id: 'example.calculate', what: 'body label (pattern)' },
      { id: 'example.calculate', what: 'body missing required field' },
    ]);
    expect(named.map((c) => c.id)).toContain('example.calculate');
    for (const c of named) expect(what).toContain(`${c.id}: ${c.what}`);
  });

  const env = isolatedEnv({ PUBLICDATA_API_KEY: KEY });
  it.each(CASES)('$id: $what', async (c) => {
    const fake = new FakeLive();
    const live = await api(c, 'live', fake, env);
    const local = await api(c, 'local', fake, env);
    expect(fake.requests).toEqual([]);
    const lj = json(live);
    expect(lj.error, live.stdout).toBeDefined();
    expect(['not_available_offline', 'unauthorized', 'internal_error']).not.toContain(lj.error.code);
    expect([live.code, lj.error.code]).toEqual([local.code, json(local).error.code]);
    expect(live.code).not.toBe(0);
  });
});

/** The routes that search around a point (lat and lng each needing the other: src/contract/point.ts). */
const POINT_ROUTES = ROUTES.filter((r) => r.query?.some((q) => q.name === 'lat' && q.requires?.includes('lng')));

describe('a lone lat, a lone lng, a radius without lat: refused before any request on every point route', () => {
  it('the point routes are every route with a lat, each with its three rules among the cases above', () => {
    const named = registered(['example.items', 'crime.street', 'crime.statistics', 'food-hygiene.establishments', 'schools.search', 'vehicles.traffic.count-points'].map((id) => ({ id })));
    expect(named.length).toBeGreaterThan(0);
    expect(POINT_ROUTES.map((r) => r.id)).toEqual(expect.arrayContaining(named.map((c) => c.id)));
    expect(ROUTES.filter((r) => r.query?.some((q) => q.name === 'lat' && !q.required)).map((r) => r.id)).toEqual(POINT_ROUTES.map((r) => r.id));
    const what = new Set(CASES.map((c) => `${c.id}: ${c.what}`));
    for (const r of POINT_ROUTES) {
      for (const rule of ['lat requires lng', 'lng requires lat', 'radius_km requires lat']) expect(what).toContain(`${r.id}: query ${rule}`);
    }
  });

  const env = isolatedEnv({ PUBLICDATA_API_KEY: KEY });
  /** A value inside the parameter's bounds (schools take British latitudes only). */
  const inRange = (r: RouteSpec, name: string): string => {
    const p = r.query!.find((q) => q.name === name)!;
    return String(((p.min ?? 0) + (p.max ?? 2)) / 2);
  };
  const LONE = POINT_ROUTES.flatMap((r) => [
    { id: r.id, path: r.path, given: 'lat', needs: 'lng' },
    { id: r.id, path: r.path, given: 'lng', needs: 'lat' },
    { id: r.id, path: r.path, given: 'radius_km', needs: 'lat' },
  ]);
  it.each(LONE)('$id: $given alone is refused (400 invalid_parameter, exit 2) alike under live and local, no request', async (c) => {
    const route = POINT_ROUTES.find((r) => r.id === c.id)!;
    const path = `${c.path}?${new URLSearchParams({ [c.given]: inRange(route, c.given) })}`;
    const fake = new FakeLive();
    const live = await api({ what: c.given, method: 'GET', path }, 'live', fake, env);
    const local = await api({ what: c.given, method: 'GET', path }, 'local', fake, env);
    expect(fake.requests).toEqual([]);
    expect(json(live)).toEqual(json(local));
    expect([live.code, local.code]).toEqual([2, 2]);
    // crime's point is one area of three (lat, lsoa, force): without lat, no area is given, which is said first
    const message = route.exactlyOneOf?.includes('lat') && c.given !== 'lat'
      ? "One of 'lat', 'lsoa', 'force' is required."
      : `Invalid parameter '${c.given}': needs '${c.needs}' as well.`;
    expect(json(live).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message }));
  });
});

/** A name one transposition away (`geograhpy` for `geography`), or a name nothing declared is near. */
function typo(name: string): string {
  const i = name.length - 2;
  const t = `${name.slice(0, i)}${name[i + 1]}${name[i]}`;
  return t === name ? `${name}x` : t;
}

/**
 * One call per route and place (query; body; a nested object's fields; the VAT return document) with a name
 * the route does not declare, the rest of the call valid: the refusal names it and the nearest declared name.
 */
function unknownCases(route: RouteSpec): Array<Case & { expect: { code: string; message: string } }> {
  const out: Array<Case & { expect: { code: string; message: string } }> = [];
  const requiredQuery = (route.query ?? []).filter((p) => p.required).map((p) => [p.name, goodString(p)] as [string, string]);
  const goodBody = Object.fromEntries((route.body ?? []).filter((p) => p.required).map((p) => [p.name, goodJson(p)]));
  const body = route.method === 'POST' ? (route.bodyDocument ? { transactions: [] } : goodBody) : undefined;
  const first = route.query?.[0];
  const qname = first ? typo(first.name) : 'bogus';
  out.push({
    what: `undeclared query parameter '${qname}'`,
    method: route.method,
    path: `${pathWith(route)}?${new URLSearchParams([...requiredQuery, [qname, first ? goodString(first) : '1']])}`,
    ...(body ? { body } : {}),
    expect: {
      code: 'invalid_parameter',
      message: first ? `Unknown parameter '${qname}'; did you mean '${first.name}'?` : `Unknown parameter 'bogus'; this route takes no query parameters.`,
    },
  });
  if (route.method !== 'POST') return out;
  const path = `${pathWith(route)}?${new URLSearchParams(requiredQuery)}`;
  if (route.bodyDocument) {
    out.push({ what: "undeclared document field 'transactons'", method: 'POST', path, body: { transactons: [] }, expect: { code: 'VALIDATION_ERROR', message: "Unknown field 'transactons'; did you mean 'transactions'?" } });
    return out;
  }
  const f = route.body?.[0];
  if (!f) return out;
  if (f.type === 'object' && f.fields?.length) {
    const inner = f.fields[0]!;
    out.push({
      what: `undeclared nested field '${f.name}.${typo(inner.name)}'`,
      method: 'POST',
      path,
      body: { ...goodBody, [f.name]: { ...(goodBody[f.name] as object), [typo(inner.name)]: goodJson(inner) } },
      expect: { code: 'invalid_parameter', message: `Unknown field '${f.name}.${typo(inner.name)}'; did you mean '${f.name}.${inner.name}'?` },
    });
  }
  out.push({
    what: `undeclared body field '${typo(f.name)}'`,
    method: 'POST',
    path,
    body: { ...goodBody, [typo(f.name)]: goodJson(f) },
    expect: { code: 'invalid_parameter', message: `Unknown field '${typo(f.name)}'; did you mean '${f.name}'?` },
  });
  return out;
}

const UNKNOWN = ROUTES.flatMap((r) => unknownCases(r).map((c) => ({ id: r.id, ...c })));

describe('a parameter or field the route does not declare is refused before any request (issue 37)', () => {
  it('covers every route', () => {
    expect(new Set(UNKNOWN.map((c) => c.id))).toEqual(new Set(ROUTES.map((r) => r.id)));
    const what = new Set(UNKNOWN.map((c) => `${c.id}: ${c.what}`));
    const named = registered([
      { id: 'tax.compare', what: "undeclared nested field 'scenario_a.gross_incoem'" },
      { id: 'tax.vat.return.calculate', what: "undeclared document field 'transactons'" },
      { id: 'example.calculate', what: "undeclared body field 'amoutn'" },
      { id: 'example.items', what: "undeclared query parameter 'naem'" },
    ]);
    expect(named.map((c) => c.id)).toContain('example.calculate');
    for (const c of named) expect(what).toContain(`${c.id}: ${c.what}`);
  });

  const env = isolatedEnv({ PUBLICDATA_API_KEY: KEY });
  it.each(UNKNOWN)('$id: $what', async (c) => {
    const fake = new FakeLive();
    const live = await api(c, 'live', fake, env);
    const local = await api(c, 'local', fake, env);
    expect(fake.requests).toEqual([]);
    const lj = json(live);
    const err = lj.error as { code: string; message: string; details?: Array<{ code: string; message: string }> };
    expect([live.code, local.code]).toEqual([2, 2]);
    expect(json(local)).toEqual(lj);
    if (c.expect.code === 'VALIDATION_ERROR') {
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.details).toContainEqual({ field: 'transactons', code: 'UNKNOWN_FIELD', message: c.expect.message });
    } else expect({ code: err.code, message: err.message }).toEqual(c.expect);
  });

  // The issue's calls (-f geograhpy on the earnings percentile, -f regon on the energy calculator, ?ratng=5
  // on the food-hygiene list) and the example domain's, each where its route is registered.
  const ISSUE_CALLS = registered([
    { id: 'earnings.percentile', args: ['POST', '/v1/earnings/percentile', '-F', 'amount=42000', '-f', 'geograhpy=E12000002'], message: "Unknown field 'geograhpy'; did you mean 'geography'?" },
    { id: 'energy.price-cap.calculate', args: ['POST', '/v1/energy/price-cap/calculate', '-F', 'electricity_kwh=2700', '-f', 'regon=london'], message: "Unknown field 'regon'; did you mean 'region'?" },
    { id: 'food-hygiene.establishments', args: ['GET', '/v1/food-hygiene/establishments?ratng=5'], message: "Unknown parameter 'ratng'; did you mean 'rating'?" },
    { id: 'example.calculate', args: ['POST', '/v1/example/calculate', '-F', 'amount=30', '-f', 'colur=red'], message: "Unknown field 'colur'; did you mean 'colour'?" },
    { id: 'example.items', args: ['GET', '/v1/example/items?colur=red'], message: "Unknown parameter 'colur'; did you mean 'colour'?" },
  ]);
  it.each(ISSUE_CALLS)("the issue's calls and the example's: $id", async (c) => {
    const fake = new FakeLive();
    const env2 = isolatedEnv({ PUBLICDATA_API_KEY: KEY });
    const r = await runCli(['api', ...c.args, '--source', 'live'], { env: env2, liveBackend: fake.factory });
    expect([r.code, json(r).error.message]).toEqual([2, c.message]);
    expect(fake.requests).toEqual([]);
  });
});

describe('the cases the review found, under --source live', () => {
  const env = () => isolatedEnv({ PUBLICDATA_API_KEY: KEY });

  it('a batch line with a bad field is answered with its error and sends nothing; the good line is sent', async () => {
    const fake = new FakeLive().register('POST', '/v1/example/calculate', () => ({ status: 200, envelope: { data: { ok: 1 }, meta: { api_version: 'v1' } }, source: 'live' }));
    const stdin = '{"amount":"abc"}\n{"amount":30}\n';
    const live = await runCli(['example', 'calculate', '--batch', '--source', 'live'], { env: env(), stdin, liveBackend: fake.factory });
    fake.verify();
    expect(fake.requests.map((r) => (r.body as { amount: unknown }).amount)).toEqual([30]);
    const local = await runCli(['example', 'calculate', '--batch', '--source', 'local'], { env: env(), stdin: '{"amount":"abc"}\n' });
    const [first] = live.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(first).toEqual(JSON.parse(local.stdout));
    expect(first.error.code).toBe('bad_request');
    expect([live.code, local.code]).toEqual([2, 2]);
  });
});
