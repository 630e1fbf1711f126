// Shared by test/tax/business-*.test.ts: call a route in process (test/support/route.ts) with a fixed clock.
import type { HandlerContext, HttpMethod } from '../../src/contract/types.js';
import { handlerCtx } from '../support/handler-context.js';
import { callRoute, errorOf } from '../support/route.js';

export { errorOf };

export const ctx: HandlerContext = handlerCtx();

export const ctxAt = (iso: string): HandlerContext => handlerCtx(iso);

export async function call(method: HttpMethod, path: string, body?: unknown, c: HandlerContext = ctx) {
  return callRoute(method, path, { ...(body !== undefined ? { body } : {}), ctx: c });
}

export async function post(path: string, body: unknown, c: HandlerContext = ctx) {
  return call('POST', path, body, c);
}

export async function get(path: string, c: HandlerContext = ctx) {
  return call('GET', path, undefined, c);
}

