/**
 * Streaming downloads into the cache dir:
 *  - the body streams to `<dest>.part` (never held in memory), sha256 computed while streaming;
 *  - a dropped connection is retried with backoff and resumed with `Range: bytes=<have>-` (and
 *    `If-Range` with the first response's ETag/Last-Modified, so a changed file restarts from 0);
 *  - a `.part` left by a killed process is resumed by the next run when `<dest>.part.json` says it is
 *    the same URL (and same validators);
 *  - on success `.part` is renamed to `dest`; a checksum mismatch (when one was expected) deletes it.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Dispatcher } from 'undici';

export interface DownloadProgress {
  /** Bytes of the file on disk so far (including resumed bytes). */
  bytes: number;
  /** Total size when known (Content-Length / Content-Range). */
  total?: number;
  /** Bytes per second over this attempt. */
  rate: number;
}

export interface DownloadOptions {
  url: string;
  /** Final path of the file. */
  dest: string;
  expectedSha256?: string;
  expectedSize?: number;
  /** Attempts after the first (default 5). */
  retries?: number;
  /** First backoff delay in ms, doubled each retry with jitter (default 500). */
  backoffMs?: number;
  /** Socket idle timeout in ms (default 60 s). */
  idleTimeoutMs?: number;
  onProgress?: (p: DownloadProgress) => void;
  /** Min ms between progress callbacks (default 100). */
  progressIntervalMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  /** True when some bytes came from an earlier attempt or process. */
  resumed: boolean;
  attempts: number;
  /** The server's Last-Modified (as YYYY-MM-DD) when it sent one: a fallback publication date. */
  lastModified?: string;
}

export class DownloadError extends Error {
  constructor(message: string, readonly url: string, readonly retryable: boolean) {
    super(message);
    this.name = 'DownloadError';
  }
}

interface PartMeta {
  url: string;
  etag?: string;
  lastModified?: string;
}

let dispatcherPromise: Promise<Dispatcher> | undefined;
/** One keep-alive agent with redirects followed, created lazily (undici is not loaded until needed). */
export function httpDispatcher(): Promise<Dispatcher> {
  return (dispatcherPromise ??= import('undici').then((u) =>
    new u.Agent({ keepAliveTimeout: 10_000, connections: 4 }).compose(u.interceptors.redirect({ maxRedirections: 5 })),
  ));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason ?? new Error('aborted'));
    }, { once: true });
  });

function backoff(base: number, attempt: number): number {
  return Math.min(30_000, base * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
}

async function hashExisting(path: string, hash: Hash): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    createReadStream(path)
      .on('data', (c) => hash.update(c))
      .on('error', reject)
      .on('end', () => resolve());
  });
}

function readPartMeta(path: string): PartMeta | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PartMeta;
  } catch {
    return undefined;
  }
}

/** sha256 of a local file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  await hashExisting(path, h);
  return h.digest('hex');
}

/** GET a URL as text, with retries on network errors and 5xx. */
export async function fetchText(url: string, opts: { retries?: number; backoffMs?: number; signal?: AbortSignal } = {}): Promise<string> {
  const { request } = await import('undici');
  const dispatcher = await httpDispatcher();
  const retries = opts.retries ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await request(url, { method: 'GET', dispatcher, signal: opts.signal, headersTimeout: 30_000, bodyTimeout: 60_000 });
      const text = await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) return text;
      const err = new DownloadError(`GET ${url}: HTTP ${res.statusCode}`, url, res.statusCode >= 500 || res.statusCode === 429);
      throw err;
    } catch (e) {
      const retryable = e instanceof DownloadError ? e.retryable : true;
      if (!retryable || attempt > retries || opts.signal?.aborted) throw e;
      await sleep(backoff(opts.backoffMs ?? 500, attempt), opts.signal);
    }
  }
}

