/**
 * Validation happens once, up front, before any backend is chosen: for EVERY route of the table, an
 * invalid path, query or body under `--source live` makes ZERO requests (a strict fake live backend
 * fails on any request) and exits with the same exit code and error code as `--source local`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParamSpec, RouteSpec } from '../../src/contract/route.js';
import { ROUTES } from '../../src/registry.js';
import { isolatedEnv, json, runCli, type RunResult } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { startApiServer } from '../support/api-server.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('test', 'zeroreq0000000000000000000000000');

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
    expect(what).toContain('tax.income.calculate: body marriage_allowance_transferor excludes marriage_allowance_recipient');
    expect(what).toContain('companies.get: path company_number (pattern)');
    expect(what).toContain('tax.take-home.calculate: body pension_contribution_percent (maxDecimals)');
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
    expect(POINT_ROUTES.map((r) => r.id)).toEqual(
      expect.arrayContaining(['crime.street', 'crime.statistics', 'food-hygiene.establishments', 'schools.search', 'vehicles.traffic.count-points']),
    );
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
      ? "Invalid parameter 'lat': one of 'lat', 'lsoa', 'force' is required."
      : `Invalid parameter '${c.given}': needs '${c.needs}' as well.`;
    expect(json(live).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message }));
  });
});

describe('the cases the review found, under --source live', () => {
  const env = () => isolatedEnv({ PUBLICDATA_API_KEY: KEY });

  it('a batch line with a bad field is answered with its error and sends nothing; the good line is sent', async () => {
    const fake = new FakeLive().register('POST', '/v1/tax/take-home/calculate', () => ({ status: 200, envelope: { data: { ok: 1 }, meta: { api_version: 'v1' } }, source: 'live' }));
    const stdin = '{"gross_income":"abc"}\n{"gross_income":30000}\n';
    const live = await runCli(['tax', 'take-home', '--batch', '--source', 'live'], { env: env(), stdin, liveBackend: fake.factory });
    fake.verify();
    expect(fake.requests.map((r) => (r.body as { gross_income: unknown }).gross_income)).toEqual([30000]);
    const local = await runCli(['tax', 'take-home', '--batch', '--source', 'local'], { env: env(), stdin: '{"gross_income":"abc"}\n' });
    const [first] = live.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(first).toEqual(JSON.parse(local.stdout));
    expect([live.code, local.code]).toEqual([2, 2]);
  });

  it('compare: a bad nested scenario field is rejected before any request, naming the nested field', async () => {
    const fake = new FakeLive();
    const dir = mkdtempSync(join(tmpdir(), 'pd-zero-'));
    const file = join(dir, 'scenarios.json');
    writeFileSync(file, JSON.stringify({ scenario_a: { gross_income: 'x' }, scenario_b: { gross_income: 50000 } }));
    const live = await runCli(['tax', 'compare', '--body', file, '--source', 'live'], { env: env(), liveBackend: fake.factory });
    const local = await runCli(['tax', 'compare', '--body', file, '--source', 'local'], { env: env() });
    expect(fake.requests).toEqual([]);
    expect(json(live)).toEqual(json(local));
    expect(json(live).error).toMatchObject({ code: 'bad_request', message: "Invalid field 'scenario_a.gross_income': must be an integer." });
    expect(live.code).toBe(2);
  });

  it('vat-return: a structurally bad body is VALIDATION_ERROR with details before any request', async () => {
    const fake = new FakeLive();
    const dir = mkdtempSync(join(tmpdir(), 'pd-zero-'));
    const file = join(dir, 'return.json');
    writeFileSync(file, '{"transactions":"nope"}');
    const live = await runCli(['tax', 'vat-return', '--body', file, '--source', 'live'], { env: env(), liveBackend: fake.factory });
    const local = await runCli(['tax', 'vat-return', '--body', file, '--source', 'local'], { env: env() });
    expect(fake.requests).toEqual([]);
    expect(json(live)).toEqual(json(local));
    expect(json(live).error.code).toBe('VALIDATION_ERROR');
    expect(json(live).error.details.map((d: { field: string }) => d.field)).toContain('transactions');
  });

  it('--sweep checks --max-credits for every row before the first request (5 rows x 10 credits > 30), with the real live client', async () => {
    const server = await startApiServer({ keys: [KEY] });
    try {
      const e = isolatedEnv({ PUBLICDATA_API_KEY: KEY, PUBLICDATA_BASE_URL: server.url });
      const r = await runCli(['tax', 'take-home', '--sweep', '20000:40000:5000', '--source', 'live', '--max-credits', '30', '--format', 'json'], { env: e });
      expect(server.requests).toEqual([]);
      expect(json(r).error.code).toBe('credit_budget_exceeded');
      expect(json(r).error.message).toContain('5 calls');
      expect(r.code).not.toBe(0);
      // a budget that covers every row lets the sweep run: 3 rows, 30 credits
      const ok = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--source', 'live', '--max-credits', '30', '--format', 'ndjson'], { env: e });
      expect(ok.code).toBe(0);
      expect(server.requests).toHaveLength(3);
      expect(ok.stdout.trim().split('\n')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('--sweep honours --source live: one request per row, and a bad flag sends nothing', async () => {
    const fake = new FakeLive();
    for (let i = 0; i < 3; i++) {
      fake.register('POST', '/v1/tax/take-home/calculate', (c) => ({
        status: 200,
        envelope: { data: { gross_income: (c.body as { gross_income: number }).gross_income, source: 'fake' }, meta: { api_version: 'v1' } },
        source: 'live',
      }));
    }
    const r = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--source', 'live', '--format', 'ndjson'], { env: env(), liveBackend: fake.factory });
    fake.verify();
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([20000, 25000, 30000].map((g) => ({ gross_income: g, source: 'fake' })));

    const none = new FakeLive();
    const bad = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--region', 'mars', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: none.factory });
    expect(none.requests).toEqual([]);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'invalid_region']);
  });
});
