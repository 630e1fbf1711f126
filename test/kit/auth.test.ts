/** auth login/status/logout and a malformed base URL, in process (the live call is the test-only example domain's: test/kit/). */
import '../support/example-domain/index.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeKey } from '../support/keys.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';

const KEY = fakeKey('live', '1234567890abcdef1234567890abcdef');

describe('auth', () => {
  it('login saves the key from stdin with mode 0600; status shows it masked with its file; logout removes it', async () => {
    const env = isolatedEnv();
    const login = await runCli(['auth', 'login'], { env, stdin: `${KEY}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/^Saved live key gd_live_…cdef to .*config\.json\n$/);
    const file = join(env.PUBLICDATA_CONFIG_DIR!, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const st = await runCli(['auth', 'status', '--offline'], { env });
    expect(json(st)).toEqual({ key: 'gd_live_…cdef', kind: 'live', from: file });
    expect((await runCli(['auth', 'logout'], { env })).stderr).toBe('Removed the saved key.\n');
    const none = await runCli(['auth', 'status', '--offline'], { env });
    expect([none.code, json(none).error.code]).toEqual([4, 'unauthorized']);
    for (const out of [login, st, none]) expect(out.stdout + out.stderr).not.toContain(KEY);
  });

  it('refuses a malformed key with a usage error that does not echo it', async () => {
    const bad = `gd_live_abc\u0001def`;
    const r = await runCli(['auth', 'login'], { stdin: bad });
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'usage_error', message: 'No key saved: the key contains whitespace or control characters.' });
    expect(r.stdout + r.stderr).not.toContain('abc');
  });

  it('status says where the key comes from: the environment wins', async () => {
    const r = await runCli(['auth', 'status', '--offline'], { env: isolatedEnv({ PUBLICDATA_API_KEY: KEY }) });
    expect(json(r)).toEqual({ key: 'gd_live_…cdef', kind: 'live', from: 'PUBLICDATA_API_KEY' });
  });
});

it('a malformed PUBLICDATA_BASE_URL is a usage error at once, not a retried network error', async () => {
  const t = Date.now();
  const r = await runCli(['example', 'notes', '--source', 'live'], { env: isolatedEnv({ PUBLICDATA_API_KEY: KEY, PUBLICDATA_BASE_URL: 'not-a-url' }) });
  expect([r.code, json(r).error.code]).toEqual([2, 'usage_error']);
  expect(json(r).error.message).toContain("got 'not-a-url'");
  expect(Date.now() - t).toBeLessThan(5000); // sanity: no retries with back-off
});