/** Download `url` to `dest` with resume, retries, checksum and progress. */
export async function download(opts: DownloadOptions): Promise<DownloadResult> {
  const { request } = await import('undici');
  const dispatcher = await httpDispatcher();
  const part = `${opts.dest}.part`;
  const metaPath = `${part}.json`;
  mkdirSync(dirname(opts.dest), { recursive: true });

  let meta = readPartMeta(metaPath);
  if (!meta || meta.url !== opts.url || !existsSync(part)) {
    rmSync(part, { force: true });
    meta = { url: opts.url };
    writeFileSync(metaPath, JSON.stringify(meta));
  }

  const retries = opts.retries ?? 5;
  const interval = opts.progressIntervalMs ?? 100;
  let resumedAny = false;
  let lastError: unknown;

  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
    let have = existsSync(part) ? statSync(part).size : 0;
    const headers: Record<string, string> = { 'accept-encoding': 'identity', ...opts.headers };
    if (have > 0) {
      headers.range = `bytes=${have}-`;
      const validator = meta.etag && !meta.etag.startsWith('W/') ? meta.etag : meta.lastModified;
      if (validator) headers['if-range'] = validator;
    }
    try {
      const res = await request(opts.url, {
        method: 'GET',
        headers,
        dispatcher,
        signal: opts.signal,
        headersTimeout: opts.idleTimeoutMs ?? 60_000,
        bodyTimeout: opts.idleTimeoutMs ?? 60_000,
      });
      const status = res.statusCode;
      let total: number | undefined;
      if (status === 416 && have > 0) {
        // Range not satisfiable: our .part is as long as (or longer than) the file. Start again.
        await res.body.dump();
        rmSync(part, { force: true });
        continue;
      }
      if (status === 206) {
        const cr = String(res.headers['content-range'] ?? '');
        const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(cr);
        if (!m || Number(m[1]) !== have) {
          await res.body.dump();
          rmSync(part, { force: true });
          throw new DownloadError(`unexpected Content-Range '${cr}' for a resume at ${have}`, opts.url, true);
        }
        if (m[3] !== '*') total = Number(m[3]);
        resumedAny = true;
      } else if (status === 200) {
        if (have > 0) {
          rmSync(part, { force: true }); // server ignored the Range (or the file changed): restart
          have = 0;
        }
        const len = Number(res.headers['content-length']);
        if (Number.isFinite(len) && len >= 0) total = len;
        const etag = res.headers.etag as string | undefined;
        const lastModified = res.headers['last-modified'] as string | undefined;
        meta = { url: opts.url, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
        writeFileSync(metaPath, JSON.stringify(meta));
      } else {
        await res.body.dump();
        throw new DownloadError(`GET ${opts.url}: HTTP ${status}`, opts.url, status >= 500 || status === 429 || status === 408);
      }
      total ??= opts.expectedSize;

      // Stream the body to .part (append on resume), hashing as it goes (a resumed .part is hashed first).
      const hash = createHash('sha256');
      if (have > 0) await hashExisting(part, hash);
      const out = createWriteStream(part, { flags: have > 0 ? 'a' : 'w' });
      const started = Date.now();
      let bytes = have;
      let lastTick = 0;
      try {
        for await (const chunk of res.body) {
          const buf = chunk as Buffer;
          hash.update(buf);
          if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
          bytes += buf.length;
          const now = Date.now();
          if (opts.onProgress && now - lastTick >= interval) {
            lastTick = now;
            opts.onProgress({ bytes, total, rate: (bytes - have) / Math.max(0.001, (now - started) / 1000) });
          }
        }
      } finally {
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      }
      if (total !== undefined && bytes < total) {
        throw new DownloadError(`connection closed after ${bytes} of ${total} bytes`, opts.url, true);
      }
      opts.onProgress?.({ bytes, total, rate: (bytes - have) / Math.max(0.001, (Date.now() - started) / 1000) });

      const sha256 = hash.digest('hex');
      if (opts.expectedSha256 && sha256 !== opts.expectedSha256.toLowerCase()) {
        rmSync(part, { force: true });
        rmSync(metaPath, { force: true });
        throw new DownloadError(`checksum mismatch for ${opts.url}: expected ${opts.expectedSha256}, got ${sha256}`, opts.url, false);
      }
      if (opts.expectedSize !== undefined && bytes !== opts.expectedSize) {
        rmSync(part, { force: true });
        rmSync(metaPath, { force: true });
        throw new DownloadError(`size mismatch for ${opts.url}: expected ${opts.expectedSize} bytes, got ${bytes}`, opts.url, false);
      }
      await rename(part, opts.dest);
      rmSync(metaPath, { force: true });
      const lm = meta.lastModified ? new Date(meta.lastModified) : undefined;
      const lastModified = lm && !Number.isNaN(lm.getTime()) ? lm.toISOString().slice(0, 10) : undefined;
      return { path: opts.dest, bytes, sha256, resumed: resumedAny, attempts: attempt, ...(lastModified ? { lastModified } : {}) };
    } catch (e) {
      lastError = e;
      if (opts.signal?.aborted) throw e;
      if (e instanceof DownloadError && !e.retryable) throw e;
      if (attempt > retries) break;
      await sleep(backoff(opts.backoffMs ?? 500, attempt), opts.signal);
    }
  }
  const msg = lastError instanceof Error ? lastError.message : String(lastError);
  throw new DownloadError(`download of ${opts.url} failed after ${retries + 1} attempts: ${msg}`, opts.url, true);
}
