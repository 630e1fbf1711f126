/**
 * From a request to its answer (status, body, headers), after OPTIONS and the answer cache: the OpenAPI
 * document, method checks, the key and its rate window, the route, the body and its validation, the
 * credit reservation, the execution, and the charge. The HTTP adapter (server.ts) sends what this decides.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, errorEnvelope } from '../contract/errors.js';
import type { Envelope, HttpMethod } from '../contract/types.js';
import type { ResponseSchema } from '../contract/schema.js';
import { ROUTES, matchRoute, type Route } from '../registry.js';
import { prepare, type PreparedCall } from '../runner.js';
import { postKey, POST_BODY_MAX, type AnswerCache, type CachedAnswer } from './answer-cache.js';
import type { CreditStore, Reservation } from './credits.js';
import type { Executor } from './executor.js';
import { AbortedError, type RequestAbort } from './gate.js';
import { etagMatches, etagOf, HttpError, queryOf, readBody, type Target } from './http.js';
import type { KeyPlan } from './keys.js';
import { openApiDocument } from './openapi.js';
import type { RateDecision, RateLimiter } from './ratelimit.js';
import { cacheable, methodsOf } from './routing.js';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(req.headers.authorization ?? '')?.[1];
}

export const MISSING_AUTH_MESSAGE = 'Missing or malformed Authorization header. Expected: Bearer <api_key>';
export const INVALID_KEY_MESSAGE = 'Invalid API key.';
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please retry after the period indicated in the Retry-After header.';
export const INSUFFICIENT_CREDITS_MESSAGE = 'Insufficient credits. This key has no credits left for this request; the monthly allowance renews on the 1st.';
export const SERVER_ERROR_MESSAGE = 'An unexpected error occurred on our end.';

export interface Answer {
  status: number;
  body?: string;
  headers: Record<string, string>;
  /** The body comes from the answer cache (bytes and gzip computed once). */
  cached?: CachedAnswer;
}

/** Per request: aborted when its client goes away, it times out, or the server stops waiting for it. */
export interface RequestState {
  abort: RequestAbort;
  /** What the access log reports. */
  log: { cost: number; key?: string };
  /**
   * The credits this request holds (reserved before its handler runs, kept when it is answered 2xx/304).
   * Given back if its connection closes before the answer is written (`release`): a request is charged
   * only when answered.
   */
  reservation?: Reservation;
}

export function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}): Answer {
  return { status, body: JSON.stringify(errorEnvelope(code, message)), headers };
}

export interface AnswererParts {
  now: () => number;
  /** Keyed mode: the key matcher (replaced on SIGHUP), the credit store and the rate windows. */
  findKey?: (presented: string) => KeyPlan | undefined;
  /** Whether a text is a key (keys.ts keyIndex: a digest looked up, for masking the access log). */
  knownKey?: (text: string) => boolean;
  credits?: CreditStore;
  limiter: RateLimiter;
  cache: AnswerCache;
  executor: Executor;
  bodyLimit: number;
  /** Route id -> response schema, published in the OpenAPI document. */
  responses?: ReadonlyMap<string, ResponseSchema>;
}

/** A matched route: its path values, the call's method and the path (trailing slash trimmed) it matched. */
interface Found {
  route: Route;
  pathValues: Record<string, string>;
  callMethod: HttpMethod;
  path: string;
}

export class Answerer {
  /** Base URL ending in /v1, known once the server listens. */
  baseUrl = '';
  private openapi: { body: string; etag: string } | undefined;

  constructor(private readonly p: AnswererParts) {}

  setKeys(findKey: (presented: string) => KeyPlan | undefined, knownKey: (text: string) => boolean): void {
    this.p.findKey = findKey;
    this.p.knownKey = knownKey;
  }

  /** Whether the server has a keys file. */
  get keyed(): boolean {
    return this.p.knownKey !== undefined;
  }

  /** Whether `s` is a key of the keys file (by its digest: the keys themselves are not kept). */
  isKey(s: string): boolean {
    return this.p.knownKey !== undefined && this.p.knownKey(s);
  }

  limitHeaders(plan: KeyPlan | undefined, rate: RateDecision | undefined, cost: number, t: number): Record<string, string> {
    const credits = this.p.credits;
    if (!plan || !credits) return {};
    const r = rate ?? this.p.limiter.peek(plan.id, plan.perMinute, t);
    return {
      'X-RateLimit-Limit': String(r.limit),
      'X-RateLimit-Remaining': String(r.remaining),
      'X-RateLimit-Reset': String(r.reset),
      'X-Credits-Remaining': String(credits.remaining(plan, t)),
      'X-Credits-Cost': String(cost),
    };
  }

  openApiAnswer(): Answer {
    this.openapi ??= (() => {
      const body = JSON.stringify(openApiDocument(ROUTES, this.baseUrl, { auth: this.p.findKey !== undefined, ...(this.p.responses ? { responses: this.p.responses } : {}) }));
      return { body, etag: etagOf(body) };
    })();
    return { status: 200, body: this.openapi.body, headers: { ETag: this.openapi.etag } };
  }

