/**
 * A key is masked in any encoding (issue 37, "Keys"): %-escaped (whole or in part, either case of hex,
 * escaped twice), as JSON \u escapes, in base64; the configured key of the CLI (held once resolved) in every
 * message, whatever its shape; serve's access log masks a key of its keys file wherever it sits in the
 * target, on every kind of answer (401, OPTIONS, 405, the OpenAPI document).
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetHeldKeys, holdKey, redact } from '../../src/config.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { keyLine, startTestServer } from '../support/serve.js';

/** No run of 6 characters of the secret survives in `text`. */
function expectNoRun(text: string, secret: string): void {
  for (let i = 0; i + 6 <= secret.length; i++) expect(text, `run ${secret.slice(i, i + 6)}`).not.toContain(secret.slice(i, i + 6));
}

// Hand-written encodings of one plain (non-gd_) key: 'plainSecret0123456789'.
const KEY = 'plainSecret0123456789';
const ENCODED = [
  // every character escaped, lower-case hex
  '%70%6c%61%69%6e%53%65%63%72%65%74%30%31%32%33%34%35%36%37%38%39',
  // upper-case hex, only some characters
  'pl%61in%53ecret01234%35678%39',
  // escaped twice (a proxy that escapes the % again)
  '%2570%256C%2561%2569%256E%2553ecret0123456789',
  // JSON \u escapes
  '\\u0070\\u006c\\u0061inSecret0123456789',
  // base64 and base64url of the key
  Buffer.from(KEY).toString('base64'),
];

afterEach(() => forgetHeldKeys());

describe('redact, any encoding', () => {
  it('masks the key given in every encoding', () => {
    for (const e of ENCODED) {
      const out = redact(`before ${e} after`, KEY);
      expect(out, e).toBe('before …6789 after');
    }
  });

  it('masks a held key without being given it, and nothing else', () => {
    holdKey(KEY);
    expect(redact(`x=${ENCODED[1]}&y=1`)).toBe('x=…6789&y=1');
    expect(redact('nothing secret here')).toBe('nothing secret here');
  });

  it('does not hold a malformed key (a short one would mask ordinary words)', () => {
    holdKey('abc');
    expect(redact('abc abc')).toBe('abc abc');
  });
});

