/**
 * The live client against a real HTTP server on 127.0.0.1 (test/support/api-server.ts): URL building,
 * pass-through, credits and auth, logging and secrecy. Limits, retries and pacing: live-limits.test.ts;
 * shared set-up: harness.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { routeById } from '../../src/registry.js';
import { buildUrl, costOf, createLiveBackend, DEFAULT_BASE_URL, parseRetryAfter } from '../../src/backends/live.js';
import { exitCodeFor } from '../../src/contract/errors.js';
import type { ErrorEnvelope } from '../../src/contract/types.js';
import { FORBIDDEN_BODY, INSUFFICIENT_CREDITS_BODY, INVALID_KEY_BODY, TEST_KEY, type ApiServer } from '../support/api-server.js';
import { fakeKey } from '../support/keys.js';
import { FORBIDDEN_KEY, GET, LIVE_KEY, liveSuite, localCtx, startLiveServer, withApiServer } from './harness.js';

let server: ApiServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(async () => {
  await server.close();
});
const { harness, record, track, expectNoKeyCaptured } = liveSuite();

describe('helpers', () => {
  test('buildUrl joins /v1 once, encodes segments, repeats query keys', () => {
    expect(buildUrl('https://api.govdata.dev/v1', '/v1/example/summary')).toBe('https://api.govdata.dev/v1/example/summary');
    expect(buildUrl('https://api.govdata.dev/v1/', '/v1/example/summary')).toBe('https://api.govdata.dev/v1/example/summary');
    expect(buildUrl('http://127.0.0.1:8080', '/v1/example/notes')).toBe('http://127.0.0.1:8080/v1/example/notes');
    expect(buildUrl('http://h/v1', '/example/notes')).toBe('http://h/v1/example/notes');
    expect(buildUrl('http://h', '/example/notes')).toBe('http://h/v1/example/notes');
    expect(buildUrl('http://h/v1', '/v1/example/x/SW1A 1AA')).toBe('http://h/v1/example/x/SW1A%201AA');
    expect(buildUrl('http://h/v1', '/v1/a', { fuel: ['petrol', 'diesel'], page: '2' })).toBe(
      'http://h/v1/a?fuel=petrol&fuel=diesel&page=2',
    );
  });

  test('parseRetryAfter reads delta-seconds and HTTP-date', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('45', now)).toBe(45_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  test('costOf uses the route table: GET 1, POST 10', () => {
    expect(costOf({ method: 'GET', path: '/v1/example/summary' })).toBe(1);
    expect(costOf({ method: 'POST', path: '/v1/example/calculate' })).toBe(10);
    expect(costOf({ method: 'POST', path: '/v1/not/a/route' })).toBe(10);
    // a call that carries its route is charged by that route, without matching the path again
    const route = { ...routeById('example.summary'), cost: 3 };
    expect(costOf({ method: 'GET', path: '/v1/example/summary', prepared: { route, pathValues: {}, request: { params: {}, query: {}, body: undefined } } })).toBe(3);
  });

  test('baseUrl defaults to PUBLICDATA_BASE_URL, then production', () => {
    const a = createLiveBackend({ apiKey: LIVE_KEY, env: { PUBLICDATA_BASE_URL: 'http://example.test/v1/' } });
    const b = createLiveBackend({ apiKey: LIVE_KEY, env: {} });
    expect(a.baseUrl).toBe('http://example.test/v1');
    expect(b.baseUrl).toBe(DEFAULT_BASE_URL);
    track(a, b);
  });

  test('a test key against the production base URL warns (masked), a live key or a test server does not', () => {
    const logs: string[] = [];
    const t = createLiveBackend({ apiKey: TEST_KEY, env: {}, log: (l) => logs.push(l) });
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toContain('gd_test_…a1b2');
    expect(t.warnings[0]).toContain('test key');
    // Warnings are for the caller to print once (the CLI writes them to stderr); the log does not repeat them.
    expect(logs).toEqual([]);
    expect(createLiveBackend({ apiKey: LIVE_KEY, env: {} }).warnings).toEqual([]);
    expect(createLiveBackend({ apiKey: TEST_KEY, env: {}, baseUrl: server.url }).warnings).toEqual([]);
    record(t.warnings, logs);
  });
});

describe('pass-through', () => {
  test('GET /v1/example/summary: the envelope is exactly what the server sent, equal to the local one', async () => {
    const { backend } = harness(server);
    const live = await backend.call(GET('/v1/example/summary'));
    const local = await callLocal(GET('/v1/example/summary'), localCtx);
    expect(local.status).toBe(200);
    expect(live.status).toBe(200);
    expect(live.source).toBe('live');
    expect(JSON.stringify(live.envelope)).toBe(JSON.stringify(local.envelope));
    expect(live.raw).toBe(JSON.stringify(local.envelope));
    // 60 example items, colour i % 3 (1 green, 2 blue, 3 red, ...): 20 of each, in that order of first sight
    expect(Object.entries((live.envelope as any).data.by_colour)).toEqual([['green', 20], ['blue', 20], ['red', 20]]);
    expect((live.envelope as any).data.item_count).toBe(60);
    expect(live.headers?.['x-ratelimit-limit']).toBe('1000');
    expect(live.headers?.['x-credits-cost']).toBe('1');
    expect(live.credits).toEqual({ remaining: server.getCredits(TEST_KEY), cost: 1 });
    record(live);
  });

  test('GET /v1/example/items with page/per_page: live equals local whatever local answers (pagination passes through)', async () => {
    const { backend } = harness(server);
    const q = { page: '2', per_page: '3' };
    const live = await backend.call(GET('/v1/example/items', q));
    const local = await callLocal(GET('/v1/example/items', q), localCtx);
    expect(live.status).toBe(local.status);
    expect(JSON.stringify(live.envelope)).toBe(JSON.stringify(local.envelope));
    const seen = server.requests.filter((r) => r.path === '/v1/example/items').at(-1)!;
    expect(seen.query).toEqual({ page: '2', per_page: '3' });
    if ('pagination' in local.envelope && local.envelope.pagination) {
      expect((live.envelope as any).pagination).toEqual({ ...local.envelope.pagination, page: 2, per_page: 3 });
    }
    // items 4, 5, 6 (the second page of 3 of the 60)
    expect((live.envelope as any).data.map((i: any) => i.id)).toEqual([4, 5, 6]);
    record(live);
  });

  test('error envelopes pass through unchanged (invalid_parameter 400)', async () => {
    const { backend } = harness(server);
    const live = await backend.call(GET('/v1/example/items/0'));
    const local = await callLocal(GET('/v1/example/items/0'), localCtx);
    expect(live.status).toBe(400);
    expect((live.envelope as ErrorEnvelope).error.code).toBe('invalid_parameter');
    expect(live.raw).toBe(JSON.stringify(local.envelope));
    expect(live.attempts).toBe(1);
  });

  test('request headers: Bearer key, Accept JSON, User-Agent; repeatable query; POST sends a JSON body', async () => {
    const { backend } = harness(server, { userAgent: 'publicdata/9.9.9 test' });
    const before = server.requests.length;
    await backend.call(GET('/v1/example/items', { colour: ['red', 'blue'] }));
    const body = { amount: 45000, colour: 'red' };
    const post = await backend.call({ method: 'POST', path: '/v1/example/calculate', query: {}, body });
    const [g, p] = server.requests.slice(before);
    expect(g!.hadAuth).toBe(true);
    expect(g!.headers.accept).toBe('application/json');
    expect(g!.headers['user-agent']).toBe('publicdata/9.9.9 test');
    expect(g!.query).toEqual({ colour: ['red', 'blue'] });
    expect(p!.method).toBe('POST');
    expect(p!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(p!.body!)).toEqual(body);
    expect(post.headers?.['x-credits-cost']).toBe('10');
    const local = await callLocal({ method: 'POST', path: '/v1/example/calculate', query: {}, body }, localCtx);
    expect(local.status).toBe(200);
    expect(JSON.stringify(post.envelope)).toBe(JSON.stringify(local.envelope));
    // every red item (ids 3, 6, ..., 60: counts 21, 42, ..., 420) is at most 45000: 20 items, 21 * (1 + ... + 20) = 4410
    expect((post.envelope as any).data).toMatchObject({ amount: 45000, colour: 'red', item_count: 20, total_count: 4410 });
    expect(JSON.stringify(server.requests)).not.toContain(TEST_KEY);
    record(server.requests, post);
  });
});

describe('credits, auth', () => {
  test('402 insufficient_credits is never retried (exit 3)', async () => {
    await withApiServer({ credits: 0 }, async (s) => {
      const { backend, waits } = harness(s);
      const r = await backend.call(GET('/v1/example/summary'));
      expect(r.status).toBe(402);
      expect(r.envelope).toEqual(INSUFFICIENT_CREDITS_BODY);
      expect(r.attempts).toBe(1);
      expect(s.requests).toHaveLength(1);
      expect(waits).toEqual([]);
      expect(exitCodeFor('insufficient_credits', 402)).toBe(3);
    });
  });

  test('insufficient_credits sent as 429 stops at once too (switch on the code, not the status)', async () => {
    await withApiServer({ credits: 5, insufficientStatus: 429 }, async (s) => {
      const { backend, waits } = harness(s);
      const ok = await backend.call(GET('/v1/example/summary'));
      expect(ok.credits).toEqual({ remaining: 4, cost: 1 });
      const r = await backend.call({ method: 'POST', path: '/v1/example/calculate', query: {}, body: {} });
      expect(r.status).toBe(429);
      expect((r.envelope as ErrorEnvelope).error.code).toBe('insufficient_credits');
      expect(r.attempts).toBe(1);
      expect(s.requests).toHaveLength(2);
      expect(waits).toEqual([]);
      expect(exitCodeFor('insufficient_credits', 429)).toBe(3);
      expect(backend.stats().creditsRemaining).toBe(4);
    });
  });

  test('401 invalid key and 403 forbidden come back as sent, not retried', async () => {
    const bad = harness(server, { apiKey: fakeKey('live', 'notarealkey0000000000000000') });
    const r401 = await bad.backend.call(GET('/v1/example/summary'));
    expect(r401.status).toBe(401);
    expect(r401.envelope).toEqual(INVALID_KEY_BODY);
    expect(r401.attempts).toBe(1);
    expect(exitCodeFor('unauthorized', 401)).toBe(4);
    const fb = harness(server, { apiKey: FORBIDDEN_KEY });
    const r403 = await fb.backend.call(GET('/v1/example/summary'));
    expect(r403.status).toBe(403);
    expect(r403.envelope).toEqual(FORBIDDEN_BODY);
    expect(exitCodeFor('forbidden', 403)).toBe(4);
  });

  test('a malformed key is refused locally with 401 and never sent', async () => {
    const before = server.requests.length;
    const { backend } = harness(server, { apiKey: `${TEST_KEY} extra` });
    const r = await backend.call(GET('/v1/example/summary'));
    expect(r.status).toBe(401);
    expect((r.envelope as ErrorEnvelope).error.code).toBe('unauthorized');
    expect(server.requests.length).toBe(before);
    record(r);
  });

  test('maxCredits: the request that would pass the budget is not sent (credit_budget_exceeded, exit 3)', async () => {
    const { backend, logs } = harness(server, { maxCredits: 12 });
    expect(backend.canSpend(12)).toBe(true);
    expect(backend.canSpend(13)).toBe(false);
    const before = server.requests.length;
    expect((await backend.call(GET('/v1/example/summary'))).status).toBe(200);
    expect((await backend.call(GET('/v1/example/summary'))).status).toBe(200);
    expect(backend.creditsSpent()).toBe(2);
    expect(backend.canSpend(10)).toBe(true);
    expect(backend.canSpend(11)).toBe(false);
    const post = await backend.call({ method: 'POST', path: '/v1/example/calculate', query: {}, body: {} });
    expect(backend.creditsSpent()).toBe(12);
    expect(post.headers?.['x-credits-cost']).toBe('10');
    const refused = await backend.call(GET('/v1/example/summary'));
    expect(refused.status).toBe(402);
    expect(refused.attempts).toBe(0);
    const e = (refused.envelope as ErrorEnvelope).error;
    expect(e.code).toBe('credit_budget_exceeded');
    expect(e.message).toContain('12 of the 12');
    expect(exitCodeFor(e.code, 402)).toBe(3);
    expect(server.requests.length - before).toBe(3);
    expect(logs.some((l) => l.includes('credit'))).toBe(true);
  });
});

describe('logging and secrecy', () => {
  test('verbose lines: request, status, timing, credits, rate limit; key redacted even when passed by mistake', async () => {
    const { backend, logs } = harness(server);
    // (a declared parameter: an undeclared one is refused before any request)
    await backend.call(GET('/v1/example/items', { name: TEST_KEY }));
    const text = logs.join('\n');
    expect(text).toMatch(/→ GET http:\/\/127\.0\.0\.1:\d+\/v1\/example\/items\?name=gd_test_…a1b2/);
    expect(text).toMatch(/← \d{3} GET \/v1\/example\/items\?name=gd_test_…a1b2 \d+ ms · credits remaining \d+ \(cost 1\) · rate \d+\/1000 reset \d+/);
    expect(text).not.toContain(TEST_KEY);
    record(logs);
  });

  test('nothing captured by these tests contains the key', () => {
    expect(expectNoKeyCaptured()).toContain('gd_test_…a1b2');
  });
});
