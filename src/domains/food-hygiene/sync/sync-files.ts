/**
 * The per-authority files of a food-hygiene sync: what to fetch (from the FSA's authorities list, or the
 * XML files given with `--from`), a small pool of concurrent downloads, and the streaming parses into
 * staging CSVs (parse-slots.ts, stage.ts). A file that does not parse (or cannot be downloaded) is cut
 * back out of its staging file and becomes a FileFailure naming its authority; the other files go on.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { download, DownloadError, realSleep } from '../../../../sync/download.js';
import { fmtBytes } from '../../../../sync/progress.js';
import type { ParseSlots } from './parse-slots.js';
import type { FileResult, FileSuccess, PlannedFile } from './stage.js';

export type { FileFailure, FileResult, FileSuccess, PlannedFile } from './stage.js';
export { ROW_REJECTS_KEPT } from './stage.js';

/** The FSA's per-authority file names: FHRS314en-GB.xml (and the Welsh cy-GB twins). */
export const FILE_NAME_RE = /^FHRS(\d{1,4})(en|cy)-GB\.xml$/i;

/** Authority codes are the digits of the file name (FHRS314en-GB.xml is 314). */
export function codeOfFileName(name: string): string | undefined {
  return FILE_NAME_RE.exec(name)?.[1];
}

export interface FetchOptions {
  /** Where downloads go (each file is deleted once staged). */
  dir: string;
  /** Where the files are parsed and staged (parse-slots.ts); closed when done. */
  slots: ParseSlots;
  /** Concurrent downloads (default 4). */
  concurrency?: number;
  log?(message: string): void;
  /** The transient terminal line: files and bytes so far. */
  /** The progress line: files done of the total (drawn as a bar), bytes read, establishments staged. */
  status?(text: string, share?: { done: number; total: number }): void;
  /** How to wait before a retry (tests record the delay and return at once). */
  sleep?: (ms: number) => Promise<void>;
}

/** Attempts after the first for a file the FSA answers with 429 (rate limited) or 504 (gateway timeout). */
export const RATE_LIMIT_RETRIES = 8;
/** The first wait after a 429/504 without Retry-After, doubled each time (at most 60 s). */
const RATE_LIMIT_BACKOFF_MS = 2_000;

/**
 * A pool-wide pause: after a 429 or 504 every download waits until the server's Retry-After (or the backoff)
 * has passed, so the pool backs off together instead of each worker hammering the limit.
 */
class RateGate {
  #until = 0;
  constructor(private readonly sleep: (ms: number) => Promise<void>) {}
  hold(ms: number): void {
    this.#until = Math.max(this.#until, Date.now() + ms);
  }
  async pass(): Promise<void> {
    const wait = this.#until - Date.now();
    if (wait > 0) await this.sleep(wait);
  }
}

const rateLimited = (e: unknown): e is DownloadError => e instanceof DownloadError && /HTTP (429|504)\b/.test(e.message);

/**
 * One file, backing off on 429/504: the wait is the server's Retry-After when it sends one, else a doubling
 * backoff; the whole pool pauses with it. Other failures keep the download's own retries (3).
 */
async function downloadPolitely(url: string, dest: string, gate: RateGate, sleep: (ms: number) => Promise<void>, log?: (m: string) => void) {
  for (let attempt = 0; ; attempt++) {
    await gate.pass();
    try {
      return await download({
        url,
        dest,
        retries: 3,
        connectRetries: 1,
        backoffMs: 200,
        sleep: (ms) => sleep(ms),
        // the download's own retry honours Retry-After (up to 60 s); a 429/504 also pauses the rest of the pool
        onRetry: (n) => {
          if (!/HTTP (429|504)\b/.test(n.reason)) return;
          gate.hold(n.delayMs);
          log?.(`${url}: ${n.reason.replace(/^.*HTTP /, 'HTTP ')} from the server, waiting ${Math.round(n.delayMs / 100) / 10} s before trying again`);
        },
      });
    } catch (e) {
      if (!rateLimited(e) || attempt >= RATE_LIMIT_RETRIES) throw e;
      const wait = e.retryAfterMs ?? Math.min(60_000, RATE_LIMIT_BACKOFF_MS * 2 ** attempt);
      log?.(`${url}: ${/HTTP (\d+)/.exec(e.message)![1]} from the server, waiting ${Math.round(wait / 100) / 10} s before trying again`);
      gate.hold(wait);
    }
  }
}

/**
 * Download (a pool of `concurrency`) and stage every planned file. Each parse slot (a worker thread with
 * its staging CSV, or the main thread) stages one file at a time, in the order the downloads finish,
 * while the next files download. Results in plan order.
 */
export async function fetchAndStage(plans: readonly PlannedFile[], o: FetchOptions): Promise<FileResult[]> {
  mkdirSync(o.dir, { recursive: true });
  const results = new Array<FileResult>(plans.length);
  const sleep = o.sleep ?? ((ms: number) => realSleep(ms));
  const gate = new RateGate(sleep);
  let next = 0;
  let done = 0;
  let rows = 0;
  let bytesIn = 0;
  let lastLog = 0;
  const report = (force = false) => {
    const text = `files ${done}/${plans.length}, ${fmtBytes(bytesIn)} read, ${rows.toLocaleString('en-GB')} establishments`;
    o.status?.(text, { done, total: plans.length });
    const now = Date.now();
    if (!force && now - lastLog < 5000) return;
    lastLog = now;
    o.log?.(text);
  };
  const one = async (i: number): Promise<void> => {
    const plan = plans[i]!;
    let path: string;
    let sha256: string;
    let bytes: number;
    try {
      if (plan.localPath) {
        // a --from file: the framework hashes it for the sync log; not hashed twice
        path = plan.localPath;
        sha256 = '';
        bytes = statSync(path).size;
      } else {
        path = join(o.dir, basename(plan.fileName));
        const res = await downloadPolitely(plan.url, path, gate, sleep, o.log);
        ({ sha256, bytes } = res);
      }
    } catch (e) {
      results[i] = { ok: false, plan, line: null, reason: `download failed: ${(e as Error).message}`, weight: plan.listedCount ?? 1 };
      done++;
      return;
    }
    bytesIn += bytes;
    const slot = await o.slots.acquire();
    try {
      results[i] = await slot.stage(plan, path, sha256, bytes);
    } finally {
      o.slots.release(slot);
    }
    if (results[i]!.ok) rows += (results[i] as FileSuccess).rows;
    if (!plan.localPath) rmSync(path, { force: true });
    done++;
    report();
  };
  const pool = Math.min(Math.max(o.concurrency ?? 4, o.slots.slots.length), plans.length);
  const workers = Array.from({ length: pool }, async () => {
    while (next < plans.length) await one(next++);
  });
  try {
    await Promise.all(workers);
  } finally {
    await o.slots.close();
  }
  report(true);
  return results;
}