describe('the CLI masks its configured key of any shape', () => {
  it('in the bad PUBLICDATA_BASE_URL message', async () => {
    const env = isolatedEnv({ PUBLICDATA_BASE_URL: `ftp://example.org/${KEY}/v1`, PUBLICDATA_API_KEY: KEY });
    const r = await runCli(['example', 'summary', '--source', 'live'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('…6789');
    expectNoRun(r.stdout + r.stderr, KEY);
  });
});

describe("serve's access log masks a keys-file key wherever it sits", () => {
  it('in a path or a parameter not named as a credential, %-escaped, on 401, OPTIONS, 405 and openapi.json answers', async () => {
    const esc = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const lines = await accessLogOf([KEY], [
      ['GET', `/v1/example/summary?q=${KEY}`], // 401: no Authorization header
      ['GET', `/v1/example/items/${esc}`], // 401, escaped in the path
      ['OPTIONS', `/v1/example/summary?note=${esc}`],
      ['DELETE', `/v1/example/summary?x=${KEY}`], // 405
      ['GET', `/v1/openapi.json?ref=${KEY}`],
    ]);
    for (const l of lines) {
      expectNoRun(l, KEY);
      expect(l).not.toContain(esc.slice(0, 18));
      expect(l).toContain('…6789');
    }
  });
});

/**
 * The access log lines of `calls` (method, target as sent: node:http sends it raw, where fetch would
 * normalise a '#') to a server whose keys file holds `keys`.
 */
async function accessLogOf(keys: readonly string[], calls: ReadonlyArray<readonly [string, string]>): Promise<string[]> {
  const s = await startTestServer({ keysText: keys.map((k) => keyLine(k, { per_minute: 100, credits: 1000 })).join('\n') });
  try {
    const url = new URL(s.url);
    for (const [method, path] of calls) {
      await new Promise<void>((resolve, reject) => {
        const r = request({ host: url.hostname, port: url.port, path, method }, (res) => res.resume().on('end', () => resolve()));
        r.on('error', reject);
        r.end();
      });
    }
    expect(s.accessLog).toHaveLength(calls.length);
    return [...s.accessLog];
  } finally {
    await s.close();
  }
}

describe("serve's access log masks a keys-file key given in base64", () => {
  it('base64 and base64url, padded, %-escaped padding, in the path and in a parameter', async () => {
    // a second key of 20 bytes: its base64 ends in one '=' and holds '-'/'_' in base64url ('>>' and '??' bytes)
    const KEY2 = 'odd>>key??0123456789';
    expect(Buffer.from(KEY2).toString('base64')).toBe('b2RkPj5rZXk/PzAxMjM0NTY3ODk=');
    expect(Buffer.from(KEY2).toString('base64url')).toBe('b2RkPj5rZXk_PzAxMjM0NTY3ODk');
    const notKey = Buffer.from('not a key of this server').toString('base64');
    const [l1, l2, l3, l4, l5] = await accessLogOf([KEY, KEY2], [
      ['GET', '/v1/openapi.json?x=cGxhaW5TZWNyZXQwMTIzNDU2Nzg5'], // base64 of KEY (the audit's call)
      ['GET', '/v1/example/items/cGxhaW5TZWNyZXQwMTIzNDU2Nzg5'],
      ['GET', '/v1/example/summary?t=b2RkPj5rZXk%2FPzAxMjM0NTY3ODk%3D'], // base64 of KEY2, '/' and '=' %-escaped
      ['OPTIONS', '/v1/example/summary?t=b2RkPj5rZXk_PzAxMjM0NTY3ODk'], // base64url of KEY2
      ['GET', `/v1/openapi.json?x=${notKey}`], // the base64 of something that is not a key: left as it is
    ]);
    expect(l1).toContain('/v1/openapi.json?x=…6789 ');
    expect(l2).toContain('/v1/example/items/…6789 ');
    for (const l of [l3, l4]) expect(l).toContain('/v1/example/summary?t=…6789');
    for (const l of [l1, l2, l3, l4]) {
      expect(l).not.toContain('cGxhaW5TZWNyZXQw');
      expect(l).not.toContain('b2RkPj5rZXk');
    }
    expect(l5).toContain(`?x=${notKey} `);
  });
});

describe("serve's access log masks a base64 key holding '+' and '/', a key in the fragment, a key holding the target's delimiters", () => {
  // one whose base64 holds '+' and '/', and one with / & = ; in it (a keys file allows them)
  const KEY3 = 'key~~~???~~~???0123456789';
  const KEY4 = 'abc/def&ghi=jkl;pqrstuvwxyz0123';
  const b64 = Buffer.from(KEY3).toString('base64');

  it('as base64 holds them: raw in a query value, with %2F for its slash, in a path; in the fragment', async () => {
    expect(b64).toBe('a2V5fn5+Pz8/fn5+Pz8/MDEyMzQ1Njc4OQ==');
    const lines = await accessLogOf([KEY3], [
      ['GET', `/v1/openapi.json?t=${b64}`], // '+' and '/' as they are: legal in a query value
      ['GET', `/v1/openapi.json?t=${b64.replace(/\//g, '%2F')}`], // the slash escaped, the plus not
      ['GET', `/v1/example/items/${b64.replace(/\//g, '%2F').replace(/=/g, '%3D')}`], // a path segment: '+' is itself there
      ['GET', `/v1/example/items/${b64}`], // its '/' splitting the path
      ['GET', `/v1/openapi.json#${b64}`],
      ['GET', `/v1/openapi.json?x=1#${b64}`],
    ]);
    for (const l of lines) {
      expect(l).not.toContain('a2V5fn5');
      expect(l).not.toContain('MDEyMzQ1');
      expect(l).toContain('…6789');
    }
  });

  it('a key holding / & = ; sent unescaped, in the path and the query', async () => {
    for (const l of await accessLogOf([KEY4], [['GET', `/v1/example/items/${KEY4}`], ['GET', `/v1/openapi.json?t=${KEY4}`]])) {
      expect(l).not.toContain('pqrstuvwxyz');
      expect(l).toContain('…0123');
    }
  });

  it('tries at most 512 forms of a target, however crafted', async () => {
    const { targetSegments } = await import('../../src/server/adapter.js');
    // 16 KB of %25-nested escapes and plus signs between delimiters: every run a candidate
    const crafted = `/v1/x?${Array.from({ length: 400 }, (_, i) => `a${i}=%2525%2B+%2541${'b'.repeat(20)}`).join('&')}`;
    expect(targetSegments(crafted).flat().length).toBe(512);
    // an ordinary target: its runs of 16+ characters, each as it is
    expect(targetSegments('/v1/tax/take-home/calculate')).toEqual([['v1/tax/take-home'], ['v1/tax/take-home/calculate'], ['tax/take-home/calculate'], ['take-home/calculate']]);
  });
});
