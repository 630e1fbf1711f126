/**
 * Worker threads, once for every module that runs them (companies' accounts extraction, earnings' workbook
 * parsing, food hygiene's parse, `--batch`): where a worker's file is, how a worker is
 * started (the thread settings and `workerFile`: settings.ts), and a pool that sends requests to its workers and settles each with the worker's answer.
 *
 * The convention (docs/architecture.md, "Worker threads"): a worker's entry point is a file
 * `src/**\/<name>-worker.ts`; the build bundles each to one CommonJS file, `dist/cli/<domain>-<name>-worker.cjs`
 * for one under `src/domains/<domain>/`, else `dist/cli/<name>-worker.cjs` (scripts/workers.mjs,
 * scripts/bundle.mjs). `workerFile` finds it beside the CLI bundle or from tsc's output in dist/src; running
 * from TypeScript sources (the tests) there is none, and every caller then does the same work on the
 * calling thread (the single-thread fallback). The worker's side of the protocol is `serve` (serve.ts).
 */
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './serve.js';
import { workerFile } from './settings.js';

export { workerFile };

// Not the parent's --input-type/--eval flags (a worker is started from a file), nor process-wide V8 flags
// that Worker refuses (ERR_WORKER_INVALID_EXEC_ARGV: seen with --expose-gc, which bench/run.mjs passes), nor
// --cpu-prof (a profile per thread would overwrite the parent's).
const workerExecArgv = () => process.execArgv.filter((a) => !/^--(input-type|eval|print|expose-gc|expose_gc|cpu-prof)\b/.test(a) && a !== '-e' && a !== '-p');

export interface StartOptions {
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
}

/**
 * A worker with the parent's node options. Any V8 flag on node's command line (say `--max-old-space-size`)
 * makes Worker refuse the whole list, and node gives no list of which flags a worker accepts: then the
 * worker starts with none of the parent's flags rather than failing.
 */
export function startWorker(file: string, o: StartOptions = {}): Worker {
  const opts = { ...(o.workerData !== undefined ? { workerData: o.workerData } : {}), ...(o.resourceLimits ? { resourceLimits: o.resourceLimits } : {}) };
  try {
    return new Worker(file, { ...opts, execArgv: workerExecArgv() });
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    return new Worker(file, { ...opts, execArgv: [] });
  }
}

/** Workers started ahead of a pool (`EarlyWorkers`, or a test's own). */
export interface Early {
  take(): { workers: Worker[]; error: (i: number) => Error | undefined } | undefined;
}

/**
 * Workers started ahead of their pool (a worker takes a while to start, and that can overlap other work).
 * A pool takes them over (`WorkerPool`'s `early`); `dispose` ends them if no pool did.
 */
export class EarlyWorkers implements Early {
  private workers: Worker[] | undefined;
  // an error before a pool takes them over (a worker that cannot start) is kept for that pool to report, per
  // worker: a pool that needs fewer workers ends the others and does not fail for theirs
  private readonly errors: Array<Error | undefined> = [];
  constructor(file: string, threads: number) {
    this.workers = Array.from({ length: threads }, () => startWorker(file));
    this.workers.forEach((w, i) => w.on('error', (e) => (this.errors[i] ??= e)));
  }
  /** The workers, once: the first pool gets them, later ones start their own. `error(i)`: worker i's first error. */
  take(): { workers: Worker[]; error: (i: number) => Error | undefined } | undefined {
    const w = this.workers;
    this.workers = undefined;
    return w ? { workers: w, error: (i) => this.errors[i] } : undefined;
  }
  async dispose(): Promise<void> {
    const w = this.workers;
    this.workers = undefined;
    if (w) await Promise.all(w.map((x) => x.terminate()));
  }
}

export interface PoolOptions extends StartOptions {
  /** What the workers do, for the message when one ends unasked (say 'an extraction worker'). */
  label: string;
  /** What a worker that ends unasked had not done yet, for that message (say 'closing its staging files'). */
  before?: string;
  /** Worker i's workerData (instead of one `workerData` for all). */
  workerDataOf?: (i: number) => unknown;
  /** Workers started already: as many as the pool needs are taken over, any more are ended. */
  early?: Early;
  /** The error a worker's failed request rejects with (default: its message as is). */
  requestError?: (message: string) => Error;
  /** A failed worker rejects every request in flight, not only its own (callers that read answers in order). */
  failAll?: boolean;
}

interface Held {
  w: Worker;
  busy: number;
  /** The worker has answered `close` (its files are complete). */
  closed: boolean;
  /** Settles when the worker has answered `close`, failed or gone away. */
  ended: Promise<void>;
  end(): void;
}

/**
 * `threads` workers of one file answering requests (serve.ts): each request goes to the least busy worker
 * (or the one named), and its promise settles with that worker's answer. A worker that fails (an error it
 * did not catch, or it ends unasked) fails the pool: its requests in flight are rejected (every request,
 * with `failAll`) and later requests reject with the same error.
 */
export class WorkerPool<Req, Res> {
  private readonly held: Held[];
  private readonly pending = new Map<number, { resolve(r: Res): void; reject(e: Error): void; worker: number }>();
  private readonly waiters: Array<{ limit: number; wake(): void }> = [];
  private nextId = 0;
  private ending = false;
  /** The first failure of any worker. */
  failed: Error | undefined;

