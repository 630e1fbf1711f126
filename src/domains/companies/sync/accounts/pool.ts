/**
 * A pool of extraction workers (src/workers/pool.ts; how many: `workerCount`, the sync's thread setting when
 * set, else by the number of documents, up to the number of cores).
 * Each worker owns a pair of staging CSV files; the pool hands out batches of members to the least busy
 * worker and never holds more than a few batches per worker in flight (memory and temporary disk stay flat).
 * Without the bundled worker (tests run from TypeScript sources) the same Stager runs on the calling thread.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { EarlyWorkers, type Early, WorkerPool } from '../../../../workers/pool.js';
import { syncThreads, workerFile } from '../../../../workers/settings.js';
import { Stager, type BatchResult, type MemberJob } from './stage.js';

/** The bundled extraction worker (extract-worker.ts). */
const WORKER = 'companies-extract-worker';

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

/**
 * Documents a worker must have before another one is started. A worker's start and JIT warm-up cost about
 * what 500 warm documents do: ~0.2 s of slow first documents on its own thread plus ~0.5 CPU-seconds of
 * V8's background compiling, which on 2 cores competes with the other worker. Measured on the 2-core
 * machine, workers already started: 300 members, 1 worker 617 ms and 2 workers 696 ms; 1,000 members,
 * 1 worker 1.68-1.81 s and 2 workers 1.42 s.
 */
export const DOCUMENTS_PER_WORKER = 500;

/**
 * Workers for `documents` members: the sync's thread setting when it is set (the user's number is obeyed),
 * else one per DOCUMENTS_PER_WORKER documents, at least one and at most the number of cores. A daily zip
 * (~9,500 members) gets every core; a small one (a few hundred, a test) gets one.
 */
export function workerCount(env: Readonly<Record<string, string | undefined>>, documents: number): number {
  return syncThreads(env) ?? Math.max(1, Math.min(availableParallelism(), Math.floor(documents / DOCUMENTS_PER_WORKER)));
}

/** Workers to start before the size of the work is known (`warmUp`): the user's number, else one. */
export function warmUpThreads(env: Readonly<Record<string, string | undefined>>): number {
  return syncThreads(env) ?? 1;
}

/** Workers started ahead of their staging files (`warmUp`); `createPool` takes them over, `dispose` ends them if none did. */
export type SpawnedWorkers = Early & { dispose(): Promise<void> };

/** Start `threads` extraction workers now; undefined when there is no worker file (running from sources). */
export function spawnWorkers(threads: number): SpawnedWorkers | undefined {
  const file = workerFile(WORKER);
  return file ? new EarlyWorkers(file, threads) : undefined;
}

export async function createPool(stageDir: string, threads: number, opts: { inThread?: boolean; spawned?: SpawnedWorkers } = {}): Promise<ExtractPool> {
  const file = opts.inThread ? undefined : workerFile(WORKER);
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
  const pool = new WorkerPool<MemberJob[], BatchResult>(file, threads, { label: 'an extraction worker', before: 'closing its staging files', ...(opts.spawned ? { early: opts.spawned } : {}) });
  // each worker's staging files: the first message it handles
  files.forEach((f, i) => pool.post(i, { type: 'stage', ...f }));
  const limit = threads * 3;
  return {
    threads,
    inThread: false,
    submit: (jobs) => pool.request(jobs),
    ready: () => pool.below(limit),
    async close() {
      // Their files are complete and closed, so the threads are ended without waiting for them.
      await pool.close({ drain: true, wait: false });
      return done();
    },
  };
}
