/**
 * Workbook parsing on worker threads (src/workers/pool.ts). SheetJS reading the .xls/.xlsx tables is nearly
 * all of an earnings sync's time (bench/earnings.bench.mjs), and one workbook does not depend on another: the
 * load hands each table file's bytes to the least busy worker, which parses it and stages its rows as CSV
 * (stage.ts); the load stores the staged files in the order it submitted them.
 * Workers: the sync's thread setting when set, else one per core, at most one per file.
 * Without the bundled worker (tests run from TypeScript sources) the files are parsed on the calling thread.
 */
import { WorkerPool } from '../../../workers/pool.js';
import { threadsUpTo } from '../../../workers/settings.js';
import type { Status } from './discover.js';
import { readAsheBytes } from './sheet.js';
import { stageFile, type StagedFile } from './stage.js';

export interface ParseRequest {
  bytes: Uint8Array;
  name: string;
  status: Status;
}

export interface ParsePool {
  /** Parse one table file's bytes (transferred to the worker: the caller must not use them after) into staging CSV. */
  parse(bytes: Uint8Array, name: string, status: Status): Promise<StagedFile>;
  close(): Promise<void>;
  readonly threads: number;
}

/** The sync's thread setting when set, else the number of cores; never more than `files`. */
export function parseThreads(env: Readonly<Record<string, string | undefined>>, files: number): number {
  return threadsUpTo(env, files);
}

function inThread(): ParsePool {
  return { threads: 0, parse: async (bytes, name, status) => stageFile(readAsheBytes(bytes, name), status, name), close: async () => {} };
}

export function createParsePool(threads: number): ParsePool {
  const pool = threads < 1 ? undefined : WorkerPool.start<ParseRequest, StagedFile>('earnings-parse-worker', threads, { label: 'a workbook-parsing worker' });
  if (!pool) return inThread();
  return {
    threads,
    parse(bytes, name, status) {
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      return pool.request({ bytes, name, status }, { transfer: whole ? [bytes.buffer as ArrayBuffer] : [] });
    },
    close: () => pool.close({ drain: false, wait: true }),
  };
}
