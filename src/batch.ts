/**
 * `--batch`: one request body per input line (NDJSON on stdin), one envelope per output line in the same
 * order. A bad line yields its error envelope and the batch goes on; the exit status is that of the first
 * failed line (0 when all succeed). Streams with constant memory: input is read chunk by chunk, output is
 * written in blocks, waiting for 'drain' when stdout pushes back, and at most a few chunks are in flight.
 *
 * Local batches larger than one chunk run on worker threads (src/workers/pool.ts; one per core,
 * PUBLICDATA_BATCH_WORKERS overrides, 0 or 1 disables): lines are independent, so throughput scales with cores.
 */
import { fstatSync, read as fsRead } from 'node:fs';
import { EXIT, exitCodeFor } from './contract/errors.js';
import type { HandlerContext } from './contract/types.js';
import { isErrorEnvelope } from './contract/types.js';
import type { Context, Out } from './context.js';
import type { BackendOptions } from './backends/types.js';
import type { Backend } from './backends/types.js';
import { lineError, parseLine, runChunk, TextSink, type Chunk, type LineRunner } from './batch-line.js';
import { execute } from './execute.js';
import { loadDocument, loadHandler, prepareBody, type Prepared } from './runner.js';
import type { BatchRequest, BatchResult } from './batch-worker.js';
import { batchThreads, workerFile } from './workers/settings.js';

const FLUSH_AT = 1 << 16;
const CHUNK_LINES = 2048;

class BlockWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(private out: Out) {}
  async push(s: string): Promise<void> {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }
  /**
   * A block already encoded (a worker's result): written as it is, after any text before it. `done` runs
   * once the output no longer needs the bytes (the write's callback), when the output reports it.
   */
  async pushBytes(b: Buffer, done: () => void): Promise<void> {
    await this.flush();
    await this.write(b, done);
  }
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    await this.write(text);
  }
  private async write(chunk: string | Buffer, done?: () => void): Promise<void> {
    if (this.out.write(chunk, done) === false && this.out.once) await new Promise<void>((r) => this.out.once!('drain', r));
  }
}

/** Lines of a stream, without loading it whole. */
export async function* lines(stream: NodeJS.ReadableStream): AsyncGenerator<string> {
  let rest = '';
  (stream as NodeJS.ReadableStream & { setEncoding?: (e: string) => void }).setEncoding?.('utf8');
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    const text = rest + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      yield text.slice(start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest.length) yield rest;
}

/**
 * The input as successive pieces of bytes, each valid only until the next is asked for. Standard input
 * that is a file is read straight from its descriptor into one reused buffer: a stream makes a
 * new 64 KiB buffer per read, and the main thread's heap is so small that it collected them rarely
 * (~50 MB of spent input buffers were held at the end of a 1,000,000-line batch).
 */
async function* pieces(stream: NodeJS.ReadableStream): AsyncGenerator<Buffer> {
  let direct = false;
  if (stream === process.stdin) {
    try {
      direct = fstatSync(0).isFile(); // not a pipe: Node makes a piped stdin non-blocking (EAGAIN)
    } catch {
      direct = false;
    }
  }
  if (!direct) {
    for await (const p of stream as AsyncIterable<string | Buffer>) yield typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
    return;
  }
  const buf = Buffer.allocUnsafeSlow(1 << 18);
  for (;;) {
    const n = await new Promise<number>((resolve, reject) => fsRead(0, buf, 0, buf.length, null, (e, got) => (e ? reject(e) : resolve(got))));
    if (n === 0) return;
    yield buf.subarray(0, n);
  }
}

/**
 * Blocks of up to `size` whole lines (the last block may end without a newline) as UTF-8 bytes, with the
 * 1-based number of their first line. Newlines are found with indexOf on the bytes read, which are copied
 * once into the block's own buffer (transferable to a worker): no decoding, string or promise per line
 * on this thread (the block's consumer cuts and decodes its lines).
 */
