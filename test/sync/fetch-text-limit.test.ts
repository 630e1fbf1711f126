/**
 * Index pages are read with a size limit and an answer that can never succeed is fetched once (issue 21
 * item 12): a page over the limit (declared by Content-Length, or streamed without one) fails at once
 * without a retry, as does a 404 or 403; a 503 is still retried. Against a real HTTP server on
 * 127.0.0.1 that counts the requests it gets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadError, fetchText } from '../../sync/download.js';

const LIMIT = 64 * 1024;
const hits = new Map<string, number>();
let server: Server;
let base = '';
let flaky = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/big-declared') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(LIMIT + 1) });
      res.end('x'.repeat(LIMIT + 1));
    } else if (path === '/big-streamed') {
      // No Content-Length: chunked, 4 KB at a time, far past the limit (the client must stop reading).
      res.writeHead(200, { 'content-type': 'text/html' });
      let sent = 0;
      const more = () => {
        while (sent < 50 * LIMIT) {
          sent += 4096;
          if (!res.write('y'.repeat(4096))) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    } else if (path === '/exact') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('z'.repeat(LIMIT));
    } else if (path === '/gone') res.writeHead(404).end('no');
    else if (path === '/forbidden') res.writeHead(403).end('no');
    else if (path === '/flaky') res.writeHead(++flaky < 3 ? 503 : 200).end(flaky < 3 ? 'busy' : 'ok');
    else res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const noWait = { sleep: async () => undefined, maxBytes: LIMIT };

describe('fetchText', () => {
  it('refuses a page over the limit declared by Content-Length, once, without reading it', async () => {
    const e = await fetchText(`${base}/big-declared`, noWait).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DownloadError);
    expect((e as DownloadError).message).toBe(`GET ${base}/big-declared: the answer is ${LIMIT + 1} bytes, more than the ${LIMIT} bytes an index page may have`);
    expect(hits.get('/big-declared')).toBe(1);
  });

  it('stops reading a page streamed past the limit with no Content-Length, once', async () => {
    const e = await fetchText(`${base}/big-streamed`, noWait).catch((x: unknown) => x);
    expect((e as DownloadError).message).toBe(`GET ${base}/big-streamed: the answer is over ${LIMIT} bytes, more than the ${LIMIT} bytes an index page may have`);
    expect((e as DownloadError).retryable).toBe(false);
    expect(hits.get('/big-streamed')).toBe(1);
  });

  it('reads a page of exactly the limit', async () => {
    expect(await fetchText(`${base}/exact`, noWait)).toBe('z'.repeat(LIMIT));
  });

  it('fetches a 404 or 403 once; a 503 is retried until it answers', async () => {
    for (const p of ['/gone', '/forbidden']) {
      await expect(fetchText(`${base}${p}`, noWait)).rejects.toThrow(/HTTP 40[34]/);
      expect(hits.get(p), p).toBe(1);
    }
    expect(await fetchText(`${base}/flaky`, noWait)).toBe('ok');
    expect(hits.get('/flaky')).toBe(3);
  });
});
