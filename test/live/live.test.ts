/**
 * The live client against a real HTTP server on 127.0.0.1 (test/support/api-server.ts).
 * Waits are recorded by an injected sleep (no real waiting). The pacing tests share one FakeClock between
 * the server and the client: 1 s windows, Date headers and Retry-After all follow it, and the client's
 * waits move it, so a wait for a window's reset is computed and checked, never spent.
 */
import { fakeKey } from '../support/keys.js';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import {
  buildUrl,
  costOf,
  createLiveBackend,
  DEFAULT_BASE_URL,
  parseRetryAfter,
  SERVER_ERROR_MESSAGE,
  type LiveBackend,
  type LiveOptions,
} from '../../src/backends/live.js';
import { exitCodeFor } from '../../src/contract/errors.js';
import type { ErrorEnvelope, RouteCall } from '../../src/contract/types.js';
import {
  FIXED_CLOCK,
  INSUFFICIENT_CREDITS_BODY,
  INVALID_KEY_BODY,
  FORBIDDEN_BODY,
  RATE_LIMIT_BODY,
  SERVER_ERROR_BODY,
  startApiServer,
  TEST_KEY,
  type ApiServer,
} from '../support/api-server.js';
import { FakeClock } from '../support/clock.js';

const LIVE_KEY = fakeKey('live', '9e8d7c6b5a4f3e2d1c0b9a8f7e6dc3d4');
const FORBIDDEN_KEY = fakeKey('live', '0000111122223333444455556666f0f0');

/** Everything the tests capture, for the final "no key anywhere" check. */
const captured: string[] = [];

const localCtx = {
  now: () => new Date(FIXED_CLOCK),
  env: {},
  mirrorDir: '/nonexistent/publicdata-mirror',
  cacheDir: '/nonexistent/publicdata-cache',
};

interface Harness {
  backend: LiveBackend;
  waits: number[];
  logs: string[];
}

const open: LiveBackend[] = [];

/** Backends per shared clock (see harness). */
const onClock = new Map<FakeClock, Harness[]>();
/** Requests of a harness's backend that have their answer (or network error) back: one log line each. */
const answered = (h: Harness) => h.logs.filter((l) => l.startsWith('← ') || /^✗ (GET|POST) /.test(l)).length;
const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/**
 * A backend on the test server. Time is virtual: sleep records the wait and moves the client's clock
 * forward without waiting. `clock` shares a FakeClock with the server (the pacing tests).
 */
function harness(server: ApiServer, extra: Partial<LiveOptions> & { clock?: FakeClock } = {}): Harness {
  const waits: number[] = [];
  const logs: string[] = [];
  let offset = 0;
  const { clock: shared, ...rest } = extra;
  const peers = shared ? (onClock.get(shared) ?? onClock.set(shared, []).get(shared)!) : [];
  const clock = shared
    ? {
        now: shared.now,
        // A real wait (a second) outlasts a loopback round trip (a millisecond): the clock moves only once
        // every request sent on it has its answer, as it would in real time.
        sleep: async (ms: number) => {
          waits.push(ms);
          while (peers.some((p) => p.backend.stats().requests > answered(p))) await nextTurn();
          await shared.sleep(ms);
        },
      }
    : {
        now: () => Date.now() + offset,
        sleep: async (ms: number) => {
          waits.push(ms);
          offset += ms;
        },
      };
  const backend = createLiveBackend({
    apiKey: TEST_KEY,
    baseUrl: server.url,
    env: {},
    ...clock,
    random: () => 0.5,
    log: (l) => logs.push(l),
    ...rest,
  });
  open.push(backend);
  const h = { backend, waits, logs };
  peers.push(h);
  return h;
}

function record(...xs: unknown[]): void {
  for (const x of xs) captured.push(typeof x === 'string' ? x : JSON.stringify(x));
}

const GET = (path: string, query: RouteCall['query'] = {}): RouteCall => ({ method: 'GET', path, query });

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer({ keys: [TEST_KEY, LIVE_KEY], forbiddenKeys: [FORBIDDEN_KEY], limit: 1000, windowMs: 60_000 });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  while (open.length) {
    const b = open.pop()!;
    record(b.stats(), b.warnings);
    await b.close();
  }
});