  /** A pool of the bundled worker `name`; undefined when there is none (running from sources). */
  static start<Req, Res>(name: string, threads: number, o: PoolOptions): WorkerPool<Req, Res> | undefined {
    const file = workerFile(name);
    return file ? new WorkerPool<Req, Res>(file, threads, o) : undefined;
  }

  constructor(file: string, readonly threads: number, private readonly o: PoolOptions) {
    const early = o.early?.take();
    for (const w of early?.workers.slice(threads) ?? []) w.terminate().catch(() => undefined);
    const started: Worker[] = [];
    try {
      for (let i = 0; i < threads; i++) {
        const data = o.workerDataOf ? o.workerDataOf(i) : o.workerData;
        started.push(early?.workers[i] ?? startWorker(file, { ...(data !== undefined ? { workerData: data } : {}), ...(o.resourceLimits ? { resourceLimits: o.resourceLimits } : {}) }));
      }
    } catch (e) {
      // a worker that cannot be started: end the ones this pool already holds, or they keep the process alive
      for (const w of [...started, ...(early?.workers.slice(started.length, threads) ?? [])]) w.terminate().catch(() => undefined);
      throw e;
    }
    this.held = started.map((w) => {
      let end = () => undefined as void;
      const ended = new Promise<void>((r) => (end = r));
      return { w, busy: 0, closed: false, ended, end };
    });
    if (early) this.failed = this.held.map((_, i) => early.error(i)).find((e) => e !== undefined);
    this.held.forEach((x, i) => {
      x.w.on('message', (m: FromWorker<Res>) => this.answer(x, m));
      x.w.on('error', (e) => this.lost(i, e));
      x.w.on('exit', (code) => {
        if (!x.closed && !this.ending) this.lost(i, new Error(`${o.label} ended (exit code ${code})${o.before ? ` before ${o.before}` : ''}`));
      });
    });
  }

  private answer(x: Held, m: FromWorker<Res>): void {
    if ('closed' in m) {
      x.closed = true;
      x.end();
      return;
    }
    if (!('id' in m)) return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    x.busy--;
    if ('error' in m) p.reject(this.o.requestError ? this.o.requestError(m.error) : new Error(m.error));
    else p.resolve(m.value);
    this.wake();
  }

  /** Worker i failed or went away: the pool fails, its requests in flight (or all, `failAll`) are rejected. */
  private lost(i: number, e: Error): void {
    this.failed ??= e;
    for (const [id, p] of this.pending) {
      if (p.worker !== i && !this.o.failAll) continue;
      this.pending.delete(id);
      p.reject(e);
    }
    this.held[i]!.end();
    this.wake();
  }

  private wake(): void {
    for (let k = 0; k < this.waiters.length; ) {
      if (this.pending.size < this.waiters[k]!.limit) this.waiters.splice(k, 1)[0]!.wake();
      else k++;
    }
  }

  /** Send `req` to worker `o.worker`, else the least busy one (the first of the least busy); `transfer` moves memory. */
  request(req: Req, o: { worker?: number; transfer?: Transferable[] } = {}): Promise<Res> {
    if (this.failed) return Promise.reject(this.failed);
    let i = o.worker ?? 0;
    if (o.worker === undefined) for (let k = 1; k < this.held.length; k++) if (this.held[k]!.busy < this.held[i]!.busy) i = k;
    const id = this.nextId++;
    const x = this.held[i]!;
    x.busy++;
    return new Promise<Res>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: i });
      const msg: ToWorker<Req> = { id, req };
      x.w.postMessage(msg, o.transfer ?? []);
    });
  }

  /** A message outside the request protocol (the worker's `other`), to worker i. */
  post(i: number, message: unknown, transfer: Transferable[] = []): void {
    this.held[i]!.w.postMessage(message, transfer);
  }

  /** Resolves when fewer than `limit` requests are in flight (to bound the memory held by queued work). */
  below(limit: number): Promise<void> {
    if (this.pending.size < limit) return Promise.resolve();
    return new Promise<void>((wake) => this.waiters.push({ limit, wake }));
  }

  /**
   * End the workers. `drain`: first ask each to close (the worker's `close`: its files complete) and wait for
   * the answer, unless the pool has failed, and throw the pool's failure. `wait`: wait for the threads to
   * end; without it they are ended without waiting (tearing down a worker's heap took 140 ms, measured, that
   * the caller would otherwise wait for).
   */
  async close(o: { drain: boolean; wait: boolean }): Promise<void> {
    if (o.drain && !this.failed) {
      for (const x of this.held) x.w.postMessage({ close: true } satisfies ToWorker<Req>);
      await Promise.all(this.held.map((x) => x.ended));
    }
    this.ending = true;
    if (o.wait) await Promise.all(this.held.map((x) => x.w.terminate()));
    else {
      for (const x of this.held) {
        x.w.unref();
        x.w.terminate().catch(() => undefined);
      }
    }
    if (o.drain && this.failed) throw this.failed;
  }
}
