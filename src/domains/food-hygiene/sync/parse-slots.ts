/**
 * Where the files of a food-hygiene sync are parsed: parse worker threads (stage-worker.ts, bundled as
 * dist/cli/food-hygiene-stage-worker.cjs; src/workers/pool.ts), one per core, each with a staging CSV of its own, so the parse (most
 * of a national sync's time) runs on every core; or, for a single file or when there is no worker file
 * (running from sources), the main thread into one staging CSV. Every slot stages one file at a time;
 * `acquire` waits for a free one. docs/food-hygiene.md "Load time".
 */
import { WorkerPool } from '../../../workers/pool.js';
import { threadsUpTo } from '../../../workers/settings.js';
import { Staging, stageFile, type FileResult, type PlannedFile } from './stage.js';

export interface ParseSlot {
  /** This slot's staging CSV. */
  readonly stagingPath: string;
  stage(plan: PlannedFile, path: string, sha256: string, bytes: number): Promise<FileResult>;
  close(): Promise<void>;
}

class MainThreadSlot implements ParseSlot {
  private readonly staging: Staging;
  constructor(readonly stagingPath: string) {
    this.staging = new Staging(stagingPath);
  }
  stage(plan: PlannedFile, path: string, sha256: string, bytes: number): Promise<FileResult> {
    return stageFile(this.staging, plan, path, sha256, bytes);
  }
  async close(): Promise<void> {
    this.staging.close();
  }
}

/** One file to stage, as the worker (stage-worker.ts) receives it. */
export interface StageRequest {
  plan: PlannedFile;
  path: string;
  sha256: string;
  bytes: number;
}

/** Worker i of the pool with its staging CSV; the pool is closed once, by `ParseSlots.close`. */
class WorkerSlot implements ParseSlot {
  constructor(private readonly pool: WorkerPool<StageRequest, FileResult>, private readonly i: number, readonly stagingPath: string) {}
  stage(plan: PlannedFile, path: string, sha256: string, bytes: number): Promise<FileResult> {
    return this.pool.request({ plan, path, sha256, bytes }, { worker: this.i });
  }
  async close(): Promise<void> {}
}

/** A fixed set of parse slots (flat in the number of files); `acquire` resolves with a free one. */
export class ParseSlots {
  readonly slots: ParseSlot[];
  private readonly free: ParseSlot[];
  private readonly waiting: Array<(s: ParseSlot) => void> = [];

  private readonly pool: WorkerPool<StageRequest, FileResult> | undefined;

  /** Worker slots (the sync's thread setting, else one per core, at most `files`) when there are 2+ files and a worker file. */
  constructor(stagingBase: string, files: number, env: Readonly<Record<string, string | undefined>> = {}) {
    const n = threadsUpTo(env, files);
    const path = (i: number) => `${stagingBase}-${i}.csv`;
    this.pool = n >= 2
      ? WorkerPool.start<StageRequest, FileResult>('food-hygiene-stage-worker', n, {
          label: 'a food-hygiene parse worker',
          workerDataOf: (i) => ({ stagingPath: path(i) }),
          requestError: (m) => new Error(`food-hygiene parse worker: ${m}`),
        })
      : undefined;
    const pool = this.pool;
    this.slots = pool ? Array.from({ length: n }, (_, i) => new WorkerSlot(pool, i, path(i))) : [new MainThreadSlot(`${stagingBase}.csv`)];
    this.free = [...this.slots];
  }

  acquire(): Promise<ParseSlot> {
    const s = this.free.pop();
    return s ? Promise.resolve(s) : new Promise((resolve) => this.waiting.push(resolve));
  }

  release(s: ParseSlot): void {
    const w = this.waiting.shift();
    if (w) w(s);
    else this.free.push(s);
  }

  /** Flush and close every staging CSV, then end the workers. */
  async close(): Promise<void> {
    const errors = (await Promise.allSettled([...this.slots.map((s) => s.close()), ...(this.pool ? [this.pool.close({ drain: true, wait: true })] : [])])).filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (errors.length) throw errors[0]!.reason;
  }

  /** Worker threads parsing (0: the main thread). */
  get workers(): number {
    return this.pool ? this.slots.length : 0;
  }

  get stagingPaths(): string[] {
    return this.slots.map((s) => s.stagingPath);
  }
}
