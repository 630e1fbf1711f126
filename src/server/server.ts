/**
 * `publicdata serve`: the v1 API over HTTP (node:http, no framework), answered by the local handlers.
 *
 * One request, in order (docs/serve.md has the reasons):
 *   OPTIONS → 204 (CORS preflight when --cors allows the origin); GET /v1/ or /v1/openapi.json → the
 *   OpenAPI document (no key, no cost); other methods → 405; with --keys: Bearer key → 401, rate
 *   window → 429 (Retry-After); route → 404 / 405 / 501 (no local handler); body → 413 / 400 (JSON);
 *   validation → 400 (the local envelope); credits → 402; the handler (same status and envelope as `publicdata api … --source local`).
 * The body is parsed as JSON whatever its Content-Type says (curl -d sends form-urlencoded by default).
 * Credits: a request is charged its route's cost (GET/HEAD 1, POST 10) only when answered 2xx or 304;
 * every refusal and error costs 0. The cost is reserved before the handler runs (so concurrent requests
 * can never overspend) and given back when the answer is not a success.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { redact, redactUrl } from '../config.js';
import { ApiError, errorEnvelope } from '../contract/errors.js';
import { ROUTES, matchRoute, type Route } from '../registry.js';
import type { CallResult, Envelope, HttpMethod, RouteCall } from '../contract/types.js';
import { prepare, type PreparedCall } from '../runner.js';
import { CreditStore, type CreditStoreOptions, type Reservation } from './credits.js';
import { AbortedError, Gate } from './gate.js';
import { acceptsGzip, answerClientError, ClientGoneError, dateHeader, etagMatches, etagOf, HttpError, queryOf, readBody } from './http.js';
import { keyMatcher, type KeyPlan } from './keys.js';
import { openApiDocument } from './openapi.js';
import { RateLimiter, type RateDecision } from './ratelimit.js';
import { cacheable, gateKeys, methodsOf } from './routing.js';

export { isLoopback } from './routing.js';

const gzip = promisify(gzipCb);

export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
/** Executions at once per mirror dataset; more wait in the server's queue (src/server/gate.ts). */
export const DEFAULT_DATASET_CONCURRENCY = 2;
/** Cached answers of routes that read no mirror file (see `cacheable`): at most this many, and bytes. */
const ANSWER_CACHE_ENTRIES = 1000;
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
const HOUR_MS = 3_600_000;
/** Answers smaller than this are sent uncompressed (gzip would not pay for its header and CPU). */
const GZIP_MIN_BYTES = 1024;

export const MISSING_AUTH_MESSAGE = 'Missing or malformed Authorization header. Expected: Bearer <api_key>';
export const INVALID_KEY_MESSAGE = 'Invalid API key.';
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please retry after the period indicated in the Retry-After header.';
export const INSUFFICIENT_CREDITS_MESSAGE = 'Insufficient credits. This key has no credits left for this request; the monthly allowance renews on the 1st.';
export const SERVER_ERROR_MESSAGE = 'An unexpected error occurred on our end.';

export interface ServeOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Keys and plans; absent = single-user mode (no authentication, no limits, no credit accounting). */
  keys?: readonly KeyPlan[];
  /** Credit state file (required with keys). */
  stateFile?: string;
  /** Allowed CORS origin ('*' for any); absent = no CORS headers. */
  cors?: string;
  /** Runs a call locally (execute with source local); the call arrives matched and validated (`prepared`). */
  execute: (call: PreparedCall) => Promise<CallResult>;
  /** Access log line sink (absent with --quiet). */
  accessLog?: (line: string) => void;
  /** Errors that must reach the operator whatever --quiet says (internal errors, credit file writes). */
  errorLog?: (line: string) => void;
  /** Server clock, ms since the epoch (rate windows, credit months, Date header). */
  now?: () => number;
  /** Rate window length (default one minute; tests shorten it only together with an injected clock). */
  windowMs?: number;
  bodyLimit?: number;
  handlerTimeoutMs?: number;
  /** Executions at once per mirror dataset (default DEFAULT_DATASET_CONCURRENCY). */
  datasetConcurrency?: number;
  /** Time allowed to receive the headers / the whole request, ms. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /** Print stacks of internal errors. */
  debug?: boolean;
  /** Back-off of failed credit state writes (src/server/credits.ts; tests shorten it). */
  creditRetry?: CreditStoreOptions;
}

