/** `--batch` for any POST route command and for `publicdata api POST PATH --batch`. */
import { ApiError } from '../src/contract/errors.js';
import { matchRoute } from '../src/registry.js';
import type { RouteCall } from '../src/contract/types.js';
import type { Context } from '../src/context.js';
import { runBatch } from '../src/batch.js';
import { chooseBackend, handlerContext } from '../src/backends/select.js';
import { printError, type GlobalOptions } from '../src/invoke.js';

export async function runBatchCommand(ctx: Context, call: RouteCall, g: GlobalOptions): Promise<number> {
  try {
    const { route } = matchRoute(call.method, call.path);
    if (route.method !== 'POST') throw new ApiError(400, 'usage_error', `--batch takes request bodies, so it needs a POST route (not ${route.method} ${route.path}).`);
    const backend = await chooseBackend(ctx, route, {
      source: g.source,
      verbose: g.verbose,
      ...(g.maxWait !== undefined ? { maxWait: g.maxWait } : {}),
      ...(g.maxCredits !== undefined ? { maxCredits: g.maxCredits } : {}),
    });
    const hctx = backend.kind === 'local' ? await handlerContext(ctx) : undefined;
    const baseBody = (call.body && typeof call.body === 'object' ? call.body : {}) as Record<string, unknown>;
    try {
      return await runBatch(ctx, { route, path: call.path, query: call.query, baseBody }, backend, hctx);
    } finally {
      await (backend as { close?: () => Promise<void> }).close?.();
    }
  } catch (e) {
    if (e instanceof ApiError) return printError(ctx, e, g);
    throw e;
  }
}
