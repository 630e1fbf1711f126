/** One batch line: parse, merge with flag defaults, validate, run the handler, serialise the envelope. */
import { ApiError, EXIT, errorEnvelope, exitCodeFor } from './contract/errors.js';
import type { RouteSpec } from './contract/route.js';
import type { Envelope, Handler, HandlerContext } from './contract/types.js';
import { isErrorEnvelope } from './contract/types.js';
import { validateBodyFields } from './contract/validate.js';

export interface LineRunner {
  route: RouteSpec;
  handler: Handler;
  hctx: HandlerContext;
  baseBody: Record<string, unknown>;
  query: Record<string, unknown>;
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

/**
 * Run one line through the local handler. Returns the envelope's JSON and the exit code it implies.
 * Synchronous handlers stay synchronous (no promise per line).
 */
export function runLine(r: LineRunner, line: string, lineNo: number): { json: string; exit: number } | Promise<{ json: string; exit: number }> {
  let env: Envelope;
  let status = 200;
  try {
    const body = parseLine(line, lineNo, r.baseBody);
    const validated = r.route.bodyDocument ? body : validateBodyFields(r.route.body ?? [], body);
    const out = r.handler({ params: {}, query: r.query, body: validated }, r.hctx);
    if (out instanceof Promise) {
      return out.then(
        (e) => ({ json: JSON.stringify(e), exit: EXIT.OK }),
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
  return { json: JSON.stringify(env), exit: isErrorEnvelope(env) ? exitCodeFor(env.error.code, status) : EXIT.OK };
}
