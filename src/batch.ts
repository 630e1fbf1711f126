/**
 * `--batch`: one request body per input line (NDJSON on stdin), one envelope per output line in the same
 * order. A bad line yields its error envelope and the batch goes on; the exit status is that of the first
 * failed line (0 when all succeed). Streams with constant memory: input is read chunk by chunk and output
 * is written in blocks, waiting for 'drain' when stdout pushes back.
 */
import { ApiError, EXIT, errorEnvelope, exitCodeFor } from './contract/errors.js';
import type { RouteSpec } from './contract/route.js';
import type { Envelope, HandlerContext, Handler } from './contract/types.js';
import { isErrorEnvelope } from './contract/types.js';
import { validateBodyFields } from './contract/validate.js';
import type { Context, Out } from './context.js';
import type { Backend } from './backends/types.js';

const FLUSH_AT = 1 << 16;

class BlockWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(private out: Out) {}
  async push(s: string): Promise<void> {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const ok = this.out.write(this.parts.join(''));
    this.parts = [];
    this.size = 0;
    if (ok === false && this.out.once) await new Promise<void>((r) => this.out.once!('drain', r));
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

export interface BatchTarget {
  route: RouteSpec;
  /** The concrete path for live calls. */
  path: string;
  /** Fields from flags, overridden by each line's fields. */
  baseBody: Record<string, unknown>;
  query: Record<string, string | string[]>;
}

function lineError(lineNo: number, e: unknown): { env: Envelope; status: number } {
  if (e instanceof ApiError) return { env: e.toEnvelope(), status: e.status };
  const msg = e instanceof Error ? e.message : String(e);
  return { env: errorEnvelope('bad_request', `Line ${lineNo}: ${msg}`), status: 400 };
}

export async function runBatch(ctx: Context, target: BatchTarget, backend: Backend, hctx: HandlerContext | undefined): Promise<number> {
  const { route } = target;
  const out = new BlockWriter(ctx.io.stdout);
  let firstFailure: number = EXIT.OK;
  let lineNo = 0;
  // Local fast path: resolve the handler once and call it directly.
  let handler: Handler | undefined;
  if (backend.kind === 'local' && route.local && hctx) handler = await route.local.handler();
  const hasBase = Object.keys(target.baseBody).length > 0;

  for await (const raw of lines(ctx.io.stdin)) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    let env: Envelope;
    let status = 200;
    try {
      let body: unknown;
      try {
        body = JSON.parse(line);
      } catch {
        throw new ApiError(400, 'bad_request', `Line ${lineNo}: not valid JSON.`);
      }
      if (hasBase && body && typeof body === 'object' && !Array.isArray(body)) body = { ...target.baseBody, ...body };
      if (handler && hctx) {
        const validated = route.bodyDocument ? body : validateBodyFields(route.body ?? [], body);
        const r = handler({ params: {}, query: target.query, body: validated }, hctx);
        env = r instanceof Promise ? await r : r;
      } else {
        const result = await backend.call({ method: route.method, path: target.path, query: target.query, body });
        env = result.envelope;
        status = result.status;
      }
    } catch (e) {
      ({ env, status } = lineError(lineNo, e));
    }
    if (isErrorEnvelope(env) && firstFailure === EXIT.OK) firstFailure = exitCodeFor(env.error.code, status);
    await out.push(`${JSON.stringify(env)}\n`);
  }
  await out.flush();
  return firstFailure;
}
