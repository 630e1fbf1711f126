/**
 * Admission to a dataset for `serve`: at most `limit` executions at once per dataset, the others wait
 * in a queue here, in JavaScript, rather than inside DuckDB (where a query waiting for the dataset's
 * connection holds one of libuv's four threads, which gzip and file reads need too, and cannot be
 * taken back). A waiter whose signal aborts (its client disconnected, its request timed out, the
 * server is stopping) leaves the queue and never runs: a burst of abandoned requests costs nothing.
 */
export class AbortedError extends Error {
  constructor() {
    super('The request was abandoned before it ran.');
    this.name = 'AbortedError';
  }
}

/**
 * A request's abort: `aborted` is a plain flag, and the AbortSignal is made only when something must
 * listen for it (a gate's queue, a shared GET). Most requests are never aborted, and an AbortController
 * with its signal (an EventTarget) costs more to make than a small calculation takes.
 */
export class RequestAbort {
  aborted = false;
  private controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
  }
}

interface Waiter {
  start: () => void;
}

export class Gate {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly limit: number) {}

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Run `fn` when a slot is free (at once if one is); rejects with AbortedError if `signal` aborts first. */
  async run<T>(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) throw new AbortedError();
    if (this.running >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const w: Waiter = {
          start: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new AbortedError());
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.queue.push(w);
      });
      // The slot was handed over by `release` (running already counts this waiter).
    } else this.running++;
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next.start();
    else this.running--;
  }
}
