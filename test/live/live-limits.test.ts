/**
 * The live client's handling of limits against a real HTTP server on 127.0.0.1: 429 and Retry-After,
 * network errors and 5xx, and pacing on a clock shared by server and client (see harness.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SERVER_ERROR_MESSAGE } from '../../src/backends/live.js';
import { exitCodeFor } from '../../src/contract/errors.js';
import type { ErrorEnvelope } from '../../src/contract/types.js';
import { RATE_LIMIT_BODY, SERVER_ERROR_BODY, startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';
import { FakeClock } from '../support/clock.js';
import { answered, GET, liveSuite, nextTurn, startLiveServer, withApiServer } from './harness.js';

let server: ApiServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(async () => {
  await server.close();
});
const { harness, record, expectNoKeyCaptured } = liveSuite();

describe('429 and Retry-After', () => {
  test('Retry-After in seconds: waits it (plus jitter) and retries until 200', async () => {
    const { backend, waits, logs } = harness(server);
    server.setRetryAfter('seconds');
    server.force429(2, 3);
    const r = await backend.call(GET('/v1/example/summary'));
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
    const r = await backend.call(GET('/v1/example/summary'));
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
    const r = await backend.call(GET('/v1/example/summary'));
    server.force429(0, 1);
    expect(r.status).toBe(429);
    expect(r.envelope).toEqual(RATE_LIMIT_BODY);
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect(exitCodeFor((r.envelope as ErrorEnvelope).error.code, r.status)).toBe(5);
  });

  test('a used-up window whose reset is beyond --max-wait: rate_limit_exceeded without sending', async () => {
    await withApiServer({ limit: 2, windowMs: 3_600_000 }, async (s) => {
      const { backend, waits } = harness(s, { maxWait: 5 });
      expect((await backend.call(GET('/v1/example/summary'))).status).toBe(200);
      expect((await backend.call(GET('/v1/example/summary'))).status).toBe(200);
      const r = await backend.call(GET('/v1/example/summary'));
      expect(r.status).toBe(429);
      expect(r.attempts).toBe(0);
      expect((r.envelope as ErrorEnvelope).error.code).toBe('rate_limit_exceeded');
      expect((r.envelope as ErrorEnvelope).error.message).toContain('--max-wait 5 s');
      expect(s.requests).toHaveLength(2);
      expect(waits).toEqual([]);
    });
  });

  test('a 429 without Retry-After backs off exponentially', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults('bare-429', 'bare-429');
    const r = await backend.call(GET('/v1/example/summary'));
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
    const r = await backend.call(GET('/v1/example/summary'));
    expect(r.status).toBe(429);
    expect(r.attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('network errors and 5xx', () => {
  test('GET is retried after 500 and 503 with growing back-off', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults(500, 503);
    const r = await backend.call(GET('/v1/example/summary'));
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
    const r = await backend.call(GET('/v1/example/summary'));
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
    const r = await backend.call(GET('/v1/example/summary'));
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
    const a = await backend.call(GET('/v1/example/summary'));
    expect(a.status).toBe(500);
    expect(a.envelope).toEqual(SERVER_ERROR_BODY);
    server.injectFaults('html-502', 'html-502');
    const b = await backend.call(GET('/v1/example/summary'));
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
    const r = await backend.call({ method: 'POST', path: '/v1/example/calculate', query: {}, body: { amount: 30 } });
    expect(r.status).toBe(500);
    expect(r.attempts).toBe(1);
    expect(server.requests.length - before).toBe(1);
    expect(waits).toEqual([]);
  });

  test('POST is not retried after a connection reset (the request may have been processed)', async () => {
    const { backend, waits } = harness(server);
    server.injectFaults('reset');
    const r = await backend.call({ method: 'POST', path: '/v1/example/calculate', query: {}, body: { amount: 30 } });
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
    const g = await backend.call(GET('/v1/example/summary'));
    expect(g.status).toBe(503);
    expect((g.envelope as ErrorEnvelope).error.code).toBe('network_error');
    expect((g.envelope as ErrorEnvelope).error.message).toContain('ECONNREFUSED');
    expect(g.attempts).toBe(3);
    const p = await backend.call({ method: 'POST', path: '/v1/example/calculate', query: {}, body: {} });
    expect(p.attempts).toBe(3);
    expect(waits).toHaveLength(4);
    record(g, p);
  });
});

describe('pacing (1 s windows on a clock shared by server and client)', () => {
  /** Starts at an arbitrary instant inside a window, as a real run would. */
  const sharedClock = () => new FakeClock(Date.parse('2026-11-21T12:00:00.337Z'));

  test('12 sequential GETs at 5 per 1 s window: no 429, waits for the reset', async () => {
    const clock = sharedClock();
    await withApiServer({ limit: 5, windowMs: 1000, now: clock.now }, async (s) => {
      const { backend, logs } = harness(s, { clock });
      const t0 = clock.now();
      for (let i = 0; i < 12; i++) {
        const r = await backend.call(GET('/v1/example/summary'));
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
    });
  });

  test('concurrent calls share the window: 14 at once at 5 per 1 s, no 429', async () => {
    const clock = sharedClock();
    await withApiServer({ limit: 5, windowMs: 1000, now: clock.now }, async (s) => {
      const { backend } = harness(s, { clock });
      // Learn the window first (the first answer carries the headers).
      await backend.call(GET('/v1/example/summary'));
      const rs = await Promise.all(Array.from({ length: 14 }, () => backend.call(GET('/v1/example/summary'))));
      expect(rs.every((r) => r.status === 200)).toBe(true);
      expect(s.stats().byStatus[429]).toBeUndefined();
      expect(s.stats().byStatus[200]).toBe(15);
    });
  });

  for (const skewMs of [-1500, 1500]) {
    test(`server clock ${skewMs > 0 ? 'ahead' : 'behind'} by ${Math.abs(skewMs)} ms: the Date header corrects pacing, no 429`, async () => {
      const clock = sharedClock();
      await withApiServer({ limit: 5, windowMs: 1000, now: () => clock.now() + skewMs }, async (s) => {
        const { backend } = harness(s, { clock });
        for (let i = 0; i < 12; i++) expect((await backend.call(GET('/v1/example/summary'))).status).toBe(200);
        expect(s.stats().byStatus[429]).toBeUndefined();
        const off = backend.stats().clockOffsetMs;
        if (skewMs > 0) expect(off).toBeGreaterThan(400);
        else expect(off).toBeLessThan(-1400);
        expect(Math.abs(off)).toBeLessThan(2600);
      });
    });
  }

  test('a window exhausted by someone else: 429 once, then Retry-After, then success', async () => {
    const clock = sharedClock();
    await withApiServer({ limit: 3, windowMs: 2000, now: clock.now }, async (s) => {
      // Start just after a window opens, so the four quick requests below share one window.
      await clock.sleep(s.windowStart(clock.now()) + s.windowMs - clock.now() + 20);
      const other = harness(s, { clock });
      const mine = harness(s, { clock });
      await mine.backend.call(GET('/v1/example/summary')); // mine believes 2 remain
      for (let i = 0; i < 2; i++) await other.backend.call(GET('/v1/example/summary')); // the window is now used up
      const r = await mine.backend.call(GET('/v1/example/summary'));
      expect(r.status).toBe(200);
      expect(mine.backend.stats().rateLimited).toBe(1);
      expect(mine.backend.stats().waitedMs).toBeGreaterThan(0);
    });
  });
});

describe('secrecy', () => {
  test('nothing captured by these tests contains the key', () => {
    expectNoKeyCaptured();
  });
});
