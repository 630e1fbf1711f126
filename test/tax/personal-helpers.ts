/** Shared helpers for the personal-tax tests: call a route in process (test/support/route.ts) with a fixed clock. */
import type { CallResult, HandlerContext } from '../../src/contract/types.js';
import { handlerCtx } from '../support/handler-context.js';
import { dataOf, errorOf, getRoute, postRoute } from '../support/route.js';

export const ctx: HandlerContext = handlerCtx();

export const post = (path: string, body: unknown): Promise<CallResult> => postRoute(path, body, ctx);
export const get = (path: string, query: Record<string, string> = {}): Promise<CallResult> => getRoute(path, query, ctx);

/** The `data` of a 200 answer (fails loudly otherwise). */
export const data = (p: Promise<CallResult>): Promise<any> => dataOf(p);

/** The error code and status of an error answer. */
export async function err(p: Promise<CallResult>): Promise<{ status: number; code: string; message: string }> {
  return errorOf(await p);
}
