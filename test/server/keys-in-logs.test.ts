/**
 * No key reaches a log or an error (issue 21 item 10): serve's access log masks the value of every
 * credential-named query parameter whatever its shape (a key without the gd_ prefix, a gd_ key holding
 * `. ~ + / =`, %-escapes, a name in capitals), and an invalid PUBLICDATA_BASE_URL is echoed with its
 * userinfo and query redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact, redactUrl } from '../../src/config.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';
import { fakeKey } from '../support/keys.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const SECRETS = ['plainsecret0123456789', 'abc.def~ghi+jkl/mno=pq', 'Zm9vYmFy+/=='];

describe('access log', () => {
  it('masks key and api_key query values whatever their shape', async () => {
    const targets = [
      `/v1/example/summary?key=${SECRETS[0]}`,
      `/v1/example/summary?api_key=gd_live_${SECRETS[1]}`,
      `/v1/example/items?page=1&API_KEY=${encodeURIComponent(SECRETS[2]!)}&x=1`,
      `/v1/example/summary?Key=gd_test_${encodeURIComponent(SECRETS[1]!)}`,
      `/v1/example/summary?access_token=${SECRETS[0]}#frag`,
      `/v1/example/summary?%6Bey=${SECRETS[0]}`,
    ];
    const before = s.accessLog.length;
    for (const t of targets) await (await fetch(`${s.url.replace(/\/v1$/, '')}${t}`)).text();
    const lines = s.accessLog.slice(before);
    expect(lines).toHaveLength(targets.length);
    for (const l of lines) {
      for (const secret of SECRETS) {
        expect(l).not.toContain(secret);
        expect(l).not.toContain(encodeURIComponent(secret));
        // no run of 6+ characters of a secret survives either
        for (let i = 0; i + 6 <= secret.length; i++) expect(l).not.toContain(secret.slice(i, i + 6));
      }
      expect(l).toMatch(/=<redacted>/);
    }
    // Other parameters are left as they were.
    expect(lines[2]).toContain('?page=1&API_KEY=<redacted>&x=1');
  });

  it('redact masks a whole gd_ token, whatever characters it holds', () => {
    for (const tail of ['abc.def~ghi+jkl/mno=pq0000', 'abc%2Bdef%2Fghi0000xyz']) {
      const out = redact(`sent gd_live_${tail} here`);
      expect(out).toBe(`sent gd_live_…${tail.slice(-4)} here`);
    }
    expect(redactUrl('https://user:hunter2@api.example.org/v1?q=1&token=abc')).toBe('https://<redacted>@api.example.org/v1?q=1&token=<redacted>');
  });
});

describe('access log: a key joined to other characters', () => {
  it('is masked in a query value, and the request\'s own key anywhere in the target', async () => {
    const key = fakeKey('live', '0123456789abcdefAB12');
    const own = await startTestServer({ keysText: keyLine(key, { per_minute: 100, credits: 1000 }) });
    try {
      const base = own.url.replace(/\/v1$/, '');
      const targets = [`/v1/example/summary?q=x${key}`, `/v1/example/items/sekrit_path_${key}`];
      for (const t of targets) await (await fetch(`${base}${t}`, { headers: { authorization: `Bearer ${key}` } })).text();
      expect(own.accessLog).toHaveLength(targets.length);
      const tail = key.replace('gd_live_', '');
      for (const l of own.accessLog) {
        for (let i = 0; i + 8 <= tail.length; i++) expect(l).not.toContain(tail.slice(i, i + 8));
        expect(l).toContain('gd_live_…AB12');
      }
    } finally {
      await own.close();
    }
  });

  it('a token that is not shaped like a key (Bearer 1) does not mask the rest of the line', async () => {
    const before = s.accessLog.length;
    await (await fetch(`${s.url.replace(/\/v1$/, '')}/v1/example/items?page=1`, { headers: { authorization: 'Bearer 1' } })).text();
    const line = s.accessLog[before]!;
    expect(line).toMatch(/^2026-11-21T12:00:00\.000Z GET \/v1\/example\/items\?page=1 \d{3} /);
  });

  it('redact masks a gd_ token preceded by a letter or an underscore', () => {
    const live = fakeKey('live', 'abcdefghijklmnop1234');
    const test = fakeKey('test', 'abcdefghijklmnop5678');
    expect(redact(`q=x${live}`)).toBe('q=xgd_live_…1234');
    expect(redact(`/p/sekrit_path_${test}`)).toBe('/p/sekrit_path_gd_test_…5678');
  });
});

describe('PUBLICDATA_BASE_URL', () => {
  it('an invalid one is echoed with credentials and query redacted', async () => {
    for (const base of ['https://user:hunter2secret@api.example.org:99999/v1?key=sekrit123', 'ftp://hunter2secret@example.org/v1?api_key=sekrit123', 'not a url?key=sekrit123']) {
      const env = isolatedEnv({ PUBLICDATA_BASE_URL: base, PUBLICDATA_API_KEY: fakeKey('live', '0123456789abcdef0123') });
      const r = await runCli(['example', 'summary', '--source', 'live'], { env });
      expect(r.code, base).toBe(2);
      const msg = json(r).error.message as string;
      expect(msg).toMatch(/^PUBLICDATA_BASE_URL must be an http\(s\) URL/);
      for (const out of [r.stdout, r.stderr]) {
        expect(out).not.toContain('hunter2');
        expect(out).not.toContain('sekrit');
      }
    }
  });
});
