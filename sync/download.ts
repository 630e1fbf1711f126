/**
 * Streaming downloads into the cache dir, over Node's own `http`/`https` (not undici: see docs/downloads.md;
 * undici 7 crashes the process when a server ends the connection while the body is under back-pressure):
 *  - the body streams to `<dest>.part` (never held in memory), sha256 computed while streaming;
 *  - a dropped connection is retried with backoff and resumed with `Range: bytes=<have>-` (and
 *    `If-Range` with the first response's ETag/Last-Modified, so a changed file restarts from 0);
 *  - a `.part` left by a killed process is resumed by the next run when `<dest>.part.json` says it is
 *    the same URL (and same validators);
 *  - on success `.part` is renamed to `dest`; a checksum mismatch (when one was expected) deletes it;
 *  - a host that cannot be reached at all (connection refused, DNS failure, no route) is retried only a
 *    couple of times, so a sync with no network fails in seconds, saying what it waits for.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { dirname } from 'node:path';
import { VERSION } from '../src/version.js';

export interface DownloadProgress {
  /** Bytes of the file on disk so far (including resumed bytes). */
  bytes: number;
  /** Total size when known (Content-Length / Content-Range). */
  total?: number;
  /** Bytes per second over this attempt. */
  rate: number;
}

/** Told before each wait between attempts: what failed and how long until the next try. */
export interface RetryNotice {
  url: string;
  /** The attempt about to be made (2 = the first retry). */
  attempt: number;
  /** The most attempts this kind of failure gets. */
  attempts: number;
  delayMs: number;
  /** What went wrong, e.g. 'connection refused by 127.0.0.1:8765'. */
  reason: string;
}

export interface RetryOptions {
  /** Attempts after the first for transient failures (dropped connection, 5xx, 429, timeouts; default 5). */
  retries?: number;
  /**
   * Attempts after the first when the host cannot be reached at all (refused, DNS, unreachable; default 2,
   * never more than `retries`): such failures rarely clear within seconds, and `sync --all` with no
   * network should not take minutes to say so.
   */
  connectRetries?: number;
  /** First backoff delay in ms, doubled each retry with jitter (default 500). */
  backoffMs?: number;
  onRetry?: (n: RetryNotice) => void;
  signal?: AbortSignal;
  /** How to wait between attempts (tests pass one that records the delay and returns at once). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface DownloadOptions extends RetryOptions {
  url: string;
  /** Final path of the file. */
  dest: string;
  expectedSha256?: string;
  expectedSize?: number;
  /** Socket idle timeout in ms (default 60 s). */
  idleTimeoutMs?: number;
  onProgress?: (p: DownloadProgress) => void;
  /** Min ms between progress callbacks (default 100). */
  progressIntervalMs?: number;
  /** Bandwidth cap in bytes per second (`sync --limit-rate`); default none. */
  maxBytesPerSecond?: number;
  headers?: Record<string, string>;
  /**
   * When the server sent no length (no Content-Length: HTTP/1.0 or a close-delimited body), a closed
   * connection is indistinguishable from the end of the file: this says why the received bytes are not the
   * whole file (sync/integrity.ts `incompleteReason`), and the download is then resumed like a dropped one.
   */
  checkComplete?: (partPath: string) => Promise<string | undefined>;
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

/**
 * 'connect': the host could not be reached (bounded by connectRetries); 'transient': worth the full retry
 * budget; 'fatal': retrying cannot help (404, checksum mismatch).
 */
export type FailureKind = 'connect' | 'transient' | 'fatal';

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly retryable: boolean,
    readonly kind: FailureKind = retryable ? 'transient' : 'fatal',
    /** The server's Retry-After, when it sent one we honour. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

interface PartMeta {
  url: string;
  etag?: string;
  lastModified?: string;
}

const USER_AGENT = `publicdata/${VERSION} (+https://www.npmjs.com/package/publicdata)`;
const MAX_REDIRECTS = 5;

export const realSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason ?? new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function backoff(base: number, attempt: number): number {
  return Math.round(Math.min(30_000, base * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5));
}

/** What a system error means for a person, and whether the host was reachable at all. */
const NET_ERRORS: Record<string, { text: string; connect: boolean }> = {
  ECONNREFUSED: { text: 'connection refused by', connect: true },
  ENOTFOUND: { text: 'host not found (DNS):', connect: true },
  EAI_AGAIN: { text: 'DNS lookup failed (no network?) for', connect: true },
  ENETUNREACH: { text: 'network unreachable for', connect: true },
  ENETDOWN: { text: 'network down for', connect: true },
  EHOSTUNREACH: { text: 'host unreachable:', connect: true },
  ECONNRESET: { text: 'connection reset by', connect: false },
  EPIPE: { text: 'connection closed by', connect: false },
  ETIMEDOUT: { text: 'connection timed out to', connect: false },
};

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return u.port ? `${u.hostname}:${u.port}` : u.hostname;
  } catch {
    return url;
  }
}

