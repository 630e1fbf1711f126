/**
 * The handler runner: match and validate a call (path, query, body and a body document) and run its
 * route's local handler. The local backend and the batch workers run calls through it; `execute`
 * (src/execute.ts) sits on top, choosing the backend. Nothing here knows about backends or the context.
 */
import { ApiError, errors } from './contract/errors.js';
import type { Match } from './contract/router.js';
import type { CallResult, Handler, HandlerContext, HandlerRequest, RecordSink, RouteCall } from './contract/types.js';
import type { DocumentValidator, LocalSpec } from './domains/manifest.js';
import type { RouteSpec } from './contract/route.js';
import { refuseUnsafeKeys, validateBody, validateCall, validateParams } from './contract/validate.js';
import { matchLoading, matchRoute, type Route } from './registry.js';

/** A call after matching and validation: what a local handler receives, and the route it belongs to. */
export interface Prepared {
  route: Route;
  pathValues: Record<string, string>;
  request: HandlerRequest;
}

/** A call that carries its validation (backends need not validate again). */
export interface PreparedCall extends RouteCall {
  prepared?: Prepared;
  /** `--all` on the local backend: the sink a streaming handler writes its records to. */
  sink?: RecordSink;
}

/**
 * Match (unless already matched) and validate a call: path, query and body against the route spec, and
 * a body document with its route's document validator. Throws ApiError with the contract's codes.
 */
export async function prepare(call: RouteCall, match?: Match<Route>): Promise<Prepared> {
  const m = match ?? (await matchLoading(call.method, call.path));
  return checkDocument({ route: m.route, pathValues: m.pathValues, request: validateCall(m.route, m.pathValues, call.query, call.body, m.route.document !== undefined) });
}

/**
 * The prepared call for a new body on an already validated path and query (one batch line), checked with
 * the route's document validator loaded once for the batch (`loadDocument`).
 */
export function prepareBody(base: Prepared, body: unknown, validate: DocumentValidator | undefined): Prepared {
  return { ...base, request: requestForBody(base.route, base.request, body, validate) };
}

/** Run the route's document validator (bodyDocument routes): 400 VALIDATION_ERROR with every detail. */
async function checkDocument(p: Prepared): Promise<Prepared> {
  const validate = await loadDocument(p.route);
  return validate ? { ...p, request: withDocument(p.request, validate) } : p;
}

/** A route's body-document validator, when it has one (loaded once per batch, not once per line). */
export async function loadDocument(route: Route): Promise<DocumentValidator | undefined> {
  return route.document ? route.document() : undefined;
}

/**
 * The document checked by its validator. A refused document is first walked for unsafe keys
 * (validateBody left that to here: a document the validator accepts has none), so a body with
 * `__proto__` is answered 400 bad_request naming it, as any other route's body is.
 */
function withDocument(request: HandlerRequest, validate: DocumentValidator): HandlerRequest {
  const r = validate(request.body);
  if (!r.ok) {
    refuseUnsafeKeys(request.body);
    throw errors.validation(r.details);
  }
  return { ...request, document: r.document };
}

/**
 * The request for one body on an already validated path and query, checked as a single call's is (body
 * fields, then the document with `validate` when the route has one). Synchronous, for batch lines.
 */
export function requestForBody(route: RouteSpec, base: Pick<HandlerRequest, 'params' | 'query'>, body: unknown, validate?: DocumentValidator): HandlerRequest {
  const request: HandlerRequest = { params: base.params, query: base.query, body: validateBody(route, body, validate !== undefined) };
  return validate ? withDocument(request, validate) : request;
}

/** Validate only the path and query of a matched call (a batch: its lines bring the bodies). */
export function prepareParams(call: RouteCall, match?: Match<Route>): Prepared {
  const m = match ?? matchRoute(call.method, call.path);
  const { params, query } = validateParams(m.route, m.pathValues, call.query);
  return { route: m.route, pathValues: m.pathValues, request: { params, query, body: undefined } };
}

export function notAvailableOffline(routeId: string, path: string): ApiError {
  return new ApiError(
    503,
    'not_available_offline',
    `${path} (${routeId}) has no offline handler yet. Set PUBLICDATA_API_KEY (or run 'publicdata auth login') to call it live.`,
  );
}

/** An ApiError as a local answer; anything else is a bug and propagates. */
export function errorResult(e: unknown): CallResult {
  if (e instanceof ApiError) return { status: e.status, envelope: e.toEnvelope(), source: 'local' };
  throw e;
}

/** Handlers once imported, by their route's local spec (node caches the import; the await of import() is not free). */
const loaded = new WeakMap<LocalSpec, Promise<Handler>>();
export function loadHandler(local: LocalSpec): Promise<Handler> {
  let pending = loaded.get(local);
  if (!pending) {
    pending = local.handler();
    loaded.set(local, pending);
    pending.catch(() => loaded.delete(local));
  }
  return pending;
}

/**
 * The context a handler gets: the caller's, plus `call` (another route's local handler, validated first)
 * for a handler that builds its answer from other domains' routes. Built over the caller's context with
 * Object.create, so its lazily resolved fields (mirrorDir) stay lazy; a sub-call never streams.
 */
const withCalls = new WeakMap<HandlerContext, HandlerContext>();
function withCall(hctx: HandlerContext): HandlerContext {
  if (hctx.call) return hctx;
  // Made once per context (serve answers every request over the same one): Object.create with
  // property descriptors makes slow dictionary objects, ~2% of serve's CPU per request when made each time.
  let out = withCalls.get(hctx);
  if (!out) withCalls.set(hctx, (out = makeWithCall(hctx)));
  return out;
}

function makeWithCall(hctx: HandlerContext): HandlerContext {
  const sub = Object.create(hctx, { sink: { value: undefined, enumerable: true } }) as HandlerContext;
  sub.call = async (c: RouteCall): Promise<CallResult> => {
    let p: Prepared;
    try {
      p = await prepare(c);
    } catch (e) {
      return errorResult(e);
    }
    return runHandler(p, sub, c.path);
  };
  return Object.create(hctx, { call: { value: sub.call, enumerable: true } }) as HandlerContext;
}

/** Run the route's local handler on a validated request. */
export async function runHandler(p: Prepared, hctx: HandlerContext, path: string): Promise<CallResult> {
  try {
    if (!p.route.local) throw notAvailableOffline(p.route.id, path);
    const handler = await loadHandler(p.route.local);
    return { status: 200, envelope: await handler(p.request, withCall(hctx)), source: 'local' };
  } catch (e) {
    return errorResult(e);
  }
}
