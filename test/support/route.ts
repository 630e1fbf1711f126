/**
 * Calling a route in process, as the local backend does (src/execute.ts: match, validate, run the
 * handler), with the fixed test clock unless a handler context is given. Every in-process route test
 * uses these instead of a local copy.
 */
import { callLocal } from '../../src/backends/local.js';
import type { CallResult, HandlerContext, HttpMethod } from '../../src/contract/types.js';
import { handlerCtx } from './handler-context.js';

export interface RouteResult extends CallResult {
  envelope: any;
}

/** One call of a route: query values are the raw strings a URL would carry. */
export async function callRoute(
  method: HttpMethod,
  path: string,
  opts: { query?: Record<string, string | string[]>; body?: unknown; ctx?: HandlerContext } = {},
): Promise<RouteResult> {
  const call = { method, path, query: opts.query ?? {}, ...(opts.body !== undefined ? { body: opts.body } : {}) };
  return (await callLocal(call, opts.ctx ?? handlerCtx())) as RouteResult;
}

export const getRoute = (path: string, query: Record<string, string | string[]> = {}, ctx?: HandlerContext): Promise<RouteResult> =>
  callRoute('GET', path, { query, ...(ctx ? { ctx } : {}) });

export const postRoute = (path: string, body: unknown, ctx?: HandlerContext, query: Record<string, string> = {}): Promise<RouteResult> =>
  callRoute('POST', path, { body, query, ...(ctx ? { ctx } : {}) });

/** The `data` of a 200 answer (fails loudly otherwise). */
export async function dataOf(p: Promise<CallResult> | CallResult): Promise<any> {
  const r = await p;
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${JSON.stringify(r.envelope)}`);
  return (r.envelope as any).data;
}

/** Status, code and message of an error answer. */
export function errorOf(r: CallResult): { status: number; code: string; message: string } {
  const e = (r.envelope as any)?.error;
  return { status: r.status, code: e?.code, message: e?.message };
}
