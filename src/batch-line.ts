/**
 * One batch line: parse, merge with flag defaults, validate the body and its document as a single call's
 * (src/runner.ts; the path and query were validated once for the batch), run the handler, serialise the envelope.
 */
import { ApiError, EXIT, errorEnvelope, exitCodeFor } from './contract/errors.js';
import { hasJsonText, JSON_TEXT } from './contract/json-text.js';
import type { RouteSpec } from './contract/route.js';
import type { Envelope, Handler, HandlerContext } from './contract/types.js';
import { isErrorEnvelope } from './contract/types.js';
import type { DocumentValidator } from './domains/manifest.js';
import { requestForBody } from './runner.js';

export interface LineRunner {
  route: RouteSpec;
  handler: Handler;
  hctx: HandlerContext;
  baseBody: Record<string, unknown>;
  /** Path and query parameters, validated once for the whole batch. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The route's body-document validator (VAT return), loaded once for the batch: each line is checked as a single call is. */
  document?: DocumentValidator;
}

export function lineError(lineNo: number, e: unknown): { env: Envelope; status: number } {
  if (e instanceof ApiError) return { env: e.toEnvelope(), status: e.status };
  const msg = e instanceof Error ? e.message : String(e);
  return { env: errorEnvelope('bad_request', `Line ${lineNo}: ${msg}`), status: 400 };
}

export function parseLine(line: string, lineNo: number, baseBody: Record<string, unknown>): unknown {
  let body: unknown;
  try {
    body = JSON.parse(line);
  } catch {
    throw new ApiError(400, 'bad_request', `Line ${lineNo}: not valid JSON.`);
  }
  for (const _ in baseBody) {
    if (body && typeof body === 'object' && !Array.isArray(body)) body = { ...baseBody, ...body };
    break;
  }
  return body;
}

/** Whether every object inside `v` (itself included) is frozen: what a cached serialisation needs. */
function deepFrozen(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === 'object' && x !== null && !deepFrozen(x)) return false;
  }
  return true;
}

/**
 * The JSON of deeply frozen metas, serialised once: a calculator answers all of a batch's lines with one
 * shared meta (often most of an envelope's bytes), which cannot change once frozen.
 */
const metaJson = new WeakMap<object, string>();

/**
 * An envelope's JSON, as JSON.stringify writes it. An envelope of exactly `data` then `meta` whose meta is
 * deeply frozen is written as `{"data":…,"meta":…}` with the meta's cached text, and the data's own JSON text
 * when it writes one (JSON_TEXT): the same bytes.
 */
export function envelopeJson(env: Envelope): string {
  const e = env as { data?: unknown; meta?: unknown };
  const m = e.meta;
  if (typeof m !== 'object' || m === null || !Object.isFrozen(m)) return JSON.stringify(env);
  // (toJSON would be called with the key 'data' by JSON.stringify(env) and with '' here)
  if (typeof e.data !== 'object' || e.data === null || 'toJSON' in e.data) return JSON.stringify(env);
  // Exactly the own keys data then meta (what JSON.stringify would write, in that order).
  const keys = Object.keys(env);
  if (keys.length !== 2 || keys[0] !== 'data' || keys[1] !== 'meta') return JSON.stringify(env);
  let j = metaJson.get(m);
  if (j === undefined) {
    if (!deepFrozen(m)) return JSON.stringify(env);
    j = JSON.stringify(m);
    metaJson.set(m, j);
  }
  // A data object that writes its own JSON (src/contract/json-text.ts) gives the same bytes as JSON.stringify.
  return `{"data":${hasJsonText(e.data) ? e.data[JSON_TEXT]() : JSON.stringify(e.data)},"meta":${j}}`;
}

/**
 * Run one line through the local handler. Returns the envelope's JSON and the exit code it implies.
 * Synchronous handlers stay synchronous (no promise per line).
 */
export function runLine(r: LineRunner, line: string, lineNo: number): { json: string; exit: number } | Promise<{ json: string; exit: number }> {
  let env: Envelope;
  let status = 200;
  try {
    const body = parseLine(line, lineNo, r.baseBody);
    const out = r.handler(requestForBody(r.route, r, body, r.document), r.hctx);
    if (out instanceof Promise) {
      return out.then(
        (e) => ({ json: envelopeJson(e), exit: EXIT.OK }),
        (e) => {
          const le = lineError(lineNo, e);
          return { json: JSON.stringify(le.env), exit: exitCodeFor((le.env as { error: { code: string } }).error.code, le.status) };
        },
      );
    }
    env = out;
  } catch (e) {
    ({ env, status } = lineError(lineNo, e));
  }
  return { json: envelopeJson(env), exit: isErrorEnvelope(env) ? exitCodeFor(env.error.code, status) : EXIT.OK };
}

export interface Chunk {
  /** 1-based number of the first line. */
  firstLine: number;
  /**
   * Whole lines as UTF-8 bytes, newline-separated (the last may lack its newline); blank lines count but
   * yield nothing. Bytes, not text: the main thread neither decodes nor concatenates the input, a chunk
   * moves to a worker by transfer (no copy), and each line is decoded only when it is run, so no
   * chunk-sized string lives long enough to be promoted to the old generation.
   */
  bytes: Uint8Array;
}

/** Where a chunk's envelopes go, one JSON text per non-empty line (the sink adds the newline). */
export interface LineSink {
  line(json: string): void;
}

/** A sink that keeps the lines as one newline-terminated text (the main thread's own chunks). */
export class TextSink implements LineSink {
  text = '';
  line(json: string): void {
    this.text += `${json}\n`;
  }
}

/**
 * Run a chunk of lines into `sink`: used on the main thread and by the worker threads alike. Returns the
 * exit code of the first failed line, or 0. Stays synchronous while the handler is (the calculators),
 * switching to awaiting only if a handler returns a promise.
 */
export function runChunk(r: LineRunner, c: Chunk, sink: LineSink): number | Promise<number> {
  // Lines are cut one at a time: a newline byte (10) never occurs inside a multi-byte UTF-8 character,
  // so decoding line by line gives the text a whole-stream decoder would.
  const buf = Buffer.from(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength);
  const end = buf.length;
  let firstFailure: number = EXIT.OK;
  const add = (res: { json: string; exit: number }) => {
    if (res.exit !== EXIT.OK && firstFailure === EXIT.OK) firstFailure = res.exit;
    sink.line(res.json);
  };
  let start = 0;
  let lineNo = c.firstLine;
  let n = 0; // the number of the line `next` returned
  /** The block's next non-empty line (trimmed), or undefined at its end. */
  const next = (): string | undefined => {
    while (start <= end) {
      let nl = buf.indexOf(10, start);
      if (nl < 0) nl = end;
      const line = buf.toString('utf8', start, nl).trim();
      n = lineNo++;
      start = nl + 1;
      if (line !== '') return line;
    }
    return undefined;
  };
  for (let line = next(); line !== undefined; line = next()) {
    const res = runLine(r, line, n);
    if (res instanceof Promise) return finishAsync(res);
    add(res);
  }
  return firstFailure;

  async function finishAsync(pending: Promise<{ json: string; exit: number }>): Promise<number> {
    add(await pending);
    for (let line = next(); line !== undefined; line = next()) add(await runLine(r, line, n));
    return firstFailure;
  }
}
