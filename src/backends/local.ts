/**
 * The local backend: validate the call against the route table, then run the route's handler in process.
 * Answers with exactly the envelope the API would, including error envelopes and their HTTP status.
 */
import { ApiError } from '../contract/errors.js';
import { matchRoute } from '../registry.js';
import type { CallResult, HandlerContext, RouteCall } from '../contract/types.js';
import { validateCall } from '../contract/validate.js';
import type { Backend } from './types.js';

export function notAvailableOffline(routeId: string, path: string): ApiError {
  return new ApiError(
    503,
    'not_available_offline',
    `${path} (${routeId}) has no offline handler yet. Set PUBLICDATA_API_KEY (or run 'publicdata auth login') to call it live.`,
  );
}

export function errorResult(e: unknown): CallResult {
  if (e instanceof ApiError) return { status: e.status, envelope: e.toEnvelope(), source: 'local' };
  throw e;
}

export async function callLocal(call: RouteCall, ctx: HandlerContext): Promise<CallResult> {
  try {
    const { route, pathValues } = matchRoute(call.method, call.path);
    const req = validateCall(route, pathValues, call.query, call.body);
    if (!route.local) throw notAvailableOffline(route.id, call.path);
    const handler = await route.local.handler();
    const envelope = await handler(req, ctx);
    return { status: 200, envelope, source: 'local' };
  } catch (e) {
    return errorResult(e);
  }
}

export function createLocalBackend(ctx: HandlerContext): Backend {
  return { kind: 'local', call: (c) => callLocal(c, ctx) };
}
