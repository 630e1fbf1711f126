/**
 * Where the files of a food-hygiene sync are parsed: parse worker threads (stage-worker.ts, bundled as
 * dist/cli/food-hygiene-stage-worker.cjs), one per core, each with a staging CSV of its own, so the parse (most
 * of a national sync's time) runs on every core; or, for a single file or when there is no worker file
 * (running from sources), the main thread into one staging CSV. Every slot stages one file at a time;
 * `acquire` waits for a free one. docs/food-hygiene.md "Load time".
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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

type Reply = { type: 'done'; id: number; result: FileResult } | { type: 'error'; id: number; message: string } | { type: 'closed' };

class WorkerSlot implements ParseSlot {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(r: FileResult): void; reject(e: Error): void }>();
  private next = 0;
  private failure: Error | undefined;
  private closed: (() => void) | undefined;
  constructor(file: string, readonly stagingPath: string) {
    this.worker = newWorker(file, stagingPath);
    this.worker.on('message', (m: Reply) => {
      if (m.type === 'closed') return this.closed?.();
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.type === 'done') p?.resolve(m.result);
      else p?.reject(new Error(`food-hygiene parse worker: ${m.message}`));
    });
    const fail = (e: Error) => {
      this.failure ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.closed?.();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`food-hygiene parse worker exited (${code})`)));
  }
  stage(plan: PlannedFile, path: string, sha256: string, bytes: number): Promise<FileResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'stage', id, plan, path, sha256, bytes });
    });
  }
  /** Flush and close the worker's staging CSV, then end the worker. */
  async close(): Promise<void> {
    if (!this.failure) {
      await new Promise<void>((resolve) => {
        this.closed = resolve;
        this.worker.postMessage({ type: 'close' });
      });
    }
    await this.worker.terminate();
  }
}

// Not the parent's --input-type/--eval flags (a worker is started from a file), nor process-wide V8 flags
// that Worker refuses (as in the companies accounts pool).
const workerExecArgv = () => process.execArgv.filter((a) => !/^--(input-type|eval|print|expose-gc|expose_gc|cpu-prof)\b/.test(a) && a !== '-e' && a !== '-p');

function newWorker(file: string, stagingPath: string): Worker {
  try {
    return new Worker(file, { execArgv: workerExecArgv(), workerData: { stagingPath } });
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    return new Worker(file, { execArgv: [], workerData: { stagingPath } });
  }
}

/**
 * The worker's file: the bundled one (beside the CLI bundle, or dist/cli/ from dist/src/domains/food-hygiene/sync),
 * else the tsc output beside this module; none when running from sources.
 */
function workerFile(): string | undefined {
  for (const rel of ['./food-hygiene-stage-worker.cjs', '../../../../cli/food-hygiene-stage-worker.cjs', './stage-worker.js']) {
    const f = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** A fixed set of parse slots (flat in the number of files); `acquire` resolves with a free one. */
export class ParseSlots {
  readonly slots: ParseSlot[];
  private readonly free: ParseSlot[];
  private readonly waiting: Array<(s: ParseSlot) => void> = [];

  /** Worker slots (`PUBLICDATA_SYNC_THREADS`, else one per core, at most `files`) when there are 2+ files and a worker file. */
  constructor(stagingBase: string, files: number, env: Readonly<Record<string, string | undefined>> = {}) {
    const file = workerFile();
    const asked = Number(env.PUBLICDATA_SYNC_THREADS);
    const n = Math.min(files, Number.isInteger(asked) && asked > 0 ? asked : availableParallelism());
    this.slots = file && n >= 2
      ? Array.from({ length: n }, (_, i) => new WorkerSlot(file, `${stagingBase}-${i}.csv`))
      : [new MainThreadSlot(`${stagingBase}.csv`)];
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

  async close(): Promise<void> {
    const errors = (await Promise.allSettled(this.slots.map((s) => s.close()))).filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (errors.length) throw errors[0]!.reason;
  }

  /** Worker threads parsing (0: the main thread). */
  get workers(): number {
    return this.slots.filter((s) => s instanceof WorkerSlot).length;
  }

  get stagingPaths(): string[] {
    return this.slots.map((s) => s.stagingPath);
  }
}
