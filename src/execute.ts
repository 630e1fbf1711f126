/**
 * The one execution path of a route call: match once, validate once (before any backend is chosen, so
 * a bad call gets the same error whichever backend would have answered and costs no credit), pick the
 * backend through the context, call it. Friendly commands, `publicdata api`, `--all` pages, `--sweep`
 * and batch lines (live and local, worker threads included) all come through here.
 */
import type { CallResult, RouteCall } from './contract/types.js';
import type { Backend, BackendOptions } from './backends/types.js';
import type { Context } from './context.js';
import { errorResult, prepare, type Prepared, type PreparedCall } from './runner.js';

/**
 * Execute one call: match, validate, choose the backend (`ctx.backend`, lazily built and shared for the
 * run), call. A validation error or a missing key is answered as its error envelope without any request.
 * `prepared` skips matching and validation when the caller has done them (invoke validates up front).
 */
export async function execute(call: RouteCall, ctx: Context, opts: BackendOptions, prepared?: Prepared): Promise<CallResult> {
  let p: Prepared;
  let backend: Backend;
  try {
    p = prepared ?? (await prepare(call));
    backend = await ctx.backend(p.route, opts);
  } catch (e) {
    return errorResult(e);
  }
  return callBackend(backend, call, p);
}

/**
 * Call a backend already chosen for the call's route (invoke chooses once per command, then calls it for
 * the answer or for each `--all` page): match and validate unless `prepared` says it was done.
 */
export async function callBackend(backend: Backend, call: RouteCall, prepared?: Prepared): Promise<CallResult> {
  try {
    const c: PreparedCall = { ...call, prepared: prepared ?? (await prepare(call)) };
    return await backend.call(c);
  } catch (e) {
    return errorResult(e);
  }
}