/** Wrap a socket-level error as a DownloadError that says what happened in words. */
function netError(e: unknown, url: string): DownloadError {
  if (e instanceof DownloadError) return e;
  const err = e as NodeJS.ErrnoException;
  const known = err?.code ? NET_ERRORS[err.code] : undefined;
  if (known) return new DownloadError(`${known.text} ${hostOf(url)}`, url, true, known.connect ? 'connect' : 'transient');
  return new DownloadError(err?.message || String(e), url, true, 'transient');
}

function retryAfter(headers: IncomingHttpHeaders): number | undefined {
  const v = headers['retry-after'];
  if (!v) return undefined;
  const s = Number(v);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(String(v)) - Date.now();
  return Number.isFinite(ms) && ms >= 0 && ms <= 60_000 ? ms : undefined;
}

function httpStatusError(url: string, res: IncomingMessage): DownloadError {
  const status = res.statusCode ?? 0;
  const retryable = status >= 500 || status === 429 || status === 408;
  return new DownloadError(`GET ${url}: HTTP ${status}`, url, retryable, retryable ? 'transient' : 'fatal', retryAfter(res.headers));
}

/**
 * One GET with Node's http/https, redirects followed (at most 5). Resolves with the response once its
 * headers are in; the body is the IncomingMessage stream (Node's parser pauses the socket while the body
 * is not read and finishes cleanly when the server then closes the connection). No connection reuse:
 * a bulk file is one connection, and no idle socket keeps the process alive afterwards.
 */
/** The named headers of a set (lower-case names), for a request to another origin. */
function pick(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => names.includes(k.toLowerCase())));
}

async function httpGet(url: string, o: { headers: Record<string, string>; signal?: AbortSignal; idleTimeoutMs: number }): Promise<IncomingMessage> {
  let current = url;
  const origin = new URL(url).origin;
  for (let hop = 0; ; hop++) {
    let target: URL;
    try {
      target = new URL(current);
    } catch {
      throw new DownloadError(`not a URL: ${current}`, url, false);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new DownloadError(`unsupported URL scheme '${target.protocol}' in ${current}`, url, false);
    }
    const mod = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = mod.request(target, {
        method: 'GET',
        // A module's own request headers go to its publisher only, never to another host a redirect names.
        headers: { 'user-agent': USER_AGENT, ...(target.origin === origin ? o.headers : pick(o.headers, ['range', 'if-range', 'accept-encoding'])) },
        agent: false,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      req.setTimeout(o.idleTimeoutMs, () => {
        req.destroy(new DownloadError(`no data from ${hostOf(current)} for ${Math.round(o.idleTimeoutMs / 1000)}s`, url, true));
      });
      req.once('response', resolve);
      req.once('error', (e) => reject(o.signal?.aborted ? e : netError(e, current)));
      req.end();
    });
    const status = res.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new DownloadError(`GET ${url}: more than ${MAX_REDIRECTS} redirects`, url, false);
      current = new URL(res.headers.location, current).href;
      continue;
    }
    return res;
  }
}

