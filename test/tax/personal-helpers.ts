/** Shared helpers for the personal-tax tests: call a route through the local backend with a fixed clock. */
import { callLocal } from '../../src/backends/local.js';
import type { CallResult, HandlerContext } from '../../src/contract/types.js';
import { handlerCtx } from '../support/handler-context.js';

export const ctx: HandlerContext = handlerCtx();

export const post = (path: string, body: unknown): Promise<CallResult> => callLocal({ method: 'POST', path, query: {}, body }, ctx);
export const get = (path: string, query: Record<string, string> = {}): Promise<CallResult> => callLocal({ method: 'GET', path, query }, ctx);

/** The `data` of a 200 answer (fails loudly otherwise). */
export async function data(p: Promise<CallResult>): Promise<any> {
  const r = await p;
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${JSON.stringify(r.envelope)}`);
  return (r.envelope as any).data;
}

/** The error code and status of an error answer. */
export async function err(p: Promise<CallResult>): Promise<{ status: number; code: string; message: string }> {
  const r = await p;
  const e = (r.envelope as any).error;
  return { status: r.status, code: e?.code, message: e?.message };
}
