/**
 * How many threads (the one place the settings are read) and where a worker's bundled file is. Apart from
 * pool.ts so that asking (the sync framework's DuckDB threads, `--batch` on every call) does not load
 * node:worker_threads.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

type Env = Readonly<Record<string, string | undefined>>;

/** `PUBLICDATA_SYNC_THREADS` when it is set to a whole number of threads (a sync's worker threads and its DuckDB threads). */
export function syncThreads(env: Env): number | undefined {
  const n = Number(env.PUBLICDATA_SYNC_THREADS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The sync's setting, else one thread per core; at least one and never more than `max` (the pieces of work). */
export function threadsUpTo(env: Env, max: number): number {
  return Math.max(1, Math.min(syncThreads(env) ?? availableParallelism(), max));
}

/** `--batch` workers: `PUBLICDATA_BATCH_WORKERS` when it is a whole number (0 or 1: none), else one per core. */
export function batchThreads(env: Env): number {
  const v = env.PUBLICDATA_BATCH_WORKERS;
  if (v !== undefined && /^\d+$/.test(v)) return Number(v);
  return availableParallelism();
}


/**
 * The bundled worker `name` (say `earnings-parse-worker`): beside the CLI bundle (dist/cli/), or there from
 * tsc's output of this module (dist/src/workers/); undefined when running from sources.
 */
export function workerFile(name: string): string | undefined {
  for (const rel of [`./${name}.cjs`, `../../cli/${name}.cjs`]) {
    const f = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(f)) return f;
  }
  return undefined;
}
