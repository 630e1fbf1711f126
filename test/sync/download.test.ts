import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, DownloadError, fetchText } from '../../sync/download.js';
import { parseYearsOption, resolveBaseUrl } from '../../sync/framework.js';
import type { UpstreamServer } from '../support/upstream-server.js';
import { fixture } from './ppd-fixture.js';
import { useUpstreamServer } from './upstream-harness.js';

const upstream = useUpstreamServer('pd-dl-');
let server: UpstreamServer;
let dir: string;
const body = readFileSync(fixture('pp-complete.csv'));
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

  it('fetchText reads index pages', async () => {
    server.set('/index/', '<a href="pp-complete.csv">x</a>', { contentType: 'text/html' });
    expect(await fetchText(`${server.url}/index/`)).toContain('pp-complete.csv');
  });
});

describe('options', () => {
  it('base URL: per-dataset env, then PUBLICDATA_UPSTREAM_BASE/<name>, then the publisher', () => {
    const mod = { name: 'price-paid' as const, defaultBaseUrl: 'http://pub.example/' };
    expect(resolveBaseUrl(mod, { PUBLICDATA_UPSTREAM_PRICE_PAID: 'http://a/x/', PUBLICDATA_UPSTREAM_BASE: 'http://b' })).toBe('http://a/x');
    expect(resolveBaseUrl(mod, { PUBLICDATA_UPSTREAM_BASE: 'http://b/' })).toBe('http://b/price-paid');
    expect(resolveBaseUrl(mod, {})).toBe('http://pub.example');
  });
  it('--years', () => {
    expect(parseYearsOption('2020-2025')).toEqual({ from: 2020, to: 2025 });
    expect(parseYearsOption('2024')).toEqual({ from: 2024, to: 2024 });
    expect(() => parseYearsOption('2025-2020')).toThrow();
    expect(() => parseYearsOption('abc')).toThrow();
  });
});

describe('price-paid index page', () => {
  it('finds the file links and a publication date', async () => {
    const { parseIndexPage } = await import('../../sync/price-paid.js');
    const html = `<meta name="govuk:updated-at" content="2026-10-28T09:30:00+00:00">
      <a href="http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-complete.csv">Single file</a>
      <a href="http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-monthly-update-new-version.csv">Monthly</a>
      <a href="/pp-2024.csv">2024</a><a href="other.csv">x</a>`;
    const p = parseIndexPage(html, 'https://www.gov.uk/government/statistical-data-sets/price-paid-data-downloads');
    expect(p.published).toBe('2026-10-28');
    expect([...p.links.entries()]).toEqual([
      ['pp-complete.csv', 'http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-complete.csv'],
      ['pp-monthly-update-new-version.csv', 'http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-monthly-update-new-version.csv'],
      ['pp-2024.csv', 'https://www.gov.uk/pp-2024.csv'],
    ]);
  });
});
