/**
 * A pool of extraction workers (worker_threads; how many: `workerCount`, `PUBLICDATA_SYNC_THREADS` when set,
 * else by the number of documents, up to the number of cores).
 * Each worker owns a pair of staging CSV files; the pool hands out batches of members to the least busy
 * worker and never holds more than a few batches per worker in flight (memory and temporary disk stay flat).
 * Without a compiled worker beside this module (tests run from TypeScript sources) the same Stager runs
 * on the calling thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Stager, type BatchResult, type MemberJob } from './stage.js';

export interface ExtractPool {
  /** Queue a batch; resolves when it is extracted. Callers await `ready()` first to bound what is in flight. */
  submit(jobs: MemberJob[]): Promise<BatchResult>;
  /** Resolves when fewer than the in-flight limit are queued. */
  ready(): Promise<void>;
  /** Wait for every batch, close the staging files; returns them. */
  close(): Promise<{ dir: string; filings: string[]; periods: string[] }>;
  readonly threads: number;
  /** True when no worker file was found (running from sources): the batches run on the calling thread. */
  readonly inThread: boolean;
}

/** `PUBLICDATA_SYNC_THREADS` when it is set to a whole number of threads. */
function explicitThreads(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const n = Number(env.PUBLICDATA_SYNC_THREADS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Documents a worker must have before another one is started. A worker's start and JIT warm-up cost about
 * what 500 warm documents do: ~0.2 s of slow first documents on its own thread plus ~0.5 CPU-seconds of
 * V8's background compiling, which on 2 cores competes with the other worker. Measured on the 2-core
 * machine, workers already started: 300 members, 1 worker 617 ms and 2 workers 696 ms; 1,000 members,
 * 1 worker 1.68-1.81 s and 2 workers 1.42 s.
 */
export const DOCUMENTS_PER_WORKER = 500;

/**
 * Workers for `documents` members: `PUBLICDATA_SYNC_THREADS` when it is set (the user's number is obeyed),
 * else one per DOCUMENTS_PER_WORKER documents, at least one and at most the number of cores. A daily zip
 * (~9,500 members) gets every core; a small one (a few hundred, a test) gets one.
 */
export function workerCount(env: Readonly<Record<string, string | undefined>>, documents: number): number {
  return explicitThreads(env) ?? Math.max(1, Math.min(availableParallelism(), Math.floor(documents / DOCUMENTS_PER_WORKER)));
}

/** Workers to start before the size of the work is known (`warmUp`): the user's number, else one. */
export function warmUpThreads(env: Readonly<Record<string, string | undefined>>): number {
  return explicitThreads(env) ?? 1;
}

/**
 * The worker's file: the bundled one (dist/cli/companies-extract-worker.cjs, beside the CLI bundle or two levels up
 * from dist/src/domains/companies/sync/accounts), else the tsc output beside this module; none when running from sources.
 * The bundle is preferred: one file, and saxes/yauzl loaded with require() rather than imported as
 * ESM-from-CommonJS, whose export lexer costs every worker start-up time and background compiling
 * (scripts/bundle.mjs).
 */
function workerFile(): string | undefined {
  for (const rel of ['./companies-extract-worker.cjs', '../../../../../cli/companies-extract-worker.cjs', './extract-worker.js']) {
    const f = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(f)) return f;
  }
  return undefined;
}

/**
 * Extraction workers started ahead of their staging files (`warmUp` of the accounts module, at the start of
 * a sync: a worker takes a while to start, and that overlaps reading the history, discovery and the
 * download). `createPool` takes them over; `dispose` ends them if no pool did.
 */
export interface SpawnedWorkers {
  /** The workers, once: the first `createPool` gets them, later ones start their own. `error(i)`: worker i's first error. */
  take(): { workers: Worker[]; error: (i: number) => Error | undefined } | undefined;
  dispose(): Promise<void>;
}

// Not the parent's --input-type/--eval flags (a worker is started from a file), nor process-wide V8 flags
// that Worker refuses (ERR_WORKER_INVALID_EXEC_ARGV: seen with --expose-gc, which bench/run.mjs passes).
const workerExecArgv = () => process.execArgv.filter((a) => !/^--(input-type|eval|print|expose-gc|expose_gc)\b/.test(a) && a !== '-e' && a !== '-p');

/**
 * An extraction worker with the parent's node options. Any V8 flag on node's command line (say
 * `--max-old-space-size`) makes Worker refuse the whole list, and node gives no list of which flags a
 * worker accepts: then the worker starts with none of the parent's flags rather than failing the sync.
 */
function newWorker(file: string): Worker {
  try {
    return new Worker(file, { execArgv: workerExecArgv() });
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    return new Worker(file, { execArgv: [] });
  }
}

/** Start `threads` extraction workers now; undefined when there is no worker file (running from sources). */
export function spawnWorkers(threads: number): SpawnedWorkers | undefined {
  const file = workerFile();
  if (!file) return undefined;
  let workers: Worker[] | undefined = Array.from({ length: threads }, () => newWorker(file));
  // an error before a pool takes them over (a worker that cannot start) is kept for that pool to report,
  // per worker: a pool that needs fewer workers ends the others and does not fail for theirs
  const errors: Array<Error | undefined> = [];
  workers.forEach((w, i) => w.on('error', (e) => (errors[i] ??= e)));
  return {
    take() {
      const w = workers;
      workers = undefined;
      return w ? { workers: w, error: (i) => errors[i] } : undefined;
    },
    async dispose() {
      const w = workers;
      workers = undefined;
      if (w) await Promise.all(w.map((x) => x.terminate()));
    },
  };
}

export async function createPool(stageDir: string, threads: number, opts: { inThread?: boolean; spawned?: SpawnedWorkers } = {}): Promise<ExtractPool> {
  const file = opts.inThread ? undefined : workerFile();
  const files = Array.from({ length: file ? threads : 1 }, (_, i) => ({ filings: join(stageDir, `filings-${i}.csv`), periods: join(stageDir, `periods-${i}.csv`) }));
  const done = () => ({ dir: stageDir, filings: files.map((f) => f.filings), periods: files.map((f) => f.periods) });
  if (!file) {
    const stager = new Stager(files[0]!.filings, files[0]!.periods);
    return {
      threads: 1,
      inThread: true,
      submit: (jobs) => stager.run(jobs),
      ready: async () => undefined,
      close: async () => {
        stager.close();
        return done();
      },
    };
  }
  // the workers started early: as many as this pool needs (any more are ended), the rest started now
  const early = opts.spawned?.take();
  for (const w of early?.workers.slice(threads) ?? []) w.terminate().catch(() => undefined);
  const started: Worker[] = [];
  try {
    for (let i = 0; i < files.length; i++) started.push(early?.workers[i] ?? newWorker(file));
  } catch (e) {
    // a worker that cannot be started: end the ones this pool already holds, or they keep the process alive
    for (const w of [...started, ...(early?.workers.slice(started.length, threads) ?? [])]) w.terminate().catch(() => undefined);
    throw e;
  }
  // `ended`: settles when the worker has closed its staging files ('closed'), failed or gone away
  type Held = { w: Worker; busy: number; closed: boolean; ended: Promise<void>; end(): void };
  const workers: Held[] = started.map((w) => {
    let end = () => undefined as void;
    const ended = new Promise<void>((r) => (end = r));
    return { w, busy: 0, closed: false, ended, end };
  });
  // each worker's staging files: the first message it handles
  workers.forEach((x, i) => x.w.postMessage({ type: 'stage', ...files[i]! }));
  const pending = new Map<number, { resolve(r: BatchResult): void; reject(e: Error): void; worker: number }>();
  let nextId = 0;
  let failed: Error | undefined = early ? workers.map((_, i) => early.error(i)).find((e) => e !== undefined) : undefined;
  const waiters: Array<() => void> = [];
  const limit = threads * 3;
  const wake = () => {
    while (waiters.length && pending.size < limit) waiters.shift()!();
  };
  /** Worker i failed or went away: the pool fails, its batches in flight are rejected. */
  const lost = (i: number, e: Error) => {
    failed ??= e;
    for (const [id, p] of pending) if (p.worker === i) {
      pending.delete(id);
      p.reject(e);
    }
    workers[i]!.end();
    wake();
  };
  workers.forEach((x, i) => {
    x.w.on('message', (m: { type: string; id: number; message?: string } & BatchResult) => {
      if (m.type === 'closed') {
        x.closed = true;
        x.end();
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      x.busy--;
      if (m.type === 'error') p.reject(new Error(m.message));
      else p.resolve({ filings: m.filings, periods: m.periods, rejects: m.rejects });
      wake();
    });
    x.w.on('error', (e) => lost(i, e));
    // a worker that ends before it has closed its files (a crash, or ended from outside) fails the pool;
    // after 'closed' the pool ends them itself
    x.w.on('exit', (code) => {
      if (!x.closed) lost(i, new Error(`an extraction worker ended (exit code ${code}) before closing its staging files`));
    });
  });
  return {
    threads,
    inThread: false,
    submit(jobs) {
      if (failed) return Promise.reject(failed);
      let best = 0;
      for (let i = 1; i < workers.length; i++) if (workers[i]!.busy < workers[best]!.busy) best = i;
      const id = nextId++;
      workers[best]!.busy++;
      return new Promise<BatchResult>((resolve, reject) => {
        pending.set(id, { resolve, reject, worker: best });
        workers[best]!.w.postMessage({ type: 'jobs', id, jobs });
      });
    },
    ready() {
      if (pending.size < limit) return Promise.resolve();
      return new Promise<void>((r) => waiters.push(r));
    },
    async close() {
      if (!failed) {
        for (const x of workers) x.w.postMessage({ type: 'close' });
        await Promise.all(workers.map((x) => x.ended));
      }
      // Their files are complete and closed ('closed'), so the threads are ended without waiting for them:
      // tearing down a worker's heap took 140 ms (measured) that the load would otherwise wait for.
      for (const x of workers) {
        x.w.unref();
        x.w.terminate().catch(() => undefined);
      }
      if (failed) throw failed;
      return done();
    },
  };
}