export interface RunningServer {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:8080/v1. */
  url: string;
  host: string;
  port: number;
  server: Server;
  /** Requests being answered now. */
  inflight(): number;
  /** Handler executions running now (possibly for requests already answered or abandoned). */
  executing(): number;
  /**
   * Stop accepting, finish requests in flight (at most graceMs; then their connections are closed and
   * work still queued for them is dropped), write the credit state.
   */
  close(graceMs?: number): Promise<void>;
  /** Write the credit state now (after `close`, before the process exits: a late refund is not lost). */
  flush(): Promise<void>;
  /**
   * Replace the keys (SIGHUP re-reads the keys file): a key no longer listed is refused (401) from the
   * next request on; balances and rate windows stay with each key's digest. Keyed mode only.
   */
  reloadKeys(keys: readonly KeyPlan[]): void;
}

type Answer = {
  status: number;
  body?: string;
  headers: Record<string, string>;
  /** The body comes from the answer cache (bytes and gzip computed once). */
  cached?: CachedAnswer;
};

/**
 * A 200 GET answer of a route that reads no mirror file, kept until the UTC hour changes: such an answer
 * depends only on the request, the shipped data (fixed for the process) and the date, and UK and UTC
 * days both begin on a whole UTC hour (HandlerContext.now). Serialised, tagged and gzipped once.
 */
interface CachedAnswer {
  route: Route;
  hour: number;
  body: Buffer;
  etag: string;
  gz?: Buffer;
}

/** Per request: aborted when its client goes away, it times out, or the server stops waiting for it. */
interface RequestState {
  abort: AbortController;
  /** What the access log reports. */
  log: { cost: number; key?: string };
  /**
   * The credits this request holds (reserved before its handler runs, kept when it is answered 2xx/304).
   * Given back if its connection closes before the answer is written (`release`): a request is charged
   * only when answered.
   */
  reservation?: Reservation;
}

