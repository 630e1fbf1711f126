/**
 * Batch worker thread: runs chunks of NDJSON lines through a route's local handler. Started by
 * src/batch.ts for large local batches so every core works; results return in chunk order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { routeById } from './registry.js';
import { runChunk, type Chunk, type LineRunner } from './batch-line.js';

interface Init {
  routeId: string;
  baseBody: Record<string, unknown>;
  /** Path and query parameters as validated on the main thread. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  nowMs: number;
  env: Record<string, string | undefined>;
  mirrorDir: string;
  cacheDir: string;
}

const init = workerData as Init;
const route = routeById(init.routeId);
const handler = await route.local!.handler(); // the main thread runs only routes with a local handler here
const runner: LineRunner = {
  route,
  handler,
  hctx: { now: () => new Date(init.nowMs), env: init.env, mirrorDir: init.mirrorDir, cacheDir: init.cacheDir },
  baseBody: init.baseBody,
  params: init.params,
  query: init.query,
};

// Results go back UTF-8 encoded, their memory transferred (not copied): the encoding is done here, in
// parallel, rather than by the main thread's stdout write.
const utf8 = new TextEncoder();
parentPort!.on('message', async (c: Chunk & { id: number }) => {
  const { text, firstFailure } = await runChunk(runner, c);
  const bytes = utf8.encode(text);
  parentPort!.postMessage({ id: c.id, bytes, firstFailure }, [bytes.buffer]);
});
parentPort!.postMessage({ ready: true });
