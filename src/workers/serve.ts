/**
 * The worker's side of a `WorkerPool` (pool.ts): every `<name>-worker.ts` calls `serve` once. A request
 * `{ id, req }` is answered `{ id, value }` (or `{ id, error }` with the message of what it threw); `{ close:
 * true }` runs `close` and is answered `{ closed: true }`; any other message goes to `other`.
 */
import { parentPort, type Transferable } from 'node:worker_threads';

export type ToWorker<Req> = { id: number; req: Req } | { close: true };
export type FromWorker<Res> = { id: number; value: Res } | { id: number; error: string } | { closed: true };

export interface Served<Req, Res> {
  /** Answer one request. */
  request(req: Req): Res | Promise<Res>;
  /** Memory the answer moves to the parent rather than copies. */
  transfer?(res: Res): Transferable[];
  /** Finish (close files) before the pool ends the worker. */
  close?(): void;
  /** A message outside the protocol (say the worker's staging files, or a buffer handed back). */
  other?(message: unknown): void;
  /** One message at a time, in the order sent (a request that awaits holds back the next); else each as it comes. */
  serial?: boolean;
}

export function serve<Req, Res>(s: Served<Req, Res>): void {
  const port = parentPort;
  if (!port) throw new Error('a worker module runs as a worker thread only');
  const handle = async (m: ToWorker<Req> | Record<string, unknown>): Promise<void> => {
    if ('close' in m && m.close === true) {
      s.close?.();
      port.postMessage({ closed: true } satisfies FromWorker<Res>);
      return;
    }
    if (!('req' in m) || typeof m.id !== 'number') {
      s.other?.(m);
      return;
    }
    const id = m.id;
    let res: Res;
    try {
      res = await s.request(m.req as Req);
    } catch (e) {
      port.postMessage({ id, error: (e as Error).message } satisfies FromWorker<Res>);
      return;
    }
    port.postMessage({ id, value: res } satisfies FromWorker<Res>, s.transfer?.(res) ?? []);
  };
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: ToWorker<Req> | Record<string, unknown>) => {
    if (s.serial) queue = queue.then(() => handle(m));
    else void handle(m);
  });
}
