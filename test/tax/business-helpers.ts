// Shared by test/tax/business-*.test.ts: call a route through the local backend with a fixed clock.
import { callLocal } from '../../src/backends/local.js';
import type { HandlerContext, HttpMethod } from '../../src/contract/types.js';
import { handlerCtx } from '../support/handler-context.js';

export const ctx: HandlerContext = handlerCtx();

export const ctxAt = (iso: string): HandlerContext => handlerCtx(iso);

export async function call(method: HttpMethod, path: string, body?: unknown, c: HandlerContext = ctx) {
  const r = await callLocal({ method, path, query: {}, ...(body !== undefined ? { body } : {}) }, c);
  return r as { status: number; envelope: any };
}

export async function post(path: string, body: unknown, c: HandlerContext = ctx) {
  return call('POST', path, body, c);
}

export async function get(path: string, c: HandlerContext = ctx) {
  return call('GET', path, undefined, c);
}

/** Expect an error envelope with status and code; returns the message. */
export function errorOf(r: { status: number; envelope: any }): { status: number; code: string; message: string } {
  return { status: r.status, code: r.envelope?.error?.code, message: r.envelope?.error?.message };
}
