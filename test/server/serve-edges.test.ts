/**
 * serve's edges (issue 37): X-Content-Type-Options on every answer, Cache-Control private on keyed
 * answers, the Host header checked against the loopback addresses served (a DNS-rebinding guard), and
 * a 0777 config folder the CLI finds narrowed to 0700.
 */
import { request } from 'node:http';
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHostHeader } from '../../src/server/adapter.js';
import { resolveApiKeySource, saveApiKey } from '../../src/config.js';
import { fakeKey } from '../support/keys.js';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';

const KEY = fakeKey('live', 'edgecheck0123456789Z');

/** A GET with the Host header given (fetch will not send a Host of our choosing). */
function get(url: string, path: string, host: string, auth?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(u.port), path, headers: { host, ...(auth ? { authorization: `Bearer ${auth}` } : {}) } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let open: TestServer;
let keyed: TestServer;
beforeAll(async () => {
  open = await startTestServer();
  keyed = await startTestServer({ keysText: keyLine(KEY, { per_minute: 100, credits: 100 }) });
});
afterAll(async () => {
  await open.close();
  await keyed.close();
});

describe('Host header on a loopback server', () => {
  it('loopback names pass, others are 403 forbidden in the error format', async () => {
    const port = new URL(open.url).port;
    for (const h of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST`, `app.localhost:${port}`, `[::1]:${port}`, `127.1.2.3`]) {
      expect((await get(open.url, '/v1/example/summary', h)).status, h).toBe(200);
    }
    for (const h of [`evil.example:${port}`, 'rebind.attacker.net', `localhost.evil.example:${port}`, '10.0.0.1']) {
      const r = await get(open.url, '/v1/example/summary', h);
      expect(r.status, h).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe('forbidden');
    }
  });

  it('isLoopbackHostHeader', () => {
    expect(isLoopbackHostHeader('127.0.0.1:8080')).toBe(true);
    expect(isLoopbackHostHeader('[::1]:8080')).toBe(true);
    expect(isLoopbackHostHeader('localhost.')).toBe(true);
    expect(isLoopbackHostHeader('127.0.0.1.evil.example')).toBe(false);
    expect(isLoopbackHostHeader('[::2]')).toBe(false);
  });
});

describe('headers', () => {
  it('nosniff on every answer, success or error; no private in single-user mode', async () => {
    const host = new URL(open.url).host;
    for (const path of ['/v1/example/summary', '/v1/no-such-route', '/v1/openapi.json']) {
      const r = await get(open.url, path, host);
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
    }
    expect((await get(open.url, '/v1/example/summary', host)).headers['cache-control']).toBe('no-cache');
  });

  it('keyed answers are private: revalidated when 200, never stored when refused', async () => {
    const host = new URL(keyed.url).host;
    const ok = await get(keyed.url, '/v1/example/summary', host, KEY);
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('private, no-cache');
    const refused = await get(keyed.url, '/v1/example/summary', host);
    expect(refused.status).toBe(401);
    expect(refused.headers['cache-control']).toBe('private, no-store');
  });
});

describe.skipIf(process.platform === 'win32')('config folder', () => {
  it('a 0777 folder holding the key is narrowed to 0700 when the key is read or saved', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'pd-cfgdir-')), 'publicdata');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ api_key: KEY }), { mode: 0o600 });
    expect(resolveApiKeySource({ PUBLICDATA_CONFIG_DIR: dir })?.key).toBe(KEY);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o775);
    saveApiKey(KEY, { PUBLICDATA_CONFIG_DIR: dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
