/**
 * The live client does not retry answers that say they are permanent (issue 21 item 13): against a real
 * `publicdata serve` with nothing synced, a 503 dataset_not_synced and a 501 not_available_offline are
 * each sent once (counted in serve's own access log), while a 503 server_error from a plain HTTP server
 * is still retried until it succeeds.
 *
 * The dataset_not_synced case takes the first registered GET route that needs a mirror dataset and no
 * input (with every real domain removed: the example domain's synced-dataset route).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveBackend } from '../../src/backends/live.js';
import { isPermanent } from '../../src/backends/live/retry.js';
import { ROUTES } from '../../src/registry.js';
import { startTestServer, type TestServer } from '../support/serve.js';
import { LIVE_KEY } from './harness.js';

let serve: TestServer;
beforeAll(async () => {
  serve = await startTestServer({ mirrorDir: mkdtempSync(join(tmpdir(), 'pd-empty-mirror-')) });
});
afterAll(async () => {
  await serve.close();
});

function backend(baseUrl: string, waits: number[]) {
  return createLiveBackend({ apiKey: LIVE_KEY, baseUrl, env: {}, sleep: async (ms) => void waits.push(ms), random: () => 0.5 });
}

describe('permanent answers are not retried', () => {
  it("serve's 503 dataset_not_synced: one request, the envelope as sent", async () => {
    const needs = ROUTES.find((r) => r.local?.datasets?.length && r.method === 'GET' && !r.path.includes('{') && !(r.query ?? []).some((q) => q.required) && !r.requireOneOf && !r.exactlyOneOf);
    expect(needs, 'a registered GET route that needs a synced dataset and no input').toBeDefined();
    const path = needs!.path;
    const waits: number[] = [];
    const b = backend(serve.url, waits);
    const before = serve.accessLog.length;
    const r = await b.call({ method: 'GET', path, query: {} });
    await b.close();
    expect(r.status).toBe(503);
    expect((r.envelope as { error: { code: string } }).error.code).toBe('dataset_not_synced');
    expect(r.attempts).toBe(1);
    expect(waits).toEqual([]);
    expect(serve.accessLog.slice(before).filter((l) => l.includes(` ${path} `))).toHaveLength(1);
  });

  it('a 501 (no offline handler) is not retried either', async () => {
    const offline = ROUTES.find((r) => !r.local && r.method === 'GET' && !r.path.includes('{') && !(r.query ?? []).some((q) => q.required));
    if (!offline) return void expect(isPermanent(501, undefined)).toBe(true); // every route has a local handler now
    const waits: number[] = [];
    const b = backend(serve.url, waits);
    const r = await b.call({ method: 'GET', path: offline.path, query: {} });
    await b.close();
    expect([r.status, r.attempts, waits.length]).toEqual([501, 1, 0]);
  });

  it('a transient 503 server_error is still retried (the same client, a server that recovers)', async () => {
    let n = 0;
    const s = createServer((req, res) => {
      n++;
      const body = n < 3 ? { error: { code: 'server_error', message: 'busy', documentation_url: 'x' } } : { data: [], meta: {} };
      res.writeHead(n < 3 ? 503 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const waits: number[] = [];
    const b = backend(`http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`, waits);
    const r = await b.call({ method: 'GET', path: '/v1/example/summary', query: {} });
    await b.close();
    await new Promise<void>((r) => s.close(() => r()));
    expect([r.status, r.attempts, n, waits.length]).toEqual([200, 3, 3, 2]);
  });

  it('which codes are permanent: every known code but the transient ones', () => {
    expect(isPermanent(503, 'dataset_not_synced')).toBe(true);
    expect(isPermanent(503, 'not_available_offline')).toBe(true);
    expect(isPermanent(500, 'invalid_parameter')).toBe(true);
    for (const c of ['server_error', 'internal_error', 'service_unavailable', 'timeout', 'network_error', undefined, 'some_new_code']) {
      expect(isPermanent(503, c)).toBe(false);
    }
  });
});
