/**
 * Moved from test/e2e/bin.test.ts (issue 33): the built `bin/publicdata.cjs` (which holds only the real
 * domains, never the test-only example) calling the calendar live against the real test API server on
 * 127.0.0.1: exit codes for auth, credits and server failures, retries, --verbose with the key redacted.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RETRIES } from '../../src/backends/live.js';
import { TEST_KEY } from '../support/api-server.js';
import { binRunner, useLiveApi } from '../support/e2e.js';

const captured: string[] = [];
const pd = binRunner(captured);

const api = useLiveApi();
const liveEnv = api.liveEnv;

describe('live against the test API server: calendar', () => {
  it('maps auth, credits and server failures to their exit codes', async () => {
    const bad = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv('gd_test_0000000000000000000000000000dead'));
    expect([bad.exitCode, JSON.parse(bad.stdout).error.code]).toEqual([4, 'unauthorized']);

    // (--max-credits on a POST: test/tax/e2e-bin.test.ts)
    api.server().setCredits(0);
    const broke = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv());
    expect([broke.exitCode, JSON.parse(broke.stdout).error.code]).toEqual([3, 'insufficient_credits']);
    api.server().setCredits(1_000_000);

    // One attempt plus DEFAULT_MAX_RETRIES (5) retries, every one a 500.
    api.server().injectFaults(500, 500, 500, 500, 500, 500);
    const down = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv());
    expect(down.exitCode).toBe(6);
    expect(JSON.parse(down.stdout).error.message).toBeTruthy();
  });

  it('retries a 5xx and succeeds when the server recovers', async () => {
    expect(DEFAULT_MAX_RETRIES).toBe(5);
    api.server().injectFaults('reset', 503);
    const r = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv());
    expect([r.exitCode, JSON.parse(r.stdout).data.regions.length]).toEqual([0, 3]);
  });

  it('--verbose logs requests to stderr with the key redacted', async () => {
    const r = await pd(['calendar', 'regions', '--source', 'live', '--verbose'], liveEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/GET .*\/v1\/calendar\/regions/);
    expect(r.stderr).not.toContain(TEST_KEY);
  });
});

describe('secrets', () => {
  it('the API key never appears in any captured output', () => {
    expect(captured.length).toBeGreaterThan(6);
    for (const text of captured) expect(text).not.toContain(TEST_KEY);
    for (const text of captured) expect(text).not.toContain(TEST_KEY.slice(8));
  });
});