async function* chunks(stream: NodeJS.ReadableStream, size: number, spare: ArrayBuffer[] = []): AsyncGenerator<Chunk> {
  let block = Buffer.allocUnsafeSlow(1 << 18); // its own ArrayBuffer, never a slice of the shared pool
  let len = 0;
  let n = 0;
  let first = 1;
  const append = (b: Buffer, from: number, to: number) => {
    if (len + to - from > block.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(len + to - from, block.length * 2));
      block.copy(bigger, 0, 0, len);
      block = bigger;
    }
    len += b.copy(block, len, from, to);
  };
  const take = (): Chunk => {
    const c = { firstLine: first, bytes: block.subarray(0, len) };
    // The next block is about as large: a buffer a worker has handed back (see runLocal), or a new one.
    const again = spare.pop();
    block = again && again.byteLength >= block.length ? Buffer.from(again) : Buffer.allocUnsafeSlow(block.length);
    len = 0;
    return c;
  };
  for await (const b of pieces(stream)) {
    let from = 0;
    for (let nl = b.indexOf(10); nl >= 0; nl = b.indexOf(10, nl + 1)) {
      if (++n === size) {
        append(b, from, nl + 1);
        yield take();
        first += n;
        n = 0;
        from = nl + 1;
      }
    }
    if (from < b.length) append(b, from, b.length);
  }
  if (len) yield take();
}

export interface BatchTarget {
  /** The route with its path and query validated once for the whole batch (src/execute.ts prepareParams). */
  prepared: Prepared;
  /** The concrete path for live calls. */
  path: string;
  /** Fields from flags, overridden by each line's fields. */
  baseBody: Record<string, unknown>;
  /** The query as given (live calls send it as is). */
  query: Record<string, string | string[]>;
}

async function runLocal(ctx: Context, target: BatchTarget, hctx: HandlerContext): Promise<number> {
  const { route, request } = target.prepared;
  const document = await loadDocument(route);
  const runner: LineRunner = { route, handler: await loadHandler(route.local!), hctx, baseBody: target.baseBody, params: request.params, query: request.query, ...(document ? { document } : {}) };
  const out = new BlockWriter(ctx.io.stdout);
  let firstFailure: number = EXIT.OK;
  const note = (f: number) => {
    if (f !== EXIT.OK && firstFailure === EXIT.OK) firstFailure = f;
  };
  const nWorkers = batchThreads(ctx.env);
  const file = nWorkers > 1 ? workerFile('batch-worker') : undefined;
  const spareBlocks: ArrayBuffer[] = []; // input block buffers the workers have handed back
  const it = chunks(ctx.io.stdin, CHUNK_LINES, spareBlocks);
  let next = await it.next();
  // Small inputs (one chunk) and runs without a compiled worker stay on this thread.
  const second = next.done ? next : await it.next();
  if (!file || second.done) {
    const inThread = async (c: Chunk) => {
      const sink = new TextSink();
      note(await runChunk(runner, c, sink));
      await out.push(sink.text);
    };
    for (const c of [next, second]) if (!c.done) await inThread(c.value);
    for (let c = await it.next(); !c.done; c = await it.next()) await inThread(c.value);
    await out.flush();
    return firstFailure;
  }

  const init = {
    routeId: route.id,
    baseBody: target.baseBody,
    params: request.params,
    query: request.query,
    nowMs: hctx.now().getTime(),
    env: { ...hctx.env },
    mirrorDir: hctx.mirrorDir,
    cacheDir: hctx.cacheDir,
  };
  // A worker's garbage is short-lived (a line's parsed body and envelope), so a young generation of 12 MB
  // suffices; V8's default lets each worker's grow lazily to ~48 MB over a long run, which made peak RSS
  // grow with the input (1.4x from 100k to 1M lines) although nothing is kept.
  // A failed worker rejects every chunk in flight: the chunks are written in order.
  const { WorkerPool } = await import('./workers/pool.js'); // node:worker_threads only for a batch that uses it
  const pool = new WorkerPool<BatchRequest, BatchResult>(file, nWorkers, { label: 'a batch worker', workerData: init, resourceLimits: { maxYoungGenerationSizeMb: 12 }, failAll: true });
  type Result = BatchResult;
  const results: Array<Promise<Result> | undefined> = [];
  let id = 0;
  let written = 0;
  const maxInFlight = nWorkers * 3;
  const send = (c: Chunk) => {
    const myId = id++;
    const ab = c.bytes.buffer as ArrayBuffer; // the block's own buffer (chunks): moved, not copied
    const bytes = new Uint8Array(ab, c.bytes.byteOffset, c.bytes.byteLength);
    results.push(
      pool.request({ firstLine: c.firstLine, bytes }, { worker: myId % nWorkers, transfer: [ab] }).then((r) => {
        spareBlocks.push(r.input); // the block's input buffer, reused for a later block
        return r;
      }),
    );
  };
  const drainOne = async () => {
    const r = await results[written]!;
    results[written] = undefined; // release the chunk's text
    written++;
    note(r.firstFailure);
    // Once written, the buffer goes back to its worker for a later chunk (see src/batch-worker.ts). The
    // handback runs in the write's callback, which node's stdout (a file, pipe or socket) calls once the
    // bytes are out; an `Out` that kept the chunk after calling back would see it emptied by the transfer.
    const w = (written - 1) % nWorkers;
    await out.pushBytes(Buffer.from(r.bytes, 0, r.length), () => pool.post(w, { spare: r.bytes }, [r.bytes]));
  };
  try {
    send(next.value!);
    send(second.value!);
    for (next = await it.next(); !next.done; next = await it.next()) {
      while (id - written >= maxInFlight) await drainOne();
      send(next.value);
    }
    while (written < id) await drainOne();
    await out.flush();
  } finally {
    await pool.close({ drain: false, wait: true });
  }
  return firstFailure;
}

