/**
 * `publicdata serve` over real sockets: auth, credits (exact, persisted, monthly renewal), rate limit,
 * body limit, bad JSON, unknown routes, HEAD, OPTIONS/CORS, ETag, gzip, timeouts, graceful shutdown,
 * the OpenAPI document, and the keys file. The server clock is moved by hand: no test waits.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { errorEnvelope } from '../../src/contract/errors.js';
import { ROUTES } from '../../src/registry.js';
import type { CallResult } from '../../src/contract/types.js';
import { KeysFileError, parseKeysFile } from '../../src/server/keys.js';
import { handlerCtx } from '../support/handler-context.js';
import { runCli } from '../support/cli.js';
import { FakeClock, keyLine, startTestServer, useTestServers } from '../support/serve.js';
import { fakeKey } from '../support/keys.js';
import { http, type Raw } from '../support/serve-http.js';

const LIVE = fakeKey('live', '7c1d9e2f3a4b5c6d7e8f9a0b1c2d3e4f');
const OTHER = fakeKey('live', '0a0b0c0d0e0f1a1b1c1d1e1f2a2b2c2d');

const local = (method: 'GET' | 'POST', path: string, query: Record<string, string> = {}, body?: unknown): Promise<CallResult> =>
  callLocal({ method, path, query, ...(body !== undefined ? { body } : {}) }, handlerCtx());

const serve = useTestServers();

describe('keys file', () => {
  it('a key alone gets the default plan; a JSON line sets kind, rate and credits', () => {
    const plans = parseKeysFile(['# team keys', LIVE, '', keyLine(OTHER, { per_minute: 60, monthly_credits: 0, credits: 5000 }), keyLine('gd_test_1234567890abcdef1234', { per_minute: 100 })].join('\n'));
    expect(plans.map((p) => [p.kind, p.perMinute, p.monthlyCredits, p.purchasedCredits])).toEqual([
      ['live', 10, 100, 0],
      ['live', 60, 0, 5000],
      ['test', 10, 100, 0], // test keys are capped at 10 a minute
    ]);
    expect(plans[0]!.masked).toBe('gd_live_…3e4f');
    expect(JSON.stringify(plans)).not.toContain(LIVE);
  });

  it('errors name the line, never the key', () => {
    const cases: Array<[string, RegExp]> = [
      [`${LIVE}\n${LIVE}`, /line 2: this key is listed twice/],
      [`{"key":"${LIVE}","per_minute":0}`, /line 1: 'per_minute' must be a whole number of at least 1/],
      [`{"key":"${LIVE}","plan":"gold"}`, /unknown field\(s\) plan/],
      [`{"key":"${LIVE}",}`, /line 1: not valid JSON/],
      ['short', /too short/],
      ['# nothing', /no keys/],
    ];
    for (const [text, re] of cases) {
      let err: unknown;
      try {
        parseKeysFile(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KeysFileError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toContain(LIVE);
    }
  });
});

describe('single-user mode (no --keys)', () => {
  it('answers every local route like --source local, with no auth and no limit headers', async () => {
    const s = await serve();
    const r = await http(s, 'GET', '/v1/example/items?per_page=3');
    const want = await local('GET', '/v1/example/items', { per_page: '3' });
    expect([r.status, r.text]).toEqual([200, JSON.stringify(want.envelope)]);
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    expect(r.headers['x-credits-remaining']).toBeUndefined();
    expect(s.accessLog.at(-1)).toMatch(/ GET \/v1\/example\/items\?per_page=3 200 [\d.]+ms credits=0 key=-$/);
  });

  it('404 for unknown paths, 405 with Allow for a wrong method, 501 without a local handler', async () => {
    const s = await serve();
    const nf = await http(s, 'GET', '/v1/example/nothing-here');
    expect([nf.status, nf.json.error.code, nf.json.error.documentation_url]).toEqual([404, 'not_found', 'https://docs.govdata.dev/errors/not_found']);
    // `/` is the reference page (test/pages/); a path that is neither a page nor a route is still the API's 404
    const other = await http(s, 'GET', '/nothing-here');
    expect([other.status, other.json.error.code]).toEqual([404, 'not_found']);
    const wm = await http(s, 'GET', '/v1/example/calculate');
    expect([wm.status, wm.json.error.code, wm.headers.allow]).toEqual([405, 'method_not_allowed', 'POST, OPTIONS']);
    const put = await http(s, 'PUT', '/v1/example/summary');
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
    // 501 for a route with no local handler; once every route has one, that is what is asserted instead.
    const offline = ROUTES.find((r) => !r.local && r.method === 'GET' && !r.path.includes('{') && !(r.query ?? []).some((q) => q.required));
    if (offline) {
      const na = await http(s, 'GET', offline.path);
      expect([na.status, na.json.error.code]).toEqual([501, 'not_available_offline']);
    } else {
      expect(ROUTES.filter((r) => !r.local).map((r) => r.id)).toEqual([]);
    }
    // 503 when not synced: test/server/serve-datasets.test.ts (a route that reads a mirror dataset)
  });

  it('validation errors are the local envelope and status', async () => {
    const s = await serve();
    const r = await http(s, 'POST', '/v1/example/calculate', { body: '{"amount":"abc"}', headers: { 'content-type': 'application/json' } });
    const want = await local('POST', '/v1/example/calculate', {}, { amount: 'abc' });
    expect([r.status, r.text]).toEqual([want.status, JSON.stringify(want.envelope)]);
    expect(r.status).toBe(400);
  });

  it('a body that is not JSON is 400 bad_request; a body over the limit is 413, declared or streamed', async () => {
    const s = await serve({ bodyLimit: 1000 });
    const bad = await http(s, 'POST', '/v1/example/calculate', { body: '{"amount": 45000', headers: { 'content-type': 'application/json' } });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'bad_request']);
    expect(bad.json.error.message).toMatch(/not valid JSON/);
    const big = JSON.stringify({ amount: 45000, pad: 'x'.repeat(2000) });
    const declared = await http(s, 'POST', '/v1/example/calculate', { body: big });
    expect([declared.status, declared.json.error.code]).toEqual([413, 'payload_too_large']);
    // Chunked: no Content-Length, the limit is enforced while reading.
    const chunked = await http(s, 'POST', '/v1/example/calculate', { body: big, headers: { 'transfer-encoding': 'chunked' } });
    expect([chunked.status, chunked.json.error.code]).toEqual([413, 'payload_too_large']);
    // curl -d sends form-urlencoded by default: the body is still read as JSON.
    const form = await http(s, 'POST', '/v1/example/calculate', { body: '{"amount":45000}', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const want = await local('POST', '/v1/example/calculate', {}, { amount: 45000 });
    expect([form.status, form.text]).toEqual([200, JSON.stringify(want.envelope)]);
  });

  it('HEAD: the GET headers and no body; OPTIONS lists the methods; CORS is off by default', async () => {
    const s = await serve();
    const get = await http(s, 'GET', '/v1/example/summary', { headers: { origin: 'https://dash.example.org' } });
    const head = await http(s, 'HEAD', '/v1/example/summary');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const opt = await http(s, 'OPTIONS', '/v1/example/summary', { headers: { origin: 'https://dash.example.org', 'access-control-request-method': 'GET' } });
    expect([opt.status, opt.headers.allow, opt.headers['access-control-allow-origin']]).toEqual([204, 'GET, HEAD, OPTIONS', undefined]);
  });

  it('--cors ORIGIN: that origin only, preflight answered, limit headers exposed', async () => {
    const s = await serve({ cors: 'https://dash.example.org', keysText: LIVE });
    const pre = await http(s, 'OPTIONS', '/v1/example/calculate', { headers: { origin: 'https://dash.example.org', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://dash.example.org');
    expect(pre.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);
    const ok = await http(s, 'GET', '/v1/example/summary', { key: LIVE, headers: { origin: 'https://dash.example.org' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://dash.example.org');
    expect(ok.headers['access-control-expose-headers']).toMatch(/X-Credits-Remaining/);
    const other = await http(s, 'GET', '/v1/example/summary', { key: LIVE, headers: { origin: 'https://evil.example.com' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('ETag and If-None-Match: 304 with no body while the answer is unchanged', async () => {
    const s = await serve();
    const first = await http(s, 'GET', '/v1/example/summary');
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[\w-]+"$/);
    const again = await http(s, 'GET', '/v1/example/summary', { headers: { 'if-none-match': tag } });
    expect([again.status, again.body.length, again.headers.etag]).toEqual([304, 0, tag]);
    const other = await http(s, 'GET', '/v1/example/summary', { headers: { 'if-none-match': '"something-else"' } });
    expect([other.status, other.text]).toEqual([200, first.text]);
    // POST answers carry no ETag.
    const post = await http(s, 'POST', '/v1/example/calculate', { body: '{"amount":100}' });
    expect([post.status, post.headers.etag]).toEqual([200, undefined]);
  });

  it('gzip when the client accepts it, identical after decompression', async () => {
    const s = await serve();
    const plain = await http(s, 'GET', '/v1/example/items?per_page=100');
    const gz = await http(s, 'GET', '/v1/example/items?per_page=100', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(gz.body).toString('utf8')).toBe(plain.text);
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    const refused = await http(s, 'GET', '/v1/example/items?per_page=100', { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const small = await http(s, 'GET', '/v1/example/summary', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined(); // under 1 KB
  });

  it('a handler that runs past the time limit is answered 503 timeout and charged nothing', async () => {
    const s = await serve({ keysText: LIVE, handlerTimeoutMs: 20, wrap: (call, run) => (call.path.endsWith('/summary') ? new Promise(() => {}) : run()) });
    const r = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    expect([r.status, r.json.error.code, r.headers['x-credits-cost'], r.headers['x-credits-remaining']]).toEqual([503, 'timeout', '0', '100']);
  });
});

describe('authentication (--keys)', () => {
  it('missing, malformed and unknown keys are 401 unauthorized in the error format, with no limit headers', async () => {
    const s = await serve({ keysText: LIVE });
    const none = await http(s, 'GET', '/v1/example/summary');
    expect([none.status, none.json]).toEqual([
      401,
      { error: { code: 'unauthorized', message: 'Missing or malformed Authorization header. Expected: Bearer <api_key>', documentation_url: 'https://docs.govdata.dev/errors/unauthorized' } },
    ]);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const basic = await http(s, 'GET', '/v1/example/summary', { headers: { authorization: `Basic ${Buffer.from(`x:${LIVE}`).toString('base64')}` } });
    expect(basic.status).toBe(401);
    const wrong = await http(s, 'GET', '/v1/example/summary', { key: OTHER });
    expect([wrong.status, wrong.json.error.message]).toEqual([401, 'Invalid API key.']);
    // One character off is as wrong as any other key.
    const near = await http(s, 'GET', '/v1/example/summary', { key: `${LIVE.slice(0, -1)}0` });
    expect(near.status).toBe(401);
    expect(wrong.headers['x-credits-remaining']).toBeUndefined();
    const ok = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    expect(ok.status).toBe(200);
    // The OpenAPI document needs no key.
    expect((await http(s, 'GET', '/v1/openapi.json')).status).toBe(200);
  });

  it('the access log has method, path, status, time, credits and the masked key, never the key', async () => {
    const s = await serve({ keysText: LIVE });
    await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    await http(s, 'GET', `/v1/example/summary?note=${LIVE}`, { key: OTHER });
    expect(s.accessLog[0]).toMatch(/ GET \/v1\/example\/summary 200 [\d.]+ms credits=1 key=gd_live_…3e4f$/);
    expect(s.accessLog[1]).toMatch(/ 401 [\d.]+ms credits=0 key=-$/);
    for (const line of [...s.accessLog, ...s.errorLog]) {
      expect(line).not.toContain(LIVE);
      expect(line).not.toContain(LIVE.slice(8));
    }
  });
});

describe('credits (--keys)', () => {
  it('GET costs 1 and POST 10, free allowance first, then purchased; 402 when short, and refusals cost nothing', async () => {
    const s = await serve({ keysText: keyLine(LIVE, { monthly_credits: 12, credits: 1, per_minute: 1000 }) });
    const h = (r: Raw) => [r.status, r.headers['x-credits-cost'], r.headers['x-credits-remaining']];
    expect(h(await http(s, 'GET', '/v1/example/summary', { key: LIVE }))).toEqual([200, '1', '12']);
    expect(h(await http(s, 'POST', '/v1/example/calculate', { key: LIVE, body: '{"amount":100}' }))).toEqual([200, '10', '2']);
    // Errors: validation (400), not found (404), bad JSON, no handler: charged 0.
    expect(h(await http(s, 'POST', '/v1/example/calculate', { key: LIVE, body: '{"amount":"x"}' }))).toEqual([400, '0', '2']);
    expect(h(await http(s, 'GET', '/v1/example/items/61', { key: LIVE }))).toEqual([404, '0', '2']);
    expect(h(await http(s, 'POST', '/v1/example/calculate', { key: LIVE, body: '{' }))).toEqual([400, '0', '2']);
    const short = await http(s, 'POST', '/v1/example/calculate', { key: LIVE, body: '{"amount":100}' });
    expect(h(short)).toEqual([402, '0', '2']);
    expect(short.json.error).toMatchObject({ code: 'insufficient_credits', documentation_url: 'https://docs.govdata.dev/rate-limits' });
    expect(h(await http(s, 'GET', '/v1/example/summary', { key: LIVE }))).toEqual([200, '1', '1']);
    expect(h(await http(s, 'GET', '/v1/example/summary', { key: LIVE }))).toEqual([200, '1', '0']); // the purchased credit
    expect(h(await http(s, 'GET', '/v1/example/summary', { key: LIVE }))).toEqual([402, '0', '0']);
  });

  it('a parameter or field the route does not declare is 400 invalid_parameter naming the nearest one, and charged nothing (issue 37)', async () => {
    const s = await serve({ keysText: keyLine(LIVE, { monthly_credits: 20, per_minute: 1000 }) });
    const h = (r: Raw) => [r.status, r.json?.error?.code, r.json?.error?.message, r.headers['x-credits-cost'], r.headers['x-credits-remaining']];
    expect(h(await http(s, 'GET', '/v1/example/items?pag=2', { key: LIVE }))).toEqual([400, 'invalid_parameter', "Unknown parameter 'pag'; did you mean 'page'?", '0', '20']);
    expect(h(await http(s, 'POST', '/v1/example/calculate', { key: LIVE, body: '{"amount":100,"colur":"red"}' }))).toEqual([
      400, 'invalid_parameter', "Unknown field 'colur'; did you mean 'colour'?", '0', '20',
    ]);
    expect(h(await http(s, 'POST', '/v1/example/calculate?amount=100', { key: LIVE, body: '{"amount":100}' }))).toEqual([
      400, 'invalid_parameter', 'Unknown parameter \'amount\'; this route takes no query parameters.', '0', '20',
    ]);
    // the same calls spelled right are answered and charged
    expect(h(await http(s, 'GET', '/v1/example/items?page=1', { key: LIVE })).slice(3)).toEqual(['1', '19']);
    expect(h(await http(s, 'POST', '/v1/example/calculate', { key: LIVE, body: '{"amount":100,"colour":"green"}' })).slice(3)).toEqual(['10', '9']);
  });

  it('a 304 is charged like the 200 it stands for; HEAD like GET', async () => {
    const s = await serve({ keysText: keyLine(LIVE, { monthly_credits: 10 }) });
    const first = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    const again = await http(s, 'GET', '/v1/example/summary', { key: LIVE, headers: { 'if-none-match': first.headers.etag as string } });
    expect([again.status, again.headers['x-credits-cost'], again.headers['x-credits-remaining']]).toEqual([304, '1', '8']);
    const head = await http(s, 'HEAD', '/v1/example/summary', { key: LIVE });
    expect([head.status, head.headers['x-credits-cost'], head.headers['x-credits-remaining']]).toEqual([200, '1', '7']);
  });

  it('balances persist across restarts (atomic state file, no key in it) and the allowance renews on the 1st', async () => {
    const clock = new FakeClock(Date.parse('2026-11-30T23:59:00Z'));
    const keysText = keyLine(LIVE, { monthly_credits: 3, credits: 10 });
    const a = await serve({ keysText, clock });
    for (let i = 0; i < 5; i++) await http(a, 'GET', '/v1/example/summary', { key: LIVE });
    await a.close();
    const state = readFileSync(a.stateFile, 'utf8');
    expect(state).not.toContain(LIVE);
    expect(JSON.parse(state).keys[Object.keys(JSON.parse(state).keys)[0]!]).toEqual({ month: '2026-11', monthly_used: 3, purchased_used: 2 });
    const b = await serve({ keysText, clock, stateFile: a.stateFile });
    const r = await http(b, 'GET', '/v1/example/summary', { key: LIVE });
    expect(r.headers['x-credits-remaining']).toBe('7'); // 13 - 5 - 1
    clock.t = Date.parse('2026-12-01T00:00:30Z');
    const dec = await http(b, 'GET', '/v1/example/summary', { key: LIVE });
    expect(dec.headers['x-credits-remaining']).toBe(String(3 - 1 + 7)); // allowance renewed; purchased credits kept
  });

  it('a corrupt state file stops the server from starting instead of handing out credits again', async () => {
    const a = await serve({ keysText: LIVE });
    await a.close();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(a.stateFile, '{"version":1,"keys":');
    await expect(startTestServer({ keysText: LIVE, stateFile: a.stateFile })).rejects.toThrow(/credit state file .* is not valid/);
  });
});

describe('rate limit (--keys)', () => {
  it('X-RateLimit-* on every answer, 429 with Retry-After past the plan, a new window at the minute', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:15Z'));
    const s = await serve({ keysText: keyLine(LIVE, { per_minute: 3 }), clock });
    const reset = String(Date.parse('2026-11-21T12:01:00Z') / 1000);
    const seen: Array<[number, unknown, unknown]> = [];
    for (let i = 0; i < 3; i++) {
      const r = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
      seen.push([r.status, r.headers['x-ratelimit-remaining'], r.headers['x-ratelimit-reset']]);
    }
    expect(seen).toEqual([
      [200, '2', reset],
      [200, '1', reset],
      [200, '0', reset],
    ]);
    clock.t += 5000; // 12:00:20
    const over = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    expect([over.status, over.json.error.code, over.headers['retry-after'], over.headers['x-ratelimit-limit'], over.headers['x-credits-cost']]).toEqual([
      429,
      'rate_limit_exceeded',
      '40',
      '3',
      '0',
    ]);
    expect(over.headers['x-credits-remaining']).toBe('97'); // the 429 cost nothing
    // Another key has its own window.
    clock.nextMinute(1);
    const next = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    expect([next.status, next.headers['x-ratelimit-remaining']]).toEqual([200, '2']);
  });
});

describe('OpenAPI', () => {
  it('GET /v1/ and /v1/openapi.json: OpenAPI 3.1 from the same route table as api --list', async () => {
    const s = await serve({ keysText: LIVE });
    const doc = (await http(s, 'GET', '/v1/openapi.json')).json;
    expect((await http(s, 'GET', '/v1/')).json).toEqual(doc);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: s.url }]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    const list = await runCli(['api', '--list', '--format', 'json']);
    const listed = JSON.parse(list.stdout);
    const rows = (Array.isArray(listed) ? listed : listed.data) as Array<{ method: string; path: string; cost: number; offline: boolean; id: string; summary: string }>;
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, m]) => Object.entries(m).map(([method, op]) => ({ method: method.toUpperCase(), path: `/v1${p}`, op })));
    expect(ops.length).toBe(rows.length);
    for (const row of rows) {
      const op = ops.find((o) => o.method === row.method && o.path === row.path)?.op;
      expect(op, `${row.method} ${row.path}`).toBeDefined();
      expect([op.operationId, op.summary, op['x-credit-cost'], op['x-offline']]).toEqual([row.id, row.summary, row.cost, row.offline]);
      for (const name of row.path.match(/\{(\w+)\}/g) ?? []) expect(op.parameters.some((p: any) => p.in === 'path' && `{${p.name}}` === name)).toBe(true);
    }
    const calc = doc.paths['/example/calculate'].post;
    expect(calc.requestBody.content['application/json'].schema.required).toContain('amount');
    expect(calc.responses['429'].headers['Retry-After']).toBeDefined();
  });
});

describe('request coalescing', () => {
  it('identical GETs in flight share one execution; each is answered and charged', async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await serve({
      keysText: keyLine(LIVE, { per_minute: 100 }),
      wrap: async (call, run) => {
        runs++;
        await gate;
        return run();
      },
    });
    const reqs = Array.from({ length: 5 }, () => http(s, 'GET', '/v1/example/items?colour=red', { key: LIVE }));
    const other = http(s, 'GET', '/v1/example/items', { key: LIVE });
    while (runs < 2) await new Promise((r) => setImmediate(r));
    release();
    const answers = await Promise.all(reqs);
    await other;
    expect(runs).toBe(2); // one for the five identical requests, one for the other query string
    const want = JSON.stringify((await local('GET', '/v1/example/items', { colour: 'red' })).envelope);
    for (const a of answers) expect([a.status, a.text, a.headers['x-credits-cost']]).toEqual([200, want, '1']);
    const last = await http(s, 'GET', '/v1/example/summary', { key: LIVE });
    expect(last.headers['x-credits-remaining']).toBe(String(100 - 7));
  });
});

describe('graceful shutdown', () => {
  it('finishes the request in flight, refuses new connections, and writes the credits', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    const s = await startTestServer({
      keysText: LIVE,
      wrap: async (call, run) => {
        if (call.path.endsWith('/summary')) {
          entered();
          await new Promise<void>((r) => (release = r));
        }
        return run();
      },
    });
    const slow = http(s, 'GET', '/v1/example/summary', { key: LIVE });
    await inHandler;
    expect(s.inflight()).toBe(1);
    const closing = s.close(5000);
    await expect(http(s, 'GET', '/v1/example/summary', { key: LIVE })).rejects.toThrow(/ECONNREFUSED/);
    release();
    const r = await slow;
    expect([r.status, r.headers.connection]).toEqual([200, 'close']);
    expect(r.text).toBe(JSON.stringify((await local('GET', '/v1/example/summary')).envelope));
    await closing;
    const state = JSON.parse(readFileSync(s.stateFile, 'utf8'));
    expect(Object.values(state.keys)).toEqual([{ month: '2026-11', monthly_used: 1, purchased_used: 0 }]);
  });
});

describe('bounded shutdown and credits', () => {
  it('a request whose connection the deadline closed is not charged, even if its handler then answers 200', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let finished = 0;
    const s = await startTestServer({
      keysText: LIVE,
      wrap: async (_call, run) => {
        entered();
        await new Promise<void>((r) => (release = r));
        const r = await run();
        finished = r.status;
        return r;
      },
    });
    const req = request(`${s.url}/example/summary`, { agent: false, headers: { authorization: `Bearer ${LIVE}` } });
    const done = new Promise<string>((resolve) => {
      req.on('response', (res) => resolve(String(res.statusCode)));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    req.end();
    await inHandler;
    await s.close(0);
    expect(await done).toBe('ECONNRESET');
    const unused = { month: '2026-11', monthly_used: 0, purchased_used: 0 };
    expect(Object.values(JSON.parse(readFileSync(s.stateFile, 'utf8')).keys)).toEqual([unused]);
    // The handler finishes after the connection is gone: its 200 reaches nobody and charges nothing.
    release();
    while (s.executing() > 0) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(finished).toBe(200);
    await s.flush();
    expect(Object.values(JSON.parse(readFileSync(s.stateFile, 'utf8')).keys)).toEqual([unused]);
  });
});

describe('answer cache (routes that read no mirror file)', () => {
  it('an identical GET is answered from the cache until the UTC hour changes, still charged and rate-limited', async () => {
    const runs: string[] = [];
    const s = await serve({
      keysText: keyLine(LIVE, { per_minute: 100 }),
      wrap: (call, run) => {
        runs.push(call.path);
        return run();
      },
    });
    const want = JSON.stringify((await local('GET', '/v1/example/items', { per_page: '5' })).envelope);
    const a = await http(s, 'GET', '/v1/example/items?per_page=5', { key: LIVE });
    const b = await http(s, 'GET', '/v1/example/items?per_page=5', { key: LIVE, headers: { 'accept-encoding': 'gzip' } });
    const head = await http(s, 'HEAD', '/v1/example/items?per_page=5', { key: LIVE });
    const notModified = await http(s, 'GET', '/v1/example/items?per_page=5', { key: LIVE, headers: { 'if-none-match': a.headers.etag as string } });
    expect(runs).toEqual(['/v1/example/items']);
    expect([a.status, a.text, b.status, b.headers.etag, head.status, head.headers['content-length'], notModified.status]).toEqual([
      200, want, 200, a.headers.etag, 200, String(Buffer.byteLength(want)), 304,
    ]);
    expect(gunzipSync(b.body).toString('utf8')).toBe(want);
    expect([a, b, head, notModified].map((r) => r.headers['x-credits-remaining'])).toEqual(['99', '98', '97', '96']);
    expect(notModified.headers['x-ratelimit-remaining']).toBe('96');
    // Another query string, and the next hour (the answers depend on the date), run the handler again.
    await http(s, 'GET', '/v1/example/items?per_page=6', { key: LIVE });
    s.clock.t += 3_600_000;
    expect((await http(s, 'GET', '/v1/example/items?per_page=5', { key: LIVE })).text).toBe(want);
    expect(runs.length).toBe(3);
  });

  it('a POST calculation asked again with the same body is answered from the cache and charged; another body, a long body or the next hour computes; no credits, 402', async () => {
    const runs: string[] = [];
    const s = await serve({
      keysText: keyLine(LIVE, { monthly_credits: 60, per_minute: 100 }),
      wrap: (call, run) => {
        runs.push(JSON.stringify(call.body));
        // a refusal made when the call runs (as a handler's own 4xx is): never kept
        if ((call.body as { amount?: number }).amount === 13) return Promise.resolve({ status: 422, envelope: errorEnvelope('invalid_parameter', 'thirteen is refused'), source: 'local' as const });
        return run();
      },
    });
    const want = JSON.stringify((await local('POST', '/v1/example/calculate', {}, { amount: 100 })).envelope);
    const post = (body: string) => http(s, 'POST', '/v1/example/calculate', { key: LIVE, body });
    const h = (r: Raw) => [r.status, r.text, r.headers['x-credits-cost'], r.headers['x-credits-remaining'], r.headers.etag];
    expect(h(await post('{"amount":100}'))).toEqual([200, want, '10', '50', undefined]);
    expect(h(await post('{"amount":100}'))).toEqual([200, want, '10', '40', undefined]);
    expect(runs).toEqual(['{"amount":100}']);
    // The key is the exact text: the same call spelled otherwise computes (and is then kept too).
    expect(h(await post('{ "amount": 100 }'))).toEqual([200, want, '10', '30', undefined]);
    // A refusal is never kept: one made when the call runs is made again (the call runs twice), charged nothing
    expect(h(await post('{"amount":13}')).slice(0, 1)).toEqual([422]);
    expect(h(await post('{"amount":13}')).slice(0, 4)).toEqual([422, JSON.stringify(errorEnvelope('invalid_parameter', 'thirteen is refused')), '0', '30']);
    expect(runs.filter((b) => b === '{"amount":13}').length).toBe(2);
    runs.splice(runs.indexOf('{"amount":13}'), 2);
    // A body over POST_BODY_MAX (4,096) is not kept.
    const long = `{"amount":100}${' '.repeat(5000)}`;
    expect(h(await post(long))).toEqual([200, want, '10', '20', undefined]);
    expect(h(await post(long))).toEqual([200, want, '10', '10', undefined]);
    expect(runs.length).toBe(4);
    // The next UTC hour computes again (an answer may depend on the date).
    s.clock.t += 3_600_000;
    expect(h(await post('{"amount":100}'))).toEqual([200, want, '10', '0', undefined]);
    expect(runs.length).toBe(5);
    // A cached answer is charged like any: with no credits left, 402, and nothing runs.
    const short = await post('{"amount":100}');
    expect([short.status, short.json.error.code, short.headers['x-credits-remaining']]).toEqual([402, 'insufficient_credits', '0']);
    expect(runs.length).toBe(5);
  });
});

describe('the serve command', () => {
  it('refuses a non-loopback host without --keys, before listening', async () => {
    const r = await runCli(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Refusing to serve on 0\.0\.0\.0 without --keys/);
  });

  it('a bad keys file is a usage error naming the line', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const f = join(mkdtempSync(join(tmpdir(), 'pd-keys-')), 'keys.txt');
    writeFileSync(f, `${LIVE}\n{"key": 1}\n`);
    const r = await runCli(['serve', '--port', '0', '--keys', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 2: 'key' \(a string\) is required/);
    expect(r.stderr).not.toContain(LIVE);
  });
});
