/**
 * Shared set-up of the live-client tests (live.test.ts, live-limits.test.ts): the test API server with its
 * keys, backends whose waits are virtual, and the record of everything captured for the "no key anywhere"
 * check each file ends with.
 *
 * Waits are recorded by an injected sleep (no real waiting). The pacing tests share one FakeClock between
 * the server and the client: 1 s windows, Date headers and Retry-After all follow it, and the client's
 * waits move it, so a wait for a window's reset is computed and checked, never spent.
 */
import { afterEach, expect } from 'vitest';
import { createLiveBackend, type LiveBackend, type LiveOptions } from '../../src/backends/live.js';
import type { RouteCall } from '../../src/contract/types.js';
import { FIXED_CLOCK, startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';
import type { FakeClock } from '../support/clock.js';
import { fakeKey } from '../support/keys.js';

export const LIVE_KEY = fakeKey('live', '9e8d7c6b5a4f3e2d1c0b9a8f7e6dc3d4');
export const FORBIDDEN_KEY = fakeKey('live', '0000111122223333444455556666f0f0');

export const localCtx = {
  now: () => new Date(FIXED_CLOCK),
  env: {},
  mirrorDir: '/nonexistent/publicdata-mirror',
  cacheDir: '/nonexistent/publicdata-cache',
};

export interface Harness {
  backend: LiveBackend;
  waits: number[];
  logs: string[];
}

export const GET = (path: string, query: RouteCall['query'] = {}): RouteCall => ({ method: 'GET', path, query });
export const nextTurn = () => new Promise<void>((r) => setImmediate(r));
/** Requests of a harness's backend that have their answer (or network error) back: one log line each. */
export const answered = (h: Harness) => h.logs.filter((l) => l.startsWith('← ') || /^✗ (GET|POST) /.test(l)).length;

/** The test API server with the three keys (the test key, a second live key, one that is forbidden). */
export function startLiveServer(): Promise<ApiServer> {
  return startApiServer({ keys: [TEST_KEY, LIVE_KEY], forbiddenKeys: [FORBIDDEN_KEY], limit: 1000, windowMs: 60_000 });
}

/** Run `fn` with a test API server of its own (`opts`: startApiServer's), closed afterwards whatever happens. */
export async function withApiServer<T>(opts: Parameters<typeof startApiServer>[0], fn: (s: ApiServer) => Promise<T>): Promise<T> {
  const s = await startApiServer(opts);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/**
 * One test file's backends and captured output. Registers an afterEach that closes every backend the test
 * opened and records its stats and warnings.
 */
export function liveSuite() {
  /** Everything the tests capture, for the final "no key anywhere" check. */
  const captured: string[] = [];
  const open: LiveBackend[] = [];
  /** Backends per shared clock (see harness). */
  const onClock = new Map<FakeClock, Harness[]>();

  function record(...xs: unknown[]): void {
    for (const x of xs) captured.push(typeof x === 'string' ? x : JSON.stringify(x));
  }

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

  /** Asserts that nothing this file captured contains a key (only their redacted forms). */
  function expectNoKeyCaptured(): string {
    const all = captured.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    for (const k of [TEST_KEY, LIVE_KEY, FORBIDDEN_KEY, encodeURIComponent(TEST_KEY)]) {
      expect(all.includes(k), `key ${k.slice(0, 8)}… found in captured output`).toBe(false);
    }
    return all;
  }

  afterEach(async () => {
    while (open.length) {
      const b = open.pop()!;
      record(b.stats(), b.warnings);
      await b.close();
    }
  });

  /** Backends a test made itself, closed (and recorded) after it like the harness's. */
  const track = (...backends: LiveBackend[]) => void open.push(...backends);

  return { harness, record, track, expectNoKeyCaptured };
}
