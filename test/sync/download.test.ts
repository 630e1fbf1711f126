import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, DownloadError, fetchText } from '../../sync/download.js';
import { parseYearsOption } from '../../commands/sync-options.js';
import { resolveBaseUrl } from '../../sync/framework.js';
import type { UpstreamServer } from '../support/upstream-server.js';
import { recordsCsv } from '../support/example-domain/records-gen.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const upstream = useUpstreamServer('pd-dl-');
let server: UpstreamServer;
let dir: string;
/** An invented records file (the example datasets' format, test/support/example-domain/records-gen.ts): 1,400 records, 54 KB. */
const body = Buffer.from(recordsCsv(1, 1400));
const sha = createHash('sha256').update(body).digest('hex');

beforeAll(() => {
  server = upstream.server;
  dir = mkdtempSync(join(tmpdir(), 'pd-dl-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('download', () => {
  it('streams to .part, renames, reports progress and sha256', async () => {
    server.set('/f.csv', body, { lastModified: 'Tue, 27 Oct 2026 09:00:00 GMT' });
    const seen: number[] = [];
    const r = await download({ url: `${server.url}/f.csv`, dest: join(dir, 'a', 'f.csv'), onProgress: (p) => seen.push(p.bytes), progressIntervalMs: 0 });
    expect(r).toMatchObject({ bytes: body.length, sha256: sha, resumed: false, attempts: 1, lastModified: '2026-10-27' });
    expect(readFileSync(join(dir, 'a', 'f.csv'))).toEqual(body);
    expect(existsSync(join(dir, 'a', 'f.csv.part'))).toBe(false);
    expect(seen[seen.length - 1]).toBe(body.length);
  });

  it('resumes a .part left by an earlier process (same URL and validator)', async () => {
    server.set('/g.csv', body);
    const dest = join(dir, 'b', 'g.csv');
    mkdirSync(join(dir, 'b'), { recursive: true });
    // what a killed process leaves: the first 10,000 bytes and the meta file with the ETag
    const first = await fetch(`${server.url}/g.csv`);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    writeFileSync(`${dest}.part`, body.subarray(0, 10_000));
    writeFileSync(`${dest}.part.json`, JSON.stringify({ url: `${server.url}/g.csv`, etag }));
    const n = server.requests.length;
    const r = await download({ url: `${server.url}/g.csv`, dest });
    expect(r).toMatchObject({ sha256: sha, resumed: true, bytes: body.length });
    expect(server.requests.slice(n)).toEqual([{ path: '/g.csv', range: 'bytes=10000-', ifRange: etag, status: 206 }]);
  });

  it('restarts from 0 when the server ignores Range', async () => {
    server.set('/h.csv', body, { fault: { dropAfterBytes: 5000, times: 1, noRange: true } });
    const r0 = server.requests.length;
    const r = await download({ url: `${server.url}/h.csv`, dest: join(dir, 'c', 'h.csv'), backoffMs: 5 });
    expect(r.sha256).toBe(sha);
    const reqs = server.requests.slice(r0);
    expect(reqs.map((q) => q.status)).toEqual([200, 200]);
  });

  it('a checksum mismatch fails without retrying and removes the partial file', async () => {
    server.set('/i.csv', body);
    const dest = join(dir, 'd', 'i.csv');
    await expect(download({ url: `${server.url}/i.csv`, dest, expectedSha256: '0'.repeat(64) })).rejects.toBeInstanceOf(DownloadError);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it('retries 5xx, gives up after the retry budget; 404 is not retried', async () => {
    server.set('/j.csv', body, { fault: { status: 503, times: 2 } });
    const r = await download({ url: `${server.url}/j.csv`, dest: join(dir, 'e', 'j.csv'), backoffMs: 5 });
    expect(r.attempts).toBe(3);
    const n = server.requests.length;
    await expect(download({ url: `${server.url}/missing.csv`, dest: join(dir, 'e', 'm.csv'), backoffMs: 5 })).rejects.toThrow(/HTTP 404/);
    expect(server.requests.length - n).toBe(1);
  });

  // nodejs/undici#5360: undici 7 died with an uncatchable `assert(!this.paused)` when the server ended the
  // connection while the body was under back-pressure. These servers do exactly that: the body (163 KB, more
  // than a stream's 64 KB buffer, less than the socket buffers) and the FIN arrive while the consumer,
  // capped at 1 MB/s, is still on its first chunk (this crashed every time with the undici download).
  const mid = Buffer.concat([body, body, body]);
  const midSha = createHash('sha256').update(mid).digest('hex');
  const slow = 1024 * 1024;
  const big = Buffer.concat(Array.from({ length: 80 }, () => body)); // ~4 MB
  const bigSha = createHash('sha256').update(big).digest('hex');

  it('a server that closes the connection after the body (HTTP/1.0 style, no Content-Length), read by a slow consumer', async () => {
    server.set('/close-nolen.csv', mid, { fault: { closeAfterBody: true, noLength: true } });
    const dest = join(dir, 'k', 'close-nolen.csv');
    const r = await download({ url: `${server.url}/close-nolen.csv`, dest, maxBytesPerSecond: slow });
    expect(r).toMatchObject({ bytes: mid.length, sha256: midSha, attempts: 1 });
    expect(readFileSync(dest).equals(mid)).toBe(true);
  });

  it('a server that sends Content-Length and Connection: close (python -m http.server), read by a slow consumer', async () => {
    server.set('/close-len.csv', mid, { fault: { closeAfterBody: true } });
    const r = await download({ url: `${server.url}/close-len.csv`, dest: join(dir, 'k', 'close-len.csv'), maxBytesPerSecond: slow, expectedSha256: midSha });
    expect(r).toMatchObject({ bytes: mid.length, sha256: midSha, attempts: 1 });
  });

  it('resumes a large .part from a server that closes after an unframed 206 body', async () => {
    server.set('/close-resume.csv', big, { fault: { closeAfterBody: true, noLength: true } });
    const dest = join(dir, 'k', 'close-resume.csv');
    const url = `${server.url}/close-resume.csv`;
    const have = big.length - mid.length;
    writeFileSync(`${dest}.part`, big.subarray(0, have));
    writeFileSync(`${dest}.part.json`, JSON.stringify({ url }));
    const r = await download({ url, dest, maxBytesPerSecond: slow });
    expect(r).toMatchObject({ bytes: big.length, sha256: bigSha, resumed: true });
    expect(server.requests.filter((q) => q.path === '/close-resume.csv')).toEqual([{ path: '/close-resume.csv', range: `bytes=${have}-`, status: 206 }]);
  });

  it('a connection dropped mid-body (several times) is resumed to the complete file; the checksum matches', async () => {
    server.set('/drop.csv', big, { fault: { dropAfterBytes: 1_500_000, times: 2 } });
    const n = server.requests.length;
    const waits: number[] = [];
    const r = await download({
      url: `${server.url}/drop.csv`, dest: join(dir, 'l', 'drop.csv'), expectedSha256: bigSha,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(r).toMatchObject({ bytes: big.length, sha256: bigSha, resumed: true, attempts: 3 });
    expect(readFileSync(join(dir, 'l', 'drop.csv')).equals(big)).toBe(true);
    const reqs = server.requests.slice(n);
    // each retry asks for the bytes after what it has (at most the 1.5 MB each cut connection sent); the
    // third answer completes the file
    expect(reqs.map((q) => q.status)).toEqual([200, 206, 206]);
    const [from1, from2] = reqs.slice(1).map((q) => Number(/^bytes=(\d+)-$/.exec(q.range!)![1]));
    expect(from1).toBeGreaterThan(0);
    expect(from1).toBeLessThanOrEqual(1_500_000);
    expect(from2).toBeGreaterThan(from1!);
    expect(from2! - from1!).toBeLessThanOrEqual(1_500_000);
    expect(waits).toHaveLength(2);
  });

  it('follows redirects', async () => {
    server.set('/moved.csv', body, { fault: { redirect: '/f.csv' } });
    server.set('/f.csv', body);
    const r = await download({ url: `${server.url}/moved.csv`, dest: join(dir, 'm', 'moved.csv') });
    expect(r.sha256).toBe(sha);
  });

  it("a module's own request headers go to its publisher only: kept on a same-origin redirect, dropped on a redirect to another origin", async () => {
    const { createServer } = await import('node:http');
    const seen: Array<{ at: string; path: string; headers: Record<string, unknown> }> = [];
    const listen = async (name: string, handle: (path: string, res: import('node:http').ServerResponse) => void) => {
      const srv = createServer((req, res) => {
        seen.push({ at: name, path: req.url ?? '', headers: { ...req.headers } });
        handle(req.url ?? '', res);
      });
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
      return { srv, url: `http://127.0.0.1:${(srv.address() as { port: number }).port}` };
    };
    const other = await listen('other', (_p, res) => res.end(body));
    const publisher = await listen('publisher', (path, res) => {
      // /a -> /b on the same origin, /b -> the other origin (another port is another origin).
      res.writeHead(302, { location: path === '/a' ? '/b' : `${other.url}/file.csv` }).end();
    });
    try {
      const r = await download({ url: `${publisher.url}/a`, dest: join(dir, 'x', 'file.csv'), headers: { 'x-api-version': '2', authorization: 'Bearer not-a-real-key' } });
      expect(r.sha256).toBe(sha);
      expect(seen.map((x) => [x.at, x.path, x.headers['x-api-version'], x.headers.authorization])).toEqual([
        ['publisher', '/a', '2', 'Bearer not-a-real-key'],
        ['publisher', '/b', '2', 'Bearer not-a-real-key'],
        ['other', '/file.csv', undefined, undefined],
      ]);
      // What does cross: the transfer's own headers.
      expect(seen[2]!.headers['accept-encoding']).toBe('identity');
    } finally {
      publisher.srv.close();
      other.srv.close();
    }
  });

  it('a refused connection fails fast: 2 retries, each announced with what it waits for', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r())); // nothing listens there now
    const waits: number[] = [];
    const notices: string[] = [];
    const err = await download({
      url: `http://127.0.0.1:${port}/records-complete.csv`, dest: join(dir, 'n', 'x.csv'),
      sleep: async (ms) => void waits.push(ms),
      onRetry: (x) => notices.push(`${x.attempt}/${x.attempts} ${x.reason}`),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).message).toBe(`cannot reach http://127.0.0.1:${port}/records-complete.csv (3 attempts): connection refused by 127.0.0.1:${port}`);
    expect(notices).toEqual([`2/3 connection refused by 127.0.0.1:${port}`, `3/3 connection refused by 127.0.0.1:${port}`]);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(2000); // 500 ms then 1 s, with jitter
    await expect(fetchText(`http://127.0.0.1:${port}/`, { sleep: async () => undefined })).rejects.toThrow(/connection refused/);
  });

  it('fetchText reads index pages', async () => {
    server.set('/index/', '<a href="pp-complete.csv">x</a>', { contentType: 'text/html' });
    expect(await fetchText(`${server.url}/index/`)).toContain('pp-complete.csv');
  });
});

describe('options', () => {
  it('base URL: per-dataset env, then PUBLICDATA_UPSTREAM_BASE/<name>, then the publisher', () => {
    const mod = { name: 'example-records' as const, defaultBaseUrl: 'http://pub.example/' };
    expect(resolveBaseUrl(mod, { PUBLICDATA_UPSTREAM_EXAMPLE_RECORDS: 'http://a/x/', PUBLICDATA_UPSTREAM_BASE: 'http://b' })).toBe('http://a/x');
    expect(resolveBaseUrl(mod, { PUBLICDATA_UPSTREAM_BASE: 'http://b/' })).toBe('http://b/example-records');
    expect(resolveBaseUrl(mod, {})).toBe('http://pub.example');
  });
  it('--years', () => {
    expect(parseYearsOption('2020-2025')).toEqual({ from: 2020, to: 2025 });
    expect(parseYearsOption('2024')).toEqual({ from: 2024, to: 2024 });
    expect(() => parseYearsOption('2025-2020')).toThrow();
    expect(() => parseYearsOption('abc')).toThrow();
  });
});
// the price-paid index page parser (a domain's own): test/property/index-page.test.ts
