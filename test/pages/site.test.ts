/**
 * The pages over plain HTTP (no browser): strict headers on every page answer, ETag and 304, gzip, the
 * renderer's bytes exactly the installed package's, nothing else served from disk, the postcode form's
 * redirect, and the API routes as they were (a key still needed, no page headers on them). The API route is
 * the test-only example domain's (test/support/example-domain/), so the pages need no real domain.
 */
// the test-only example domain first (its routes are this file's API: no real domain is needed)
import '../support/example-domain/index.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeKey } from '../support/keys.js';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';

const KEY = fakeKey('live', 'site0headers0test0key');
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async function get(s: TestServer, path: string, headers: Record<string, string> = {}) {
  const r = await fetch(new URL(path, s.url).href, { headers, redirect: 'manual' });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

describe('pages over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ keysText: keyLine(KEY) });
  });
  afterAll(async () => s?.close(1000));

  it('/, /docs and /area/… answer without a key, with the strict headers and an ETag; 304 on If-None-Match', async () => {
    for (const path of ['/', '/docs', '/area/LS8%203BS', '/assets/area.js', '/assets/swagger-ui.css']) {
      const r = await get(s, path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-security-policy')).toBe(CSP);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      const tag = r.headers.get('etag')!;
      expect(tag).toMatch(/^"[\w-]{27}"$/);
      const again = await get(s, path, { 'If-None-Match': tag });
      expect([again.status, again.body.length, again.headers.get('etag')]).toEqual([304, 0, tag]);
      expect(again.headers.get('content-security-policy')).toBe(CSP);
    }
    const page = await get(s, '/');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // no inline script or style: everything from /assets/ (so the CSP needs no 'unsafe-inline')
    const html = page.body.toString('utf8');
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]|<style|style="/);
    expect(html).toContain('<script src="/assets/swagger-ui-bundle.js" defer></script>');
    // the page tells the area script that this server wants a key
    expect((await get(s, '/area/LS8%203BS')).body.toString()).toContain('<meta name="publicdata-auth" content="bearer">');
  });

  it('serves swagger-ui-dist byte for byte from the installed package, gzipped when asked', async () => {
    const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const want = readFileSync(join(dir, 'swagger-ui-bundle.js'));
    const plain = await fetch(new URL('/assets/swagger-ui-bundle.js', s.url).href, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Buffer.from(await plain.arrayBuffer()).equals(want)).toBe(true);
    // node's fetch decodes gzip itself: ask with http to see the encoded bytes
    const { request } = await import('node:http');
    const gz = await new Promise<{ enc: string | undefined; body: Buffer }>((resolve, reject) => {
      request(new URL('/assets/swagger-ui-bundle.js', s.url), { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ enc: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
    expect(gz.enc).toBe('gzip');
    expect(gunzipSync(gz.body).equals(want)).toBe(true);
  });

  it('serves nothing else from disk; the postcode form without script redirects to /area/{postcode}', async () => {
    for (const path of ['/assets/package.json', '/assets/..%2Fsite.ts', '/assets/swagger-ui-bundle.js.map', '/assets/']) {
      const r = await get(s, path);
      expect([path, r.status]).toEqual([path, 404]);
    }
    const r = await get(s, '/area?postcode=LS8+3BS');
    expect([r.status, r.headers.get('location')]).toEqual([303, '/area/LS8%203BS']);
  });

  it('the API is unchanged: a key is still required, and its answers carry no page headers', async () => {
    const no = await get(s, '/v1/example/items');
    expect(no.status).toBe(401);
    const yes = await get(s, '/v1/example/items', { Authorization: `Bearer ${KEY}` });
    expect(yes.status).toBe(200);
    expect(yes.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(yes.headers.get('content-security-policy')).toBeNull();
    // a path that is neither a page nor a route: the API's 401 first in keyed mode, as before
    expect((await get(s, '/nothing-here')).status).toBe(401);
  });
});