const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Credits-Remaining, X-Credits-Cost, Retry-After, ETag';

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const now = opts.now ?? Date.now;
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const handlerTimeoutMs = opts.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
  const keyed = opts.keys !== undefined;
  if (keyed && !opts.stateFile) throw new Error('startServer: stateFile is required with keys');
  let findKey = keyed ? keyMatcher(opts.keys!) : undefined;
  const credits = keyed ? new CreditStore(opts.stateFile!, opts.creditRetry) : undefined;
  if (credits) {
    credits.onWriteError = (e, r) =>
      opts.errorLog?.(`credit state: could not write ${opts.stateFile} (${e.message}); retry ${r.failures} in ${(r.retryInMs / 1000).toFixed(1)} s`);
    credits.onWriteRecovered = (n) => opts.errorLog?.(`credit state: written to ${opts.stateFile} after ${n} failed attempt(s)`);
  }
  const limiter = new RateLimiter(opts.windowMs ?? 60_000);
  let closing = false;
  let inflight = 0;
  let idle: (() => void) | undefined;
  let baseUrl = '';
  let openapi: { body: string; etag: string } | undefined;
  const answers = new Map<string, CachedAnswer>();
  let answerBytes = 0;
  const gates = new Map<string, Gate>();
  const datasetConcurrency = opts.datasetConcurrency ?? DEFAULT_DATASET_CONCURRENCY;
  const httpDate = dateHeader();

  function remember(key: string, route: Route, body: string, etag: string, t: number): void {
    const entry: CachedAnswer = { route, hour: Math.floor(t / HOUR_MS), body: Buffer.from(body, 'utf8'), etag };
    const old = answers.get(key);
    if (old) {
      answers.delete(key);
      answerBytes -= old.body.length;
    }
    answers.set(key, entry);
    answerBytes += entry.body.length;
    // Oldest first (insertion order) until both bounds hold.
    for (const [k, v] of answers) {
      if (answers.size <= ANSWER_CACHE_ENTRIES && answerBytes <= ANSWER_CACHE_BYTES) break;
      answers.delete(k);
      answerBytes -= v.body.length;
    }
  }

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    if (!opts.cors) return {};
    const origin = req.headers.origin;
    if (opts.cors === '*') return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED };
    if (origin === opts.cors) return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED, Vary: 'Origin' };
    return { Vary: 'Origin' };
  }

  function limitHeaders(plan: KeyPlan | undefined, rate: RateDecision | undefined, cost: number, t: number): Record<string, string> {
    if (!plan || !credits) return {};
    const r = rate ?? limiter.peek(plan.id, plan.perMinute, t);
    return {
      'X-RateLimit-Limit': String(r.limit),
      'X-RateLimit-Remaining': String(r.remaining),
      'X-RateLimit-Reset': String(r.reset),
      'X-Credits-Remaining': String(credits.remaining(plan, t)),
      'X-Credits-Cost': String(cost),
    };
  }

  function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}): Answer {
    return { status, body: JSON.stringify(errorEnvelope(code, message)), headers };
  }

  function openApiAnswer(): Answer {
    openapi ??= (() => {
      const body = JSON.stringify(openApiDocument(ROUTES, baseUrl, { auth: keyed }));
      return { body, etag: etagOf(body) };
    })();
    return { status: 200, body: openapi.body, headers: { ETag: openapi.etag } };
  }

  /**
   * Identical GETs in flight at the same time share one execution (request coalescing): the answer can
   * only be the same, and a burst of dashboards asking for one mirror query then costs one query, not
   * one each queued on the dataset's connection. Credits are still charged per request.
   */
  const inFlightGets = new Map<string, { result: Promise<CallResult>; waiting: number; abort: AbortController }>();
  function coalesced(call: PreparedCall, route: Route, signal: AbortSignal): Promise<CallResult> {
    // A request whose client has already gone (during `prepare`) neither starts nor joins a shared
    // execution: an 'abort' listener added to an aborted signal never fires, so `waiting` would never
    // come back to 0 and the shared query would run for nobody.
    if (signal.aborted) return Promise.reject(new AbortedError());
    if (call.method !== 'GET') return gated(call, route, signal);
    const key = `${call.path}?${new URLSearchParams(Object.entries(call.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString()}`;
    let shared = inFlightGets.get(key);
    if (!shared) {
      // The shared execution is abandoned only when every request waiting for it is.
      const abort = new AbortController();
      const s = { result: gated(call, route, abort.signal).finally(() => inFlightGets.delete(key)), waiting: 0, abort };
      inFlightGets.set(key, s);
      shared = s;
    }
    const s = shared;
    s.waiting++;
    signal.addEventListener('abort', () => --s.waiting === 0 && s.abort.abort(), { once: true });
    return s.result;
  }

  /**
   * Executions on mirror datasets wait for a slot of each dataset they read (src/server/gate.ts), taken
   * in sorted order; the others run at once.
   */
  function gated(call: PreparedCall, route: Route, signal: AbortSignal): Promise<CallResult> {
    const keys = gateKeys(route);
    const through = (i: number): Promise<CallResult> => {
      if (i === keys.length) return run(call);
      let gate = gates.get(keys[i]!);
      if (!gate) gates.set(keys[i]!, (gate = new Gate(datasetConcurrency)));
      return gate.run(() => through(i + 1), signal);
    };
    return through(0);
  }

  /** Give back the credits a request holds (at most once). */
  function release(state: RequestState): void {
    if (state.reservation) credits?.refund(state.reservation);
    state.reservation = undefined;
    state.log.cost = 0;
  }
  let executing = 0;
  function run(call: PreparedCall): Promise<CallResult> {
    executing++;
    return opts.execute(call).finally(() => executing--);
  }

  async function runWithTimeout(call: PreparedCall, route: Route, state: RequestState): Promise<CallResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        state.abort.abort(); // still queued: never run it
        reject(new HttpError(503, 'timeout', `The request took longer than ${handlerTimeoutMs / 1000} s and was abandoned; try a narrower query.`));
      }, handlerTimeoutMs);
    });
    try {
      return await Promise.race([coalesced(call, route, state.abort.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Bearer key and the key's rate window (keyed mode); an Answer when the request is refused. */
  function authenticate(req: IncomingMessage, t: number, log: { cost: number; key?: string }): Answer | { plan?: KeyPlan; rate?: RateDecision } {
    if (!findKey) return {};
    const m = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(req.headers.authorization ?? '');
    if (!m) return errorAnswer(401, 'unauthorized', MISSING_AUTH_MESSAGE, { 'WWW-Authenticate': 'Bearer' });
    const plan = findKey(m[1]!);
    if (!plan) return errorAnswer(401, 'unauthorized', INVALID_KEY_MESSAGE, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    log.key = plan.masked;
    const rate = limiter.take(plan.id, plan.perMinute, t);
    if (!rate.allowed) {
      return errorAnswer(429, 'rate_limit_exceeded', RATE_LIMIT_MESSAGE, { ...limitHeaders(plan, rate, 0, t), 'Retry-After': String(rate.retryAfter) });
    }
    return { plan, rate };
  }

  /**
   * A GET whose exact request target has a cached answer this hour: the same checks in the same order as
   * `answer` (the route, its validation and its local handler are known from the first time), then credits.
   */
  function answerCached(req: IncomingMessage, hit: CachedAnswer, t: number, state: RequestState): Answer {
    const log = state.log;
    const auth = authenticate(req, t, log);
    if ('status' in auth) return auth;
    const { plan, rate } = auth;
    if (plan && credits && !(state.reservation = credits.reserve(plan, hit.route.cost, t))) {
      return errorAnswer(402, 'insufficient_credits', INSUFFICIENT_CREDITS_MESSAGE, limitHeaders(plan, rate, 0, now()));
    }
    log.cost = plan ? hit.route.cost : 0;
    const headers: Record<string, string> = { ETag: hit.etag, 'Cache-Control': 'no-cache', ...limitHeaders(plan, rate, log.cost, now()) };
    if (etagMatches(req.headers['if-none-match'], hit.etag)) return { status: 304, headers };
    return { status: 200, headers, cached: hit };
  }

  /** Everything after OPTIONS: returns the answer and what to log. */
  async function answer(req: IncomingMessage, u: URL, state: RequestState): Promise<Answer> {
    const log = state.log;
    const t = now();
    const method = req.method ?? 'GET';
    let path = u.pathname;
    if (path === '/v1' || path === '/v1/' || path === '/v1/openapi.json') {
      if (method !== 'GET' && method !== 'HEAD') return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { Allow: 'GET, HEAD, OPTIONS' });
      return openApiAnswer();
    }
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      const allow = methodsOf(path);
      if (!allow) return errorAnswer(404, 'not_found', `No route ${path}. The routes are listed at ${baseUrl}/openapi.json.`);
      return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { Allow: allow.join(', ') });
    }

    // Authentication and the rate window (keyed mode only).
    const auth = authenticate(req, t, log);
    if ('status' in auth) return auth;
    const { plan, rate } = auth;
    const limits = (cost: number) => limitHeaders(plan, rate, cost, now());

    const callMethod: HttpMethod = method === 'POST' ? 'POST' : 'GET';
    let route: Route;
    let pathValues: Record<string, string>;
    try {
      ({ route, pathValues } = matchRoute(callMethod, path));
    } catch (e) {
      const allow = methodsOf(path);
      if (allow) return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { ...limits(0), Allow: allow.join(', ') });
      if (e instanceof ApiError && e.code !== 'not_found') return errorAnswer(e.status, e.code, e.message, limits(0));
      return errorAnswer(404, 'not_found', `No route ${method} ${path}. The routes are listed at ${baseUrl}/openapi.json.`, limits(0));
    }
    if (!route.local) {
      return errorAnswer(
        501,
        'not_available_offline',
        `${route.method} ${route.path} (${route.id}) has no offline handler: this server answers only the routes it can compute from its mirror and shipped data (see x-offline in ${baseUrl}/openapi.json).`,
        limits(0),
      );
    }

    // Read and validate the request before the credit check: a malformed request is 400 whatever the balance.
    const call: PreparedCall = { method: callMethod, path, query: {} };
    try {
      call.query = queryOf(u);
      if (callMethod === 'POST') {
        const text = await readBody(req, bodyLimit);
        try {
          call.body = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
        } catch (e) {
          throw new HttpError(400, 'bad_request', `The request body is not valid JSON (${(e as Error).message}).`);
        }
      }
      // Validated once, here, before the credit check; the call carries it to execute (no second pass).
      call.prepared = await prepare(call, { route, pathValues });
    } catch (e) {
      if (e instanceof HttpError) return errorAnswer(e.status, e.code, e.message, { ...limits(0), ...e.headers });
      if (e instanceof ApiError) return { status: e.status, body: JSON.stringify(e.toEnvelope()), headers: limits(0) };
      throw e;
    }

    if (plan && credits) {
      state.reservation = credits.reserve(plan, route.cost, t);
      if (!state.reservation) return errorAnswer(402, 'insufficient_credits', INSUFFICIENT_CREDITS_MESSAGE, limits(0));
    }
    let a: Answer;
    let charged = false;
    try {
      const result = await runWithTimeout(call, route, state);
      const body = JSON.stringify(result.envelope satisfies Envelope);
      const headers: Record<string, string> = {};
      let status = result.status;
      if (status === 200 && callMethod === 'GET') {
        const tag = etagOf(body);
        headers.ETag = tag;
        headers['Cache-Control'] = 'no-cache';
        if (cacheable(route) && req.url) remember(req.url, route, body, tag, t);
        if (etagMatches(req.headers['if-none-match'], tag)) status = 304;
      }
      // Answered 2xx/304, unless its connection was closed meanwhile (the client left, or shutdown reached
      // its deadline): then nobody gets this answer and it is not charged.
      charged = (status < 300 || status === 304) && !state.abort.signal.aborted;
      a = status === 304 ? { status, headers } : { status, body, headers };
    } catch (e) {
      if (e instanceof AbortedError) {
        // Dropped from the queue: the client went away or the server stopped waiting; nobody reads this.
        release(state);
        return errorAnswer(503, 'service_unavailable', 'The request was abandoned before it ran (the client disconnected or the server is stopping).', { ...limits(0), Connection: 'close' });
      }
      if (!(e instanceof HttpError)) {
        release(state);
        throw e;
      }
      a = errorAnswer(e.status, e.code, e.message, e.headers);
    }
    // Give back the reservation before the headers report the balance.
    if (!charged) release(state);
    log.cost = charged && plan ? route.cost : 0;
    Object.assign(a.headers, limits(log.cost));
    return a;
  }

  async function send(req: IncomingMessage, res: ServerResponse, a: Answer, extra: Record<string, string>): Promise<void> {
    const headers: Record<string, string> = { Date: httpDate(now()), ...extra, ...a.headers };
    if (closing) headers.Connection = 'close';
    const c = a.cached;
    if (a.body === undefined && !c) {
      res.writeHead(a.status, headers);
      res.end();
      return;
    }
    let payload: Buffer = c ? c.body : Buffer.from(a.body!, 'utf8');
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
    if (payload.length >= GZIP_MIN_BYTES && req.headers['accept-encoding'] !== undefined && acceptsGzip(req.headers['accept-encoding'])) {
      payload = c ? (c.gz ??= await gzip(payload)) : await gzip(payload);
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = String(payload.length);
    res.writeHead(a.status, headers);
    // HEAD: node sends the headers (with the GET's length) and no body.
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<void> {
    const log = state.log;
    let u: URL;
    const cors = corsHeaders(req);
    const accessLog = opts.accessLog;
    if (accessLog) {
      const started = performance.now();
      res.on('close', () => {
        // The target with credential-named query values masked (`?key=…`, `?api_key=…`, whatever their shape).
        // 499 (nginx's "client closed request"): the connection closed before the whole answer was sent.
        const status = res.writableFinished ? res.statusCode : 499;
        const line = `${new Date(now()).toISOString()} ${req.method} ${redactUrl(req.url ?? '')} ${status} ${(performance.now() - started).toFixed(1)}ms credits=${log.cost} key=${log.key ?? '-'}`;
        accessLog(redact(line));
      });
    }
    // The answer cache is looked up by the exact request target, before any parsing.
    if ((req.method === 'GET' || req.method === 'HEAD') && answers.size > 0) {
      const hit = answers.get(req.url ?? '');
      const t = now();
      if (hit && hit.hour === Math.floor(t / HOUR_MS)) return send(req, res, answerCached(req, hit, t, state), cors);
    }
    try {
      u = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return send(req, res, errorAnswer(400, 'bad_request', 'The request target is not a valid URL path.'), cors);
    }
    if (req.method === 'OPTIONS') {
      const path = u.pathname.replace(/\/+$/, '') || '/';
      const allow = path === '/v1' || path === '/v1/openapi.json' ? ['GET', 'HEAD', 'OPTIONS'] : methodsOf(path);
      if (!allow) return send(req, res, errorAnswer(404, 'not_found', `No route ${u.pathname}.`), cors);
      const pre: Record<string, string> = { Allow: allow.join(', ') };
      if (cors['Access-Control-Allow-Origin']) {
        Object.assign(pre, {
          'Access-Control-Allow-Methods': allow.join(', '),
          'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-None-Match',
          'Access-Control-Max-Age': '600',
        });
      }
      return send(req, res, { status: 204, headers: pre }, cors);
    }
    let a: Answer;
    try {
      a = await answer(req, u, state);
    } catch (e) {
      // The client left mid-upload: nobody to answer, and not an error of ours (the access log says 499).
      if (e instanceof ClientGoneError) return;
      opts.errorLog?.(redact(`internal error on ${req.method} ${u.pathname}: ${(e as Error)?.message ?? String(e)}`));
      if (opts.debug && (e as Error)?.stack) opts.errorLog?.((e as Error).stack!);
      a = errorAnswer(500, 'internal_error', SERVER_ERROR_MESSAGE);
    }
    // A request whose body was not read (refused early) must not leave it in the connection.
    if (req.method === 'POST' && !req.readableEnded) {
      a.headers.Connection = 'close';
      req.resume();
    }
    return send(req, res, a, cors);
  }

  const sockets = new Set<Socket>();
  const active = new Set<RequestState>();
  const server = createServer((req, res) => {
    inflight++;
    const state: RequestState = { abort: new AbortController(), log: { cost: 0 } };
    active.add(state);
    // Registered before the access log's listener (in `handle`), so the log reports the refund.
    res.on('close', () => {
      active.delete(state);
      inflight--;
      // Closed before the answer was sent: the client went away (or shutdown closed it): drop its queued
      // work and give back its credits (refunded now, before `close` writes the credit state; the handler
      // finishing later charges nothing, as its signal is aborted).
      if (!res.writableFinished) {
        state.abort.abort();
        release(state);
      }
      if (inflight === 0) idle?.();
    });
    handle(req, res, state).catch((e: unknown) => {
      opts.errorLog?.(redact(`could not answer ${req.method} ${redactUrl(req.url ?? '')}: ${(e as Error)?.message ?? String(e)}`));
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(errorEnvelope('internal_error', SERVER_ERROR_MESSAGE)));
      } else res.destroy();
    });
  });
  server.headersTimeout = opts.headersTimeoutMs ?? 10_000;
  server.requestTimeout = opts.requestTimeoutMs ?? 60_000;
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 5_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', answerClientError);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  baseUrl = `http://${urlHost}:${port}/v1`;
  openApiAnswer();

  return {
    url: baseUrl,
    host,
    port,
    server,
    inflight: () => inflight,
    executing: () => executing,
    flush: async () => credits?.flush(),
    reloadKeys(keys) {
      if (!keyed) throw new Error('reloadKeys: the server was started without keys');
      findKey = keyMatcher(keys);
    },
    async close(graceMs = 10_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inflight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => (idle = resolve)),
          new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()),
        ]);
      }
      // The deadline: whatever is still queued is dropped, every connection closed.
      for (const st of active) st.abort.abort();
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await closed;
      if (inflight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => (idle = resolve)),
          new Promise<void>((resolve) => setTimeout(resolve, 1000).unref()),
        ]);
      }
      await credits?.flush();
    },
  };
}
