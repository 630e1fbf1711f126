/** `--batch` for any POST route command and for `publicdata api POST PATH --batch`. */
import { ApiError } from '../src/contract/errors.js';
import type { RouteCall } from '../src/contract/types.js';
import type { Context } from '../src/context.js';
import { runBatch } from '../src/batch.js';
import { prepareParams } from '../src/runner.js';
import { matchLoading } from '../src/registry.js';
import { backendOptions, printError, type GlobalOptions } from '../src/invoke.js';

export async function runBatchCommand(ctx: Context, call: RouteCall, g: GlobalOptions, askedFormat?: string): Promise<number> {
  try {
    // One JSON envelope per input line: a --format csv or table asked for would not be honoured (the
    // table a terminal defaults to is not asked for: the envelopes print as NDJSON there too).
    if (askedFormat === 'csv' || askedFormat === 'table') {
      throw new ApiError(400, 'usage_error', `--batch writes one JSON envelope per input line (NDJSON): --format ${askedFormat} does not apply; use --format ndjson (or json).`);
    }
    // Path and query are validated once, before any backend is chosen; each line's body is validated in turn.
    const m = await matchLoading(call.method, call.path);
    const { route } = m;
    if (route.method !== 'POST') throw new ApiError(400, 'usage_error', `--batch takes request bodies, so it needs a POST route (not ${route.method} ${route.path}).`);
    const prepared = prepareParams(call, m);
    const opts = backendOptions(g);
    const backend = await ctx.backend(route, opts);
    const baseBody = (call.body && typeof call.body === 'object' ? call.body : {}) as Record<string, unknown>;
    return await runBatch(ctx, { prepared, path: call.path, query: call.query, baseBody }, backend, opts);
  } catch (e) {
    if (e instanceof ApiError) return printError(ctx, e, g);
    throw e;
  }
}