/**
 * Run `attempt` until it succeeds, a failure is fatal or the budget for its kind is spent. Returns the
 * value and the number of attempts made.
 */
async function withRetries<T>(url: string, o: RetryOptions, attempt: (n: number) => Promise<T>): Promise<{ value: T; attempts: number }> {
  const retries = o.retries ?? 5;
  const connectRetries = Math.min(retries, o.connectRetries ?? 2);
  const sleep = o.sleep ?? realSleep;
  for (let n = 1; ; n++) {
    if (o.signal?.aborted) throw o.signal.reason ?? new Error('aborted');
    try {
      return { value: await attempt(n), attempts: n };
    } catch (e) {
      if (o.signal?.aborted) throw e;
      const err = netError(e, url);
      const budget = err.kind === 'connect' ? connectRetries : retries;
      if (err.kind === 'fatal') throw err;
      if (n > budget) {
        const tries = `${n} attempt${n === 1 ? '' : 's'}`;
        const msg = err.kind === 'connect' ? `cannot reach ${url} (${tries}): ${err.message}` : `download of ${url} failed after ${tries}: ${err.message}`;
        throw new DownloadError(msg, url, true, err.kind);
      }
      const delayMs = err.retryAfterMs ?? backoff(o.backoffMs ?? 500, n);
      o.onRetry?.({ url, attempt: n + 1, attempts: budget + 1, delayMs, reason: err.message });
      await sleep(delayMs, o.signal);
    }
  }
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

/**
 * The most fetchText reads of one index page (HTML or JSON): the publishers' pages are well under 2 MB;
 * a larger answer is not an index page (a 700 MB one once took 1.6 GB of memory, and was fetched again
 * on each retry).
 */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;

function tooLarge(url: string, max: number, size: string): DownloadError {
  // Fatal: the same URL will be as large next time.
  return new DownloadError(`GET ${url}: the answer is ${size}, more than the ${max} bytes an index page may have`, url, false);
}

/** The body as UTF-8 text, streamed with a limit: past `max` bytes the connection is closed. */
async function readText(res: IncomingMessage, url: string, max: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    res.destroy();
    throw tooLarge(url, max, `${declared} bytes`);
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of res) {
    size += (c as Buffer).length;
    if (size > max) {
      res.destroy();
      throw tooLarge(url, max, `over ${max} bytes`);
    }
    parts.push(c as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * GET a URL as text (index pages, JSON), at most `maxBytes` (MAX_TEXT_BYTES), with retries on network
 * errors, 5xx, 408 and 429 (default 3); an answer that can never succeed (another 4xx, too large) is not
 * retried.
 */
export async function fetchText(url: string, opts: RetryOptions & { idleTimeoutMs?: number; maxBytes?: number } = {}): Promise<string> {
  const max = opts.maxBytes ?? MAX_TEXT_BYTES;
  const { value } = await withRetries(url, { retries: 3, ...opts }, async () => {
    const res = await httpGet(url, { headers: {}, ...(opts.signal ? { signal: opts.signal } : {}), idleTimeoutMs: opts.idleTimeoutMs ?? 30_000 });
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      res.resume();
      throw httpStatusError(url, res);
    }
    return readText(res, url, max);
  });
  return value;
}

/** What one attempt of a download knows: the .part file, its metadata, and what is on disk already. */
interface Attempt {
  opts: DownloadOptions;
  part: string;
  metaPath: string;
  meta: PartMeta;
  /** Bytes already in the .part file (a resume asks for the rest). */
  have: number;
  hash: Hash;
}

/**
 * Ask for the file, or for its rest when part of it is on disk (Range, with If-Range so a changed file
 * comes whole). Returns the response and its total size when known; a 200 to a resume restarts the
 * .part, a 416 or a Content-Range that does not start where the .part ends drops it (retried from 0).
 */
async function requestBody(a: Attempt): Promise<{ res: IncomingMessage; total: number | undefined; resumed: boolean }> {
  const { opts, part, metaPath } = a;
  const headers: Record<string, string> = { 'accept-encoding': 'identity', ...opts.headers };
  if (a.have > 0) {
    headers.range = `bytes=${a.have}-`;
    const validator = a.meta.etag && !a.meta.etag.startsWith('W/') ? a.meta.etag : a.meta.lastModified;
    if (validator) headers['if-range'] = validator;
  }
  const res = await httpGet(opts.url, { headers, ...(opts.signal ? { signal: opts.signal } : {}), idleTimeoutMs: opts.idleTimeoutMs ?? 60_000 });
  const status = res.statusCode ?? 0;
  if (status === 416 && a.have > 0) {
    // Range not satisfiable: our .part is as long as (or longer than) the file. Start again.
    res.resume();
    rmSync(part, { force: true });
    throw new DownloadError(`the server refused a resume at byte ${a.have}; starting again`, opts.url, true);
  }
  if (status === 206) {
    const cr = String(res.headers['content-range'] ?? '');
    const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(cr);
    if (!m || Number(m[1]) !== a.have) {
      res.resume();
      rmSync(part, { force: true });
      throw new DownloadError(`unexpected Content-Range '${cr}' for a resume at ${a.have}`, opts.url, true);
    }
    return { res, total: m[3] !== '*' ? Number(m[3]) : opts.expectedSize, resumed: true };
  }
  if (status !== 200) {
    res.resume();
    throw httpStatusError(opts.url, res);
  }
  if (a.have > 0) {
    rmSync(part, { force: true }); // server ignored the Range (or the file changed): restart
    a.have = 0;
    a.hash = createHash('sha256');
  }
  const len = Number(res.headers['content-length']);
  const total = res.headers['content-length'] !== undefined && Number.isFinite(len) && len >= 0 ? len : opts.expectedSize;
  const etag = res.headers.etag;
  const lastModified = res.headers['last-modified'];
  a.meta = { url: opts.url, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
  writeFileSync(metaPath, JSON.stringify(a.meta));
  return { res, total, resumed: false };
}

/**
 * Stream the body to .part (append on resume), hashing as it goes; returns the bytes now in the .part.
 * A slow disk (or --limit-rate) is back-pressure: the loop stops reading, Node's parser stops the socket,
 * and a server that closes the connection meanwhile is read to its end once the loop catches up.
 */
async function streamBody(a: Attempt, res: IncomingMessage, total: number | undefined): Promise<number> {
  const { opts, part } = a;
  const out = createWriteStream(part, { flags: a.have > 0 ? 'a' : 'w' });
  const outError = new Promise<never>((_, reject) =>
    out.once('error', (e) => reject(new DownloadError(`cannot write ${part}: ${e.message}`, opts.url, false))),
  );
  outError.catch(() => undefined);
  const interval = opts.progressIntervalMs ?? 100;
  const started = Date.now();
  const cap = opts.maxBytesPerSecond && opts.maxBytesPerSecond > 0 ? opts.maxBytesPerSecond : undefined;
  let bytes = a.have;
  let lastTick = 0;
  try {
    for await (const chunk of res) {
      const buf = chunk as Buffer;
      a.hash.update(buf);
      if (!out.write(buf)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), outError]);
      bytes += buf.length;
      const now = Date.now();
      if (opts.onProgress && now - lastTick >= interval) {
        lastTick = now;
        opts.onProgress({ bytes, total, rate: (bytes - a.have) / Math.max(0.001, (now - started) / 1000) });
      }
      if (cap) {
        const ahead = ((bytes - a.have) / cap) * 1000 - (Date.now() - started);
        if (ahead > 5) await realSleep(ahead, opts.signal);
      }
    }
  } catch (e) {
    if (e instanceof DownloadError || opts.signal?.aborted) throw e;
    // The connection died mid-body (reset, or closed before Content-Length was reached): resume.
    throw new DownloadError(`connection lost after ${bytes}${total !== undefined ? ` of ${total}` : ''} bytes (${(e as Error).message})`, opts.url, true);
  } finally {
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  opts.onProgress?.({ bytes, total, rate: (bytes - a.have) / Math.max(0.001, (Date.now() - started) / 1000) });
  return bytes;
}

/**
 * Accept the .part as the file only when it can be shown whole: its declared length, else the module's
 * completeness check (a body closed with no Content-Length), then the publisher's checksum and size.
 * An incomplete body is resumed; a wrong checksum or size starts again from nothing.
 */
async function verifyPart(a: Attempt, bytes: number, total: number | undefined): Promise<string> {
  const { opts, part, metaPath } = a;
  if (total !== undefined && bytes < total) {
    throw new DownloadError(`connection closed after ${bytes} of ${total} bytes`, opts.url, true);
  }
  if (total === undefined && opts.checkComplete) {
    const why = await opts.checkComplete(part);
    if (why) {
      throw new DownloadError(`the connection closed after ${bytes} bytes with no Content-Length and the file is incomplete: ${why}`, opts.url, true);
    }
  }
  const sha256 = a.hash.digest('hex');
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
  return sha256;
}

/**
 * The size of a remote file without downloading it: a one-byte ranged GET (some servers refuse HEAD),
 * read from Content-Range's total, or from Content-Length when the server ignores the range (the body is
 * then dropped unread). Undefined when the server does not say or cannot be reached: a size is only ever
 * stated to the user, never relied on, so this is not retried.
 */
export async function remoteSize(url: string, idleTimeoutMs = 15_000): Promise<number | undefined> {
  try {
    const res = await httpGet(url, { headers: { range: 'bytes=0-0', 'accept-encoding': 'identity' }, idleTimeoutMs });
    const status = res.statusCode ?? 0;
    const total = /\/(\d+)\s*$/.exec(String(res.headers['content-range'] ?? ''))?.[1];
    const length = res.headers['content-length'];
    res.destroy();
    if (status === 206 && total !== undefined) return Number(total);
    if (status === 200 && length !== undefined && /^\d+$/.test(length)) return Number(length);
    return undefined;
  } catch {
    return undefined;
  }
}

/** Download `url` to `dest` with resume, retries, checksum and progress. */
export async function download(opts: DownloadOptions): Promise<DownloadResult> {
  const part = `${opts.dest}.part`;
  const metaPath = `${part}.json`;
  mkdirSync(dirname(opts.dest), { recursive: true });

  const saved = readPartMeta(metaPath);
  let meta: PartMeta = saved ?? { url: opts.url };
  if (!saved || saved.url !== opts.url || !existsSync(part)) {
    rmSync(part, { force: true });
    meta = { url: opts.url };
    writeFileSync(metaPath, JSON.stringify(meta));
  }
  let resumedAny = false;

  const once = async (): Promise<Omit<DownloadResult, 'attempts'>> => {
    const a: Attempt = { opts, part, metaPath, meta, have: existsSync(part) ? statSync(part).size : 0, hash: createHash('sha256') };
    // Hash what is already on disk before asking for the rest, so the server is not kept waiting.
    if (a.have > 0) await hashExisting(part, a.hash);
    const { res, total, resumed } = await requestBody(a);
    meta = a.meta;
    resumedAny ||= resumed;
    const bytes = await streamBody(a, res, total);
    const sha256 = await verifyPart(a, bytes, total);
    await rename(part, opts.dest);
    rmSync(metaPath, { force: true });
    const lm = meta.lastModified ? new Date(meta.lastModified) : undefined;
    const lastModified = lm && !Number.isNaN(lm.getTime()) ? lm.toISOString().slice(0, 10) : undefined;
    return { path: opts.dest, bytes, sha256, resumed: resumedAny, ...(lastModified ? { lastModified } : {}) };
  };

  const { value, attempts } = await withRetries(opts.url, opts, once);
  return { ...value, attempts };
}
