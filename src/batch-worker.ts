/**
 * Batch worker thread: runs chunks of NDJSON lines through a route's local handler. Started by
 * src/batch.ts for large local batches so every core works; results return in chunk order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EXIT } from './contract/errors.js';
import { routeById } from './contract/routes/index.js';
import { runLine, type LineRunner } from './batch-line.js';

interface Init {
  routeId: string;
  baseBody: Record<string, unknown>;
  query: Record<string, unknown>;
  nowMs: number;
  env: Record<string, string | undefined>;
  mirrorDir: string;
  cacheDir: string;
}
interface Chunk {
  id: number;
  firstLine: number;
  lines: string[];
}

const init = workerData as Init;
const route = routeById(init.routeId);
const handler = await route.local!.handler();
const runner: LineRunner = {
  route,
  handler,
  hctx: { now: () => new Date(init.nowMs), env: init.env, mirrorDir: init.mirrorDir, cacheDir: init.cacheDir },
  baseBody: init.baseBody,
  query: init.query,
};

parentPort!.on('message', async (c: Chunk) => {
  const parts: string[] = [];
  let firstFailure: number = EXIT.OK;
  for (let i = 0; i < c.lines.length; i++) {
    const line = c.lines[i]!.trim();
    if (line === '') continue;
    let r = runLine(runner, line, c.firstLine + i);
    if (r instanceof Promise) r = await r;
    if (r.exit !== EXIT.OK && firstFailure === EXIT.OK) firstFailure = r.exit;
    parts.push(r.json, '\n');
  }
  parentPort!.postMessage({ id: c.id, text: parts.join(''), firstFailure });
});
parentPort!.postMessage({ ready: true });