/**
 * Run a batch on the backend the context chose. Local routes with a handler run line by line in process
 * (or on worker threads); otherwise each line goes through `execute` in order (the live client paces and
 * budgets credits). Either way every line's body is validated before anything answers it: a bad line
 * gets its error envelope and makes no request.
 */
export async function runBatch(ctx: Context, target: BatchTarget, backend: Backend, opts: BackendOptions): Promise<number> {
  const { route } = target.prepared;
  if (backend.kind === 'local' && route.local) return runLocal(ctx, target, ctx.mirror());
  const out = new BlockWriter(ctx.io.stdout);
  const document = await loadDocument(route);
  let firstFailure: number = EXIT.OK;
  let lineNo = 0;
  for await (const raw of lines(ctx.io.stdin)) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    let json: string;
    let exit: number = EXIT.OK;
    try {
      const body = parseLine(line, lineNo, target.baseBody);
      const prepared = prepareBody(target.prepared, body, document);
      const result = await execute({ method: route.method, path: target.path, query: target.query, body }, ctx, opts, prepared);
      json = JSON.stringify(result.envelope);
      if (isErrorEnvelope(result.envelope)) exit = exitCodeFor(result.envelope.error.code, result.status);
    } catch (e) {
      const le = lineError(lineNo, e);
      json = JSON.stringify(le.env);
      exit = exitCodeFor((le.env as { error: { code: string } }).error.code, le.status);
    }
    if (exit !== EXIT.OK && firstFailure === EXIT.OK) firstFailure = exit;
    // Each answer written as it comes (each may have cost credits): an interrupt, or a reader that went
    // away (EPIPE ends the process, src/main.ts), loses none already paid for and sends no more.
    await out.push(`${json}\n`);
    await out.flush();
    // Out of credits (insufficient_credits, 402 or 429): every later line would be refused too; stop
    // sending, as --sweep and --all do.
    if (exit === EXIT.CREDITS) {
      ctx.io.stderr.write(`publicdata: out of credits at input line ${lineNo}; the lines after it were not sent\n`);
      break;
    }
  }
  await out.flush();
  return firstFailure;
}