describe('helpers', () => {
  test('buildUrl joins /v1 once, encodes segments, repeats query keys', () => {
    expect(buildUrl('https://api.govdata.dev/v1', '/v1/tax/years')).toBe('https://api.govdata.dev/v1/tax/years');
    expect(buildUrl('https://api.govdata.dev/v1/', '/v1/tax/years')).toBe('https://api.govdata.dev/v1/tax/years');
    expect(buildUrl('http://127.0.0.1:8080', '/v1/calendar/regions')).toBe('http://127.0.0.1:8080/v1/calendar/regions');
    expect(buildUrl('http://h/v1', '/calendar/regions')).toBe('http://h/v1/calendar/regions');
    expect(buildUrl('http://h', '/calendar/regions')).toBe('http://h/v1/calendar/regions');
    expect(buildUrl('http://h/v1', '/v1/property/x/SW1A 1AA')).toBe('http://h/v1/property/x/SW1A%201AA');
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
    expect(costOf({ method: 'GET', path: '/v1/tax/years' })).toBe(1);
    expect(costOf({ method: 'POST', path: '/v1/tax/take-home/calculate' })).toBe(10);
    expect(costOf({ method: 'POST', path: '/v1/not/a/route' })).toBe(10);
  });

  test('baseUrl defaults to PUBLICDATA_BASE_URL, then production', () => {
    const a = createLiveBackend({ apiKey: LIVE_KEY, env: { PUBLICDATA_BASE_URL: 'http://example.test/v1/' } });
    const b = createLiveBackend({ apiKey: LIVE_KEY, env: {} });
    expect(a.baseUrl).toBe('http://example.test/v1');
    expect(b.baseUrl).toBe(DEFAULT_BASE_URL);
    open.push(a, b);
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
  test('GET /v1/calendar/regions: the envelope is exactly what the server sent, equal to the local one', async () => {
    const { backend } = harness(server);
    const live = await backend.call(GET('/v1/calendar/regions'));
    const local = await callLocal(GET('/v1/calendar/regions'), localCtx);
    expect(local.status).toBe(200);
    expect(live.status).toBe(200);
    expect(live.source).toBe('live');
    expect(JSON.stringify(live.envelope)).toBe(JSON.stringify(local.envelope));
    expect(live.raw).toBe(JSON.stringify(local.envelope));
    expect((live.envelope as any).data.regions.map((r: any) => r.slug)).toEqual([
      'england_and_wales',
      'scotland',
      'northern_ireland',
    ]);
    expect(live.headers?.['x-ratelimit-limit']).toBe('1000');
    expect(live.headers?.['x-credits-cost']).toBe('1');
    expect(live.credits).toEqual({ remaining: server.getCredits(TEST_KEY), cost: 1 });
    record(live);
  });

  test('GET /v1/tax/years with page/per_page: live equals local whatever local answers (pagination passes through)', async () => {
    const { backend } = harness(server);
    const q = { page: '2', per_page: '3' };
    const live = await backend.call(GET('/v1/tax/years', q));
    const local = await callLocal(GET('/v1/tax/years', q), localCtx);
    expect(live.status).toBe(local.status);
    expect(JSON.stringify(live.envelope)).toBe(JSON.stringify(local.envelope));
    const seen = server.requests.filter((r) => r.path === '/v1/tax/years').at(-1)!;
    expect(seen.query).toEqual({ page: '2', per_page: '3' });
    if ('pagination' in local.envelope && local.envelope.pagination) {
      expect((live.envelope as any).pagination).toEqual({ ...local.envelope.pagination, page: 2, per_page: 3 });
    }
    record(live);
  });

  test('error envelopes pass through unchanged (invalid_year 400)', async () => {
    const { backend } = harness(server);
    const live = await backend.call(GET('/v1/calendar/bank-holidays/20x6'));
    const local = await callLocal(GET('/v1/calendar/bank-holidays/20x6'), localCtx);
    expect(live.status).toBe(400);
    expect((live.envelope as ErrorEnvelope).error.code).toBe('invalid_year');
    expect(live.raw).toBe(JSON.stringify(local.envelope));
    expect(live.attempts).toBe(1);
  });

  test('request headers: Bearer key, Accept JSON, User-Agent; repeatable query; POST sends a JSON body', async () => {
    const { backend } = harness(server, { userAgent: 'publicdata/9.9.9 test' });
    const before = server.requests.length;
    await backend.call(GET('/v1/calendar/bank-holidays', { region: ['scotland', 'england_and_wales'] }));
    const body = { gross_salary: 45000, region: 'scotland' };
    const post = await backend.call({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body });
    const [g, p] = server.requests.slice(before);
    expect(g!.hadAuth).toBe(true);
    expect(g!.headers.accept).toBe('application/json');
    expect(g!.headers['user-agent']).toBe('publicdata/9.9.9 test');
    expect(g!.query).toEqual({ region: ['scotland', 'england_and_wales'] });
    expect(p!.method).toBe('POST');
    expect(p!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(p!.body!)).toEqual(body);
    expect(post.headers?.['x-credits-cost']).toBe('10');
    const local = await callLocal({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body }, localCtx);
    if (local.status < 500) expect(JSON.stringify(post.envelope)).toBe(JSON.stringify(local.envelope));
    expect(JSON.stringify(server.requests)).not.toContain(TEST_KEY);
    record(server.requests, post);
  });
});

describe('429 and Retry-After', () => {
  test('Retry-After in seconds: waits it (plus jitter) and retries until 200', async () => {
    const { backend, waits, logs } = harness(server);
    server.setRetryAfter('seconds');
    server.force429(2, 3);
    const r = await backend.call(GET('/v1/calendar/regions'));
    expect(r.status).toBe(200);
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(3000);
    expect(waits[0]).toBeLessThan(3000 + 1000);
    expect(waits[1]).toBeGreaterThanOrEqual(3000);
    expect(backend.stats().rateLimited).toBe(2);
    expect(logs.some((l) => l.includes('429 rate_limit_exceeded: retry 1/5'))).toBe(true);
    record(logs);
  });

  test('Retry-After as an HTTP-date: waits until that date', async () => {
    const { backend, waits } = harness(server);
    server.setRetryAfter('http-date');
    server.force429(1, 5);
    const r = await backend.call(GET('/v1/calendar/regions'));
    server.setRetryAfter('seconds');
    expect(r.status).toBe(200);
    const seen = server.requests.filter((x) => x.status === 429).at(-1)!;
    expect(seen).toBeDefined();
    expect(waits).toHaveLength(1);
    // 5 s, rounded up to the next whole second by the date's resolution, minus request time.
    expect(waits[0]).toBeGreaterThan(3500);
    expect(waits[0]).toBeLessThan(7000);
  });

  test('past the retry budget the 429 envelope is returned as received (exit 5)', async () => {
    const { backend, waits } = harness(server, { maxRetries: 2 });
    server.force429(10, 1);
    const r = await backend.call(GET('/v1/calendar/regions'));
    server.force429(0, 1);
    expect(r.status).toBe(429);
    expect(r.envelope).toEqual(RATE_LIMIT_BODY);
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect(exitCodeFor((r.envelope as ErrorEnvelope).error.code, r.status)).toBe(5);
  });

  test('a used-up window whose reset is beyond --max-wait: rate_limit_exceeded without sending', async () => {
    const s = await startApiServer({ limit: 2, windowMs: 3_600_000 });
    try {
      const { backend, waits } = harness(s, { maxWait: 5 });
      expect((await backend.call(GET('/v1/calendar/regions'))).status).toBe(200);
      expect((await backend.call(GET('/v1/calendar/regions'))).status).toBe(200);
      const r = await backend.call(GET('/v1/calendar/regions'));
      expect(r.status).toBe(429);
      expect(r.attempts).toBe(0);
      expect((r.envelope as ErrorEnvelope).error.code).toBe('rate_limit_exceeded');
      expect((r.envelope as ErrorEnvelope).error.message).toContain('--max-wait 5 s');
      expect(s.requests).toHaveLength(2);
      expect(waits).toEqual([]);
    } finally {
      await s.close();
    }
  });

  test('a 429 without Retry-After backs off exponentially', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults('bare-429', 'bare-429');
    const r = await backend.call(GET('/v1/calendar/regions'));
    expect(r.status).toBe(200);
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    // equal jitter with random 0.5: 0.375 s then 0.75 s, plus the 429 jitter
    expect(waits[0]).toBeGreaterThanOrEqual(375);
    expect(waits[1]).toBeGreaterThanOrEqual(750);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
  });

  test('a Retry-After longer than --max-wait gives up at once', async () => {
    const { backend, waits } = harness(server, { maxWait: 10 });
    server.force429(1, 45);
    const r = await backend.call(GET('/v1/calendar/regions'));
    expect(r.status).toBe(429);
    expect(r.attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('network errors and 5xx', () => {
  test('GET is retried after 500 and 503 with growing back-off', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults(500, 503);
    const r = await backend.call(GET('/v1/calendar/regions'));
    expect(r.status).toBe(200);
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
    expect(backend.stats().serverErrors).toBe(2);
  });

  test('GET is retried after a connection reset', async () => {
    const { backend, logs } = harness(server);
    const resetsBefore = server.stats().resets;
    server.injectFaults('reset', 'reset');
    const r = await backend.call(GET('/v1/calendar/regions'));
    expect(server.stats().resets - resetsBefore).toBe(2);
    expect(r.status).toBe(200);
    expect(r.attempts).toBe(3);
    expect(backend.stats().networkErrors).toBe(2);
    expect(logs.filter((l) => l.startsWith('✗ GET')).length).toBe(2);
    record(logs);
  });

  test('persistent resets end in network_error with status 503 (exit 6)', async () => {
    const { backend } = harness(server, { maxRetries: 2 });
    server.injectFaults('reset', 'reset', 'reset');
    const r = await backend.call(GET('/v1/calendar/regions'));
    expect(r.status).toBe(503);
    expect(r.attempts).toBe(3);
    const e = (r.envelope as ErrorEnvelope).error;
    expect(e.code).toBe('network_error');
    expect(e.message).toContain('127.0.0.1');
    expect(e.message).toContain('after 3 attempt(s)');
    expect(exitCodeFor(e.code, r.status)).toBe(6);
    record(r);
  });

  test('persistent 5xx: a JSON error envelope is kept, anything else becomes server_error', async () => {
    const { backend } = harness(server, { maxRetries: 1 });
    server.injectFaults('json-500', 'json-500');
    const a = await backend.call(GET('/v1/calendar/regions'));
    expect(a.status).toBe(500);
    expect(a.envelope).toEqual(SERVER_ERROR_BODY);
    server.injectFaults('html-502', 'html-502');
    const b = await backend.call(GET('/v1/calendar/regions'));
    expect(b.status).toBe(502);
    expect((b.envelope as ErrorEnvelope).error).toEqual({
      code: 'server_error',
      message: SERVER_ERROR_MESSAGE,
      documentation_url: 'https://docs.govdata.dev/errors/server_error',
    });
    expect(exitCodeFor('server_error', 502)).toBe(6);
  });

  test('POST is not retried after a 5xx (it may have been processed and charged)', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults(500);
    const before = server.requests.length;
    const r = await backend.call({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body: { gross_salary: 30000 } });
    expect(r.status).toBe(500);
    expect(r.attempts).toBe(1);
    expect(server.requests.length - before).toBe(1);
    expect(waits).toEqual([]);
  });

  test('POST is not retried after a connection reset (the request may have been processed)', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults('reset');
    const r = await backend.call({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body: { gross_salary: 30000 } });
    expect(r.status).toBe(503);
    expect((r.envelope as ErrorEnvelope).error.code).toBe('network_error');
    expect(r.attempts).toBe(1);
    expect(waits).toEqual([]);
  });

  test('connection refused is retried for GET and POST, then network_error', async () => {
    const dead = await startApiServer();
    const url = dead.url;
    await dead.close();
    const { backend, waits } = harness({ url } as ApiServer, { maxRetries: 2 });
    const g = await backend.call(GET('/v1/calendar/regions'));
    expect(g.status).toBe(503);
    expect((g.envelope as ErrorEnvelope).error.code).toBe('network_error');
    expect((g.envelope as ErrorEnvelope).error.message).toContain('ECONNREFUSED');
    expect(g.attempts).toBe(3);
    const p = await backend.call({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body: {} });
    expect(p.attempts).toBe(3);
    expect(waits).toHaveLength(4);
    record(g, p);
  });
});

describe('credits, auth', () => {
  test('402 insufficient_credits is never retried (exit 3)', async () => {
    const s = await startApiServer({ credits: 0 });
    try {
      const { backend, waits } = harness(s);
      const r = await backend.call(GET('/v1/calendar/regions'));
      expect(r.status).toBe(402);
      expect(r.envelope).toEqual(INSUFFICIENT_CREDITS_BODY);
      expect(r.attempts).toBe(1);
      expect(s.requests).toHaveLength(1);
      expect(waits).toEqual([]);
      expect(exitCodeFor('insufficient_credits', 402)).toBe(3);
    } finally {
      await s.close();
    }
  });

  test('insufficient_credits sent as 429 stops at once too (switch on the code, not the status)', async () => {
    const s = await startApiServer({ credits: 5, insufficientStatus: 429 });
    try {
      const { backend, waits } = harness(s);
      const ok = await backend.call(GET('/v1/calendar/regions'));
      expect(ok.credits).toEqual({ remaining: 4, cost: 1 });
      const r = await backend.call({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body: {} });
      expect(r.status).toBe(429);
      expect((r.envelope as ErrorEnvelope).error.code).toBe('insufficient_credits');
      expect(r.attempts).toBe(1);
      expect(s.requests).toHaveLength(2);
      expect(waits).toEqual([]);
      expect(exitCodeFor('insufficient_credits', 429)).toBe(3);
      expect(backend.stats().creditsRemaining).toBe(4);
    } finally {
      await s.close();
    }
  });

  test('401 invalid key and 403 forbidden come back as sent, not retried', async () => {
    const bad = harness(server, { apiKey: fakeKey('live', 'notarealkey0000000000000000') });
    const r401 = await bad.backend.call(GET('/v1/calendar/regions'));
    expect(r401.status).toBe(401);
    expect(r401.envelope).toEqual(INVALID_KEY_BODY);
    expect(r401.attempts).toBe(1);
    expect(exitCodeFor('unauthorized', 401)).toBe(4);
    const fb = harness(server, { apiKey: FORBIDDEN_KEY });
    const r403 = await fb.backend.call(GET('/v1/calendar/regions'));
    expect(r403.status).toBe(403);
    expect(r403.envelope).toEqual(FORBIDDEN_BODY);
    expect(exitCodeFor('forbidden', 403)).toBe(4);
  });

  test('a malformed key is refused locally with 401 and never sent', async () => {
    const before = server.requests.length;
    const { backend } = harness(server, { apiKey: `${TEST_KEY} extra` });
    const r = await backend.call(GET('/v1/calendar/regions'));
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
    expect((await backend.call(GET('/v1/calendar/regions'))).status).toBe(200);
    expect((await backend.call(GET('/v1/calendar/regions'))).status).toBe(200);
    expect(backend.creditsSpent()).toBe(2);
    expect(backend.canSpend(10)).toBe(true);
    expect(backend.canSpend(11)).toBe(false);
    const post = await backend.call({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body: {} });
    expect(backend.creditsSpent()).toBe(12);
    expect(post.headers?.['x-credits-cost']).toBe('10');
    const refused = await backend.call(GET('/v1/calendar/regions'));
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

describe('pacing (1 s windows on a clock shared by server and client)', () => {
  /** Starts at an arbitrary instant inside a window, as a real run would. */
  const sharedClock = () => new FakeClock(Date.parse('2026-11-21T12:00:00.337Z'));

  test('12 sequential GETs at 5 per 1 s window: no 429, waits for the reset', async () => {
    const clock = sharedClock();
    const s = await startApiServer({ limit: 5, windowMs: 1000, now: clock.now });
    try {
      const { backend, logs } = harness(s, { clock });
      const t0 = clock.now();
      for (let i = 0; i < 12; i++) {
        const r = await backend.call(GET('/v1/calendar/regions'));
        expect(r.status).toBe(200);
      }
      const elapsed = clock.now() - t0;
      const st = backend.stats();
      expect(s.stats().byStatus[429]).toBeUndefined();
      expect(st.rateLimited).toBe(0);
      // 12 requests at 5 a window span at least 3 windows; one boundary may pass on its own, so >= 1 wait.
      expect(st.pacingWaits).toBeGreaterThanOrEqual(1);
      expect(st.rateLimit.limit).toBe(5);
      expect(elapsed).toBeGreaterThan(1000); // at least two window boundaries were crossed
      expect(elapsed).toBeLessThan(10_000); // sanity
      expect(logs.some((l) => l.includes('window used up'))).toBe(true);
      record(logs);
    } finally {
      await s.close();
    }
  });

  test('concurrent calls share the window: 14 at once at 5 per 1 s, no 429', async () => {
    const clock = sharedClock();
    const s = await startApiServer({ limit: 5, windowMs: 1000, now: clock.now });
    try {
      const { backend } = harness(s, { clock });
      // Learn the window first (the first answer carries the headers).
      await backend.call(GET('/v1/calendar/regions'));
      const rs = await Promise.all(Array.from({ length: 14 }, () => backend.call(GET('/v1/calendar/regions'))));
      expect(rs.every((r) => r.status === 200)).toBe(true);
      expect(s.stats().byStatus[429]).toBeUndefined();
      expect(s.stats().byStatus[200]).toBe(15);
    } finally {
      await s.close();
    }
  });

  for (const skewMs of [-1500, 1500]) {
    test(`server clock ${skewMs > 0 ? 'ahead' : 'behind'} by ${Math.abs(skewMs)} ms: the Date header corrects pacing, no 429`, async () => {
      const clock = sharedClock();
      const s = await startApiServer({ limit: 5, windowMs: 1000, now: () => clock.now() + skewMs });
      try {
        const { backend } = harness(s, { clock });
        for (let i = 0; i < 12; i++) expect((await backend.call(GET('/v1/calendar/regions'))).status).toBe(200);
        expect(s.stats().byStatus[429]).toBeUndefined();
        const off = backend.stats().clockOffsetMs;
        if (skewMs > 0) expect(off).toBeGreaterThan(400);
        else expect(off).toBeLessThan(-1400);
        expect(Math.abs(off)).toBeLessThan(2600);
      } finally {
        await s.close();
      }
    });
  }

  test('a window exhausted by someone else: 429 once, then Retry-After, then success', async () => {
    const clock = sharedClock();
    const s = await startApiServer({ limit: 3, windowMs: 2000, now: clock.now });
    try {
      // Start just after a window opens, so the four quick requests below share one window.
      await clock.sleep(s.windowStart(clock.now()) + s.windowMs - clock.now() + 20);
      const other = harness(s, { clock });
      const mine = harness(s, { clock });
      await mine.backend.call(GET('/v1/calendar/regions')); // mine believes 2 remain
      for (let i = 0; i < 2; i++) await other.backend.call(GET('/v1/calendar/regions')); // the window is now used up
      const r = await mine.backend.call(GET('/v1/calendar/regions'));
      expect(r.status).toBe(200);
      expect(mine.backend.stats().rateLimited).toBe(1);
      expect(mine.backend.stats().waitedMs).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});

describe('logging and secrecy', () => {
  test('verbose lines: request, status, timing, credits, rate limit; key redacted even when passed by mistake', async () => {
    const { backend, logs } = harness(server);
    await backend.call(GET('/v1/calendar/regions', { note: TEST_KEY }));
    const text = logs.join('\n');
    expect(text).toMatch(/→ GET http:\/\/127\.0\.0\.1:\d+\/v1\/calendar\/regions\?note=gd_test_…a1b2/);
    expect(text).toMatch(/← 200 GET \/v1\/calendar\/regions\?note=gd_test_…a1b2 \d+ ms · credits remaining \d+ \(cost 1\) · rate \d+\/1000 reset \d+/);
    expect(text).not.toContain(TEST_KEY);
    record(logs);
  });

  test('nothing captured by these tests contains the key', () => {
    const all = captured.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    for (const k of [TEST_KEY, LIVE_KEY, FORBIDDEN_KEY, encodeURIComponent(TEST_KEY)]) {
      expect(all.includes(k), `key ${k.slice(0, 8)}… found in captured output`).toBe(false);
    }
    expect(all).toContain('gd_test_…a1b2');
  });
});
