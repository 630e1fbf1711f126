/**
 * An error answer is printed without the user's key even when the server echoes it in its message, on
 * stdout (the envelope) and stderr (the one-line message); and the published service's 500 without a
 * `code` (GOVDATA-NOTES) prints its message, not "error undefined:". A bare node:http server answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeKey } from '../support/keys.js';
import { isolatedEnv, runCli } from '../support/cli.js';

const KEY = fakeKey('live', 'feedfacefeedfacefeed4242');
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const body = req.url?.startsWith('/v1/example/summary')
      ? { status: 401, json: { error: { code: 'unauthorized', message: `Invalid API key ${req.headers.authorization ?? ''}` } } }
      : req.url?.startsWith('/v1/example/items')
        // a server error quoting the key as sent, %-escaped and in base64
        ? { status: 500, json: { error: { code: 'internal_error', message: `Failed for ${token} (${encodeURIComponent(token).replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}; ${Buffer.from(token).toString('base64')})` } } }
        : { status: 500, json: { error: { message: 'An unexpected error occurred on our end.' } } };
    res.writeHead(body.status, { 'content-type': 'application/json', 'retry-after': '0' });
    res.end(JSON.stringify(body.json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('error answers from the API', () => {
  it.each(['json', 'table'])('a key echoed in a 401 message is masked (--format %s)', async (format) => {
    const r = await runCli(['example', 'summary', '--source', 'live', '--format', format], { env: isolatedEnv({ PUBLICDATA_BASE_URL: url, PUBLICDATA_API_KEY: KEY }) });
    expect(r.code).toBe(4);
    const tail = KEY.slice('gd_live_'.length);
    for (const out of [r.stdout, r.stderr]) for (let i = 0; i + 8 <= tail.length; i++) expect(out).not.toContain(tail.slice(i, i + 8));
    expect(r.stderr).toContain('error unauthorized: Invalid API key Bearer gd_live_…4242');
  });

  it.each(['json', 'table'])('a configured key of any shape, quoted by a server error as itself, URL-escaped and in base64, is masked (--format %s)', async (format) => {
    const plain = 'plainSecret0123456789';
    const r = await runCli(['example', 'items', '--source', 'live', '--format', format, '--max-wait', '0'], { env: isolatedEnv({ PUBLICDATA_BASE_URL: url, PUBLICDATA_API_KEY: plain }) });
    expect(r.code).toBe(6);
    const b64 = Buffer.from(plain).toString('base64');
    for (const out of [r.stdout, r.stderr]) {
      for (let i = 0; i + 6 <= plain.length; i++) expect(out).not.toContain(plain.slice(i, i + 6));
      expect(out).not.toContain('%70%6c%61');
      expect(out).not.toContain(b64.slice(0, 12));
    }
    expect(r.stderr).toContain('Failed for …6789 (…6789; …6789)');
  });

  it('a 500 without a code prints its message (exit 6), not "undefined"', async () => {
    const r = await runCli(['example', 'calculate', '50000', '--source', 'live', '--format', 'table', '--max-wait', '0'], { env: isolatedEnv({ PUBLICDATA_BASE_URL: url, PUBLICDATA_API_KEY: KEY }) });
    expect(r.code).toBe(6);
    expect(r.stderr).not.toContain('undefined');
    expect(r.stderr).toMatch(/error(: | \w+: )An unexpected error occurred on our end\./);
  });
});
