/**
 * Batch worker thread: runs chunks of NDJSON lines through a route's local handler. Started by
 * src/batch.ts for large local batches so every core works; results return in chunk order.
 */
import { workerData } from 'node:worker_threads';
import { serve } from './workers/serve.js';
import { routeByIdLoading } from './registry.js';
import { loadDocument, loadHandler } from './runner.js';
import { runChunk, type Chunk, type LineRunner, type LineSink } from './batch-line.js';

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

/** The route's runner (no top-level await: the worker is bundled as CommonJS, see scripts/bundle.mjs). */
async function makeRunner(): Promise<LineRunner> {
  const route = await routeByIdLoading(init.routeId);
  const handler = await loadHandler(route.local!); // the main thread runs only routes with a local handler here
  const document = await loadDocument(route);
  return {
    ...(document ? { document } : {}),
    route,
    handler,
    hctx: { now: () => new Date(init.nowMs), env: init.env, mirrorDir: init.mirrorDir, cacheDir: init.cacheDir },
    baseBody: init.baseBody,
    params: init.params,
    query: init.query,
  };
}

/**
 * Results go back UTF-8 encoded in an ArrayBuffer whose memory is transferred (not copied): the encoding is
 * done here, in parallel, each envelope written straight into the buffer as it is made (no joined text of
 * the chunk). The main thread transfers each buffer back once stdout has taken its bytes, and it is
 * reused: the memory in use stays a few buffers per worker for any input size (a fresh buffer per chunk
 * left tens of MB of spent buffers waiting for the main thread's next garbage collection).
 */
let size = 1 << 21; // grows to what a chunk has needed, so later buffers start big enough
class ByteSink implements LineSink {
  buf: Buffer;
  pos = 0;
  constructor(ab: ArrayBuffer | undefined) {
    this.buf = ab && ab.byteLength >= size ? Buffer.from(ab) : Buffer.allocUnsafeSlow(size);
  }
  line(json: string): void {
    const need = json.length * 3 + 1; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.buf.length - this.pos < need) {
      size = Math.max(this.buf.length * 2, this.pos + need);
      const bigger = Buffer.allocUnsafeSlow(size);
      this.buf.copy(bigger, 0, 0, this.pos);
      this.buf = bigger;
    }
    this.pos += this.buf.write(json, this.pos);
    this.buf[this.pos++] = 10;
  }
}

/** A chunk of lines; its bytes' buffer is the block's own, moved here. */
export type BatchRequest = Chunk;
/** A chunk's envelopes (`bytes`, `length` of them used), its first failure's exit code, and its input buffer handed back. */
export interface BatchResult {
  bytes: ArrayBuffer;
  length: number;
  firstFailure: number;
  input: ArrayBuffer;
}

const spare: ArrayBuffer[] = [];
// Messages wait in the port's queue until the listener is attached, once the runner is made.
function start(runner: LineRunner): void {
  serve<BatchRequest, BatchResult>({
    other: (m) => void spare.push((m as { spare: ArrayBuffer }).spare),
    async request(m) {
      const sink = new ByteSink(spare.pop());
      const firstFailure = await runChunk(runner, m, sink);
      // The input block's buffer goes back too: the main thread reads later blocks into it (without that, the
      // main thread's small heap let ~100 MB of spent block buffers wait for a collection over 1M lines).
      return { bytes: sink.buf.buffer as ArrayBuffer, length: sink.pos, firstFailure, input: m.bytes.buffer as ArrayBuffer };
    },
    transfer: (r) => [r.bytes, r.input],
  });
}
// A failure to load the route rejects: an unhandled rejection ends the worker with an 'error' event, as
// the top-level await did.
void makeRunner().then(start);
