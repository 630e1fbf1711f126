/**
 * The local backend: run the route's handler in process on the validated request (validating first
 * when the call comes unprepared). Answers with exactly the envelope the API would, including error
 * envelopes and their HTTP status.
 */
import type { CallResult, HandlerContext, RouteCall } from '../contract/types.js';
import { errorResult, notAvailableOffline, prepare, runHandler, type PreparedCall } from '../runner.js';
import type { Backend } from './types.js';

export { errorResult, notAvailableOffline };

/** Validate (unless the call carries its validation) and run the handler. */
export async function callLocal(call: PreparedCall, ctx: HandlerContext): Promise<CallResult> {
  let p;
  try {
    p = call.prepared ?? (await prepare(call));
  } catch (e) {
    return errorResult(e);
  }
  return runHandler(p, call.sink ? { ...ctx, sink: call.sink } : ctx, call.path);
}

export function createLocalBackend(ctx: HandlerContext): Backend {
  return { kind: 'local', call: (c: RouteCall) => callLocal(c, ctx) };
}
