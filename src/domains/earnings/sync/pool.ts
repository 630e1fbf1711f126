/**
 * Workbook parsing on worker threads. SheetJS reading the .xls/.xlsx tables is nearly all of an earnings
 * sync's time (bench/earnings.bench.mjs), and one workbook does not depend on another: the load hands each
 * table file's bytes to the least busy worker, which parses it and stages its rows as CSV (stage.ts); the load
 * stores the staged files in the order it submitted them.
 * Workers: `PUBLICDATA_SYNC_THREADS` when set, else one per core, at most one per file.
 * Without a compiled worker file (tests run from TypeScript sources) the files are parsed on the calling thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Status } from './discover.js';
import { readAsheBytes } from './sheet.js';
import { stageFile, type StagedFile } from './stage.js';

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  name: string;
  status: Status;
}
export type ParseReply = { id: number; file: StagedFile } | { id: number; error: string };

export interface ParsePool {
  /** Parse one table file's bytes (transferred to the worker: the caller must not use them after) into staging CSV. */
  parse(bytes: Uint8Array, name: string, status: Status): Promise<StagedFile>;
  close(): Promise<void>;
  readonly threads: number;
}

/** The compiled worker beside this module (dist/src/...), or from the CLI bundle in dist/cli/. */
function workerFile(): string | undefined {
  for (const rel of ['./worker.js', '../src/domains/earnings/sync/worker.js']) {
    const f = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** `PUBLICDATA_SYNC_THREADS` when it is a whole number, else the number of cores; never more than `files`. */
export function parseThreads(env: Readonly<Record<string, string | undefined>>, files: number): number {
  const n = Number(env.PUBLICDATA_SYNC_THREADS);
  const want = Number.isInteger(n) && n > 0 ? n : availableParallelism();
  return Math.max(1, Math.min(want, files));
}

// as companies/sync/accounts/pool.ts: not the parent's --eval/--input-type or process-wide V8 flags
const execArgv = () => process.execArgv.filter((a) => !/^--(input-type|eval|print|expose-gc|expose_gc)\b/.test(a) && a !== '-e' && a !== '-p');

function newWorker(file: string): Worker {
  try {
    return new Worker(file, { execArgv: execArgv() });
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    return new Worker(file, { execArgv: [] });
  }
}

function inThread(): ParsePool {
  return { threads: 0, parse: async (bytes, name, status) => stageFile(readAsheBytes(bytes, name), status, name), close: async () => {} };
}

export function createParsePool(threads: number): ParsePool {
  const file = workerFile();
  if (!file || threads < 1) return inThread();
  type Pending = { resolve: (f: StagedFile) => void; reject: (e: Error) => void };
  const workers = Array.from({ length: threads }, () => newWorker(file));
  const busy = workers.map(() => 0);
  const pending = new Map<number, Pending & { worker: number }>();
  let next = 0;
  let failed: Error | undefined;
  workers.forEach((w, i) => {
    w.on('message', (r: ParseReply) => {
      const p = pending.get(r.id);
      if (!p) return;
      pending.delete(r.id);
      busy[i]!--;
      if ('error' in r) p.reject(new Error(r.error));
      else p.resolve(r.file);
    });
    const fail = (e: Error) => {
      failed ??= e;
      for (const [id, p] of pending) if (p.worker === i) (pending.delete(id), p.reject(e));
    };
    w.on('error', fail);
    w.on('exit', (code) => code !== 0 && fail(new Error(`a workbook-parsing worker stopped (exit code ${code})`)));
  });
  return {
    threads,
    parse(bytes, name, status) {
      if (failed) return Promise.reject(failed);
      const i = busy.indexOf(Math.min(...busy));
      const id = next++;
      busy[i]!++;
      return new Promise<StagedFile>((resolve, reject) => {
        pending.set(id, { resolve, reject, worker: i });
        const req: ParseRequest = { id, bytes, name, status };
        const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
        workers[i]!.postMessage(req, whole ? [bytes.buffer as ArrayBuffer] : []);
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
