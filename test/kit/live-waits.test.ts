/**
 * What a person sees while the live client waits, and how long it waits for a server that is not there:
 * - an unreachable server (connection refused) is retried UNREACHABLE_MAX_RETRIES times, not the full
 *   retry budget (it took 11.8 s of silent retries before);
 * - on a terminal, without --verbose, each wait says what it waits for; piped, nothing is added;
 * - a 5xx carrying Retry-After is retried after that time instead of the back-off.
 * The client's sleep is injected: nothing here waits. The call is the test-only example domain's (test/kit/).
 */
import '../support/example-domain/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveBackend, DEFAULT_MAX_RETRIES, UNREACHABLE_MAX_RETRIES } from '../../src/backends/live.js';
import type { LiveFactoryOptions } from '../../src/context.js';
import { runCli } from '../support/cli.js';
import { startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';

let deadUrl: string;
let server: ApiServer;
beforeAll(async () => {
  const dead = await startApiServer();
  deadUrl = dead.url;
  await dead.close();
  server = await startApiServer({ faultRetryAfter: 2 });
});
afterAll(() => server.close());

function cli(url: string, stderrTty: boolean, waits: number[], args: string[] = []) {
  return runCli(['api', 'GET', '/v1/example/notes', '--source', 'live', ...args], {
    stderrTty,
    env: { PUBLICDATA_API_KEY: TEST_KEY, PUBLICDATA_BASE_URL: url, PUBLICDATA_CONFIG_DIR: '/nonexistent' },
    liveBackend: async (o: LiveFactoryOptions) =>
      createLiveBackend({ ...o, env: {}, random: () => 0.5, sleep: async (ms) => void waits.push(ms) }),
  });
}

describe('waiting for a server', () => {
  it('connection refused: a short bounded retry, each wait explained on a terminal, exit 6', async () => {
    expect(UNREACHABLE_MAX_RETRIES).toBeLessThan(DEFAULT_MAX_RETRIES);
    const waits: number[] = [];
    const r = await cli(deadUrl, true, waits);
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout).error.message).toMatch(/ECONNREFUSED.*after 3 attempt\(s\)/);
    expect(waits).toHaveLength(UNREACHABLE_MAX_RETRIES);
    // back-off with random 0.5: 0.375 s, then 0.75 s
    expect(waits).toEqual([375, 750]);
    const host = new URL(deadUrl).host;
    expect(r.stderr.split('\n').filter((l) => l.startsWith('…'))).toEqual([
      `… ${host}: connection refused (is the server running?): retry 1/2 in 0.38 s`,
      `… ${host}: connection refused (is the server running?): retry 2/2 in 0.75 s`,
    ]);
  });

  it('piped (stderr not a terminal) or --quiet: no wait lines', async () => {
    for (const [tty, args] of [
      [false, []],
      [true, ['--quiet']],
    ] as const) {
      const waits: number[] = [];
      const r = await cli(deadUrl, tty, waits, [...args]);
      expect(r.code).toBe(6);
      expect(waits).toHaveLength(2);
      expect(r.stderr).not.toContain('…');
    }
  });

  it('a 5xx with Retry-After is retried after that time, not the back-off', async () => {
    const waits: number[] = [];
    server.injectFaults(503);
    const r = await cli(server.url, true, waits);
    expect(r.code).toBe(0);
    // Retry-After: 2 plus jitter of random 0.5 × min(1 s, 100 ms) = 50 ms.
    expect(waits).toEqual([2050]);
    expect(r.stderr).toContain(`… HTTP 503 from ${new URL(server.url).host}: retry 1/5 in 2.05 s`);
  });
});