  /** Give back the credits a request holds (at most once). */
  release(state: RequestState): void {
    if (state.reservation) this.p.credits?.refund(state.reservation);
    state.reservation = undefined;
    state.log.cost = 0;
  }

  /** Bearer key and the key's rate window (keyed mode); an Answer when the request is refused. */
  authenticate(req: IncomingMessage, t: number, log: { cost: number; key?: string }): Answer | { plan?: KeyPlan; rate?: RateDecision } {
    if (!this.p.findKey) return {};
    const token = bearerToken(req);
    if (token === undefined) return errorAnswer(401, 'unauthorized', MISSING_AUTH_MESSAGE, { 'WWW-Authenticate': 'Bearer' });
    const plan = this.p.findKey(token);
    if (!plan) return errorAnswer(401, 'unauthorized', INVALID_KEY_MESSAGE, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    log.key = plan.masked;
    const rate = this.p.limiter.take(plan.id, plan.perMinute, t);
    if (!rate.allowed) {
      return errorAnswer(429, 'rate_limit_exceeded', RATE_LIMIT_MESSAGE, { ...this.limitHeaders(plan, rate, 0, t), 'Retry-After': String(rate.retryAfter) });
    }
    return { plan, rate };
  }

  /**
   * A GET whose exact request target has a cached answer this hour: the same checks in the same order as
   * `answer` (the route, its validation and its local handler are known from the first time), then credits.
   */
  answerCached(req: IncomingMessage, hit: CachedAnswer, t: number, state: RequestState): Answer {
    const log = state.log;
    const auth = this.authenticate(req, t, log);
    if ('status' in auth) return auth;
    const { plan, rate } = auth;
    const refused = this.reserve(plan, hit.route.cost, t, state, (cost) => this.limitHeaders(plan, rate, cost, this.p.now()));
    if (refused) return refused;
    log.cost = plan ? hit.route.cost : 0;
    // A GET's entry (its key is the target, which a POST's key never is) always has its ETag.
    const etag = hit.etag ?? '';
    const headers: Record<string, string> = { ETag: etag, 'Cache-Control': 'no-cache', ...this.limitHeaders(plan, rate, log.cost, this.p.now()) };
    if (etagMatches(req.headers['if-none-match'], etag)) return { status: 304, headers };
    return { status: 200, headers, cached: hit };
  }

  /** Everything after OPTIONS and the answer cache: returns the answer; `state.log` says what to log. */
  async answer(req: IncomingMessage, u: Target, state: RequestState): Promise<Answer> {
    const t = this.p.now();
    const method = req.method ?? 'GET';
    let path = u.pathname;
    if (path === '/v1' || path === '/v1/' || path === '/v1/openapi.json') {
      if (method !== 'GET' && method !== 'HEAD') return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { Allow: 'GET, HEAD, OPTIONS' });
      return this.openApiAnswer();
    }
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      const allow = methodsOf(path);
      if (!allow) return errorAnswer(404, 'not_found', `No route ${path}. The routes are listed at ${this.baseUrl}/openapi.json.`);
      return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { Allow: allow.join(', ') });
    }
    // Authentication and the rate window (keyed mode only).
    const auth = this.authenticate(req, t, state.log);
    if ('status' in auth) return auth;
    const { plan, rate } = auth;
    const limits = (cost: number) => this.limitHeaders(plan, rate, cost, this.p.now());
    const found = this.route(method, path, limits);
    if ('status' in found) return found;
    const text = found.callMethod === 'POST' ? await this.readText(req, limits) : undefined;
    if (typeof text === 'object') return text;
    // A calculation asked before this hour, body for body: its answer, charged like any other.
    const key = text !== undefined && text.length <= POST_BODY_MAX && cacheable(found.route) && req.url ? postKey(req.url, text) : undefined;
    const hit = key === undefined ? undefined : this.p.cache.lookup(key, t);
    if (hit) {
      // a POST answered 200 this hour for this target and body: charged, then that answer
      const refused = this.reserve(plan, hit.route.cost, t, state, limits);
      if (refused) return refused;
      state.log.cost = plan ? hit.route.cost : 0;
      return { status: 200, headers: limits(state.log.cost), cached: hit };
    }
    const prepared = await this.validate(u, found, text, limits);
    if ('status' in prepared) return prepared;
    return this.reserve(plan, found.route.cost, t, state, limits) ?? this.execute(req, prepared, found.route, state, t, plan, limits, key);
  }

  /** The credits of a keyed call reserved in `state` (credit accounting on), or its 402 answer when they are not there. */
  private reserve(plan: KeyPlan | undefined, cost: number, t: number, state: RequestState, limits: (cost: number) => Record<string, string>): Answer | undefined {
    const credits = this.p.credits;
    if (!plan || !credits) return undefined;
    state.reservation = credits.reserve(plan, cost, t);
    return state.reservation ? undefined : errorAnswer(402, 'insufficient_credits', INSUFFICIENT_CREDITS_MESSAGE, limits(0));
  }

  /** The route a method and path name, or the 404/405/501 answer. */
  private route(method: string, path: string, limits: (cost: number) => Record<string, string>): Answer | Found {
    const callMethod: HttpMethod = method === 'POST' ? 'POST' : 'GET';
    let route: Route;
    let pathValues: Record<string, string>;
    try {
      ({ route, pathValues } = matchRoute(callMethod, path));
    } catch (e) {
      const allow = methodsOf(path);
      if (allow) return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { ...limits(0), Allow: allow.join(', ') });
      if (e instanceof ApiError && e.code !== 'not_found') return errorAnswer(e.status, e.code, e.message, limits(0));
      return errorAnswer(404, 'not_found', `No route ${method} ${path}. The routes are listed at ${this.baseUrl}/openapi.json.`, limits(0));
    }
    if (!route.local) {
      return errorAnswer(
        501,
        'not_available_offline',
        `${route.method} ${route.path} (${route.id}) has no offline handler: this server answers only the routes it can compute from its mirror and shipped data (see x-offline in ${this.baseUrl}/openapi.json).`,
        limits(0),
      );
    }
    return { route, pathValues, callMethod, path };
  }

  /** Read a POST's body text (the size and nesting limits of readBody), or the 4xx answer. */
  private async readText(req: IncomingMessage, limits: (cost: number) => Record<string, string>): Promise<string | Answer> {
    try {
      return await readBody(req, this.p.bodyLimit);
    } catch (e) {
      if (e instanceof HttpError) return errorAnswer(e.status, e.code, e.message, { ...limits(0), ...e.headers });
      throw e;
    }
  }

  /** Parse the body (JSON whatever its Content-Type says) and validate the call, before the credit check: a malformed request is 400 whatever the balance. */
  private async validate(u: Target, found: Found, text: string | undefined, limits: (cost: number) => Record<string, string>): Promise<PreparedCall | Answer> {
    const call: PreparedCall = { method: found.callMethod, path: found.path, query: {} };
    try {
      call.query = queryOf(u);
      if (text !== undefined) {
        try {
          call.body = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
        } catch (e) {
          throw new HttpError(400, 'bad_request', `The request body is not valid JSON (${(e as Error).message}).`);
        }
      }
      // Validated once, here; the call carries it to execute (no second pass).
      call.prepared = await prepare(call, { route: found.route, pathValues: found.pathValues });
      return call;
    } catch (e) {
      if (e instanceof HttpError) return errorAnswer(e.status, e.code, e.message, { ...limits(0), ...e.headers });
      if (e instanceof ApiError) return { status: e.status, body: JSON.stringify(e.toEnvelope()), headers: limits(0) };
      throw e;
    }
  }

  /** Run the call, tag and cache a GET's answer (cache a small POST's under `postCacheKey`), and charge it only when answered 2xx/304 to a client still there. */
  private async execute(
    req: IncomingMessage,
    call: PreparedCall,
    route: Route,
    state: RequestState,
    t: number,
    plan: KeyPlan | undefined,
    limits: (cost: number) => Record<string, string>,
    postCacheKey?: string,
  ): Promise<Answer> {
    let a: Answer;
    let charged = false;
    try {
      const result = await this.p.executor.run(call, route, state.abort);
      const body = JSON.stringify(result.envelope satisfies Envelope);
      const headers: Record<string, string> = {};
      let status = result.status;
      if (status === 200 && call.method === 'GET') {
        const tag = etagOf(body);
        headers.ETag = tag;
        headers['Cache-Control'] = 'no-cache';
        if (cacheable(route) && req.url) this.p.cache.remember(req.url, route, body, tag, t);
        if (etagMatches(req.headers['if-none-match'], tag)) status = 304;
      } else if (status === 200 && postCacheKey !== undefined) this.p.cache.remember(postCacheKey, route, body, undefined, t);
      // Answered 2xx/304, unless its connection was closed meanwhile (the client left, or shutdown reached
      // its deadline): then nobody gets this answer and it is not charged.
      charged = (status < 300 || status === 304) && !state.abort.aborted;
      a = status === 304 ? { status, headers } : { status, body, headers };
    } catch (e) {
      if (e instanceof AbortedError) {
        // Dropped from the queue: the client went away or the server stopped waiting; nobody reads this.
        this.release(state);
        return errorAnswer(503, 'service_unavailable', 'The request was abandoned before it ran (the client disconnected or the server is stopping).', { ...limits(0), Connection: 'close' });
      }
      if (!(e instanceof HttpError)) {
        this.release(state);
        throw e;
      }
      a = errorAnswer(e.status, e.code, e.message, e.headers);
    }
    // Give back the reservation before the headers report the balance.
    if (!charged) this.release(state);
    state.log.cost = charged && plan ? route.cost : 0;
    Object.assign(a.headers, limits(state.log.cost));
    return a;
  }
}
