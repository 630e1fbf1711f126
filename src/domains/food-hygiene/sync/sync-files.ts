/**
 * The per-authority files of a food-hygiene sync: what to fetch (from the FSA's authorities list, or the
 * XML files given with `--from`), a small pool of concurrent downloads, and the streaming parses into
 * staging CSVs (parse-slots.ts, stage.ts). A file that does not parse (or cannot be downloaded) is cut
 * back out of its staging file and becomes a FileFailure naming its authority; the other files go on.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { download } from '../../../../sync/download.js';
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
  status?(text: string): void;
  progress?(rows: number): void;
}

/**
 * Download (a pool of `concurrency`) and stage every planned file. Each parse slot (a worker thread with
 * its staging CSV, or the main thread) stages one file at a time, in the order the downloads finish,
 * while the next files download. Results in plan order.
 */
export async function fetchAndStage(plans: readonly PlannedFile[], o: FetchOptions): Promise<FileResult[]> {
  mkdirSync(o.dir, { recursive: true });
  const results = new Array<FileResult>(plans.length);
  let next = 0;
  let done = 0;
  let rows = 0;
  let bytesIn = 0;
  let lastLog = 0;
  const report = (force = false) => {
    const text = `files ${done}/${plans.length}, ${fmtBytes(bytesIn)} read, ${rows.toLocaleString('en-GB')} establishments`;
    o.status?.(text);
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
        const res = await download({ url: plan.url, dest: path, retries: 3, connectRetries: 1, backoffMs: 200 });
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
    o.progress?.(rows);
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
