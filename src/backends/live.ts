/**
 * The live backend: the v1 API over HTTPS with undici (one keep-alive Agent per backend).
 *
 * Policy (docs/live-client.md has the reasons):
 * - Pacing: the window state comes from `X-RateLimit-Remaining`/`X-RateLimit-Reset` of every response.
 *   Requests go out at full speed while the window has room; when it is used up, the next request waits
 *   until the reset (plus a small margin), so a long job does not provoke 429 at all.
 * - 429 `rate_limit_exceeded`: wait `Retry-After` (delta-seconds or HTTP-date) or the exponential
 *   back-off, whichever is longer, plus jitter, and retry (GET and POST: a 429 was not processed).
 *   Waiting is bounded per call by `maxWait` seconds: when the next wait would exceed it, the 429
 *   envelope is returned (CLI exit 5).
 * - Network errors and 5xx: GET is retried with exponential back-off and jitter. POST (10 credits, and
 *   the server may have processed it) is retried only when the connection failed before the request
 *   could be sent (refused, DNS, connect timeout). After the budget: `network_error` (status 503) or
 *   the server's 5xx envelope (synthesised `server_error` when it is not a JSON error envelope).
 * - `insufficient_credits` (402, or 429 as the published errors page has it: we switch on the code),
 *   401 and 403 are never retried.
 * - `maxCredits`: a request that would take the credits spent by this backend past the budget is not
 *   sent; the answer is `credit_budget_exceeded` (CLI exit 3).
 * - The key is sent only in the Authorization header and never appears in log lines or messages.
 */
import type { Dispatcher } from 'undici';
import { redact, keyKind, keyProblem, maskKey } from '../config.js';
import { ApiError, errorEnvelope } from '../contract/errors.js';
import { matchRoute } from '../registry.js';
import type { CallResult, Envelope, ErrorEnvelope, RouteCall } from '../contract/types.js';
import { isErrorEnvelope } from '../contract/types.js';
import type { Backend } from './types.js';

export const DEFAULT_BASE_URL = 'https://api.govdata.dev/v1';
export const DEFAULT_MAX_WAIT_S = 120;
export const DEFAULT_MAX_RETRIES = 5;
export const SERVER_ERROR_MESSAGE = 'An unexpected error occurred on our end.';

/** Response headers passed on in CallResult.headers (lower-case names). */
export const PASSED_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'x-credits-remaining',
  'x-credits-cost',
  'x-request-id',
  'date',
] as const;

export interface LiveOptions {
  apiKey: string;
  /** Default: env PUBLICDATA_BASE_URL, else https://api.govdata.dev/v1. A trailing /v1 is fine. */
  baseUrl?: string;
  /** Longest total wait (seconds) one call may spend on rate limiting and back-off. Default 120. */
  maxWait?: number;
  /** Retries of one call (429, network, 5xx together). Default 5, at most 10. */
  maxRetries?: number;
  /** Credits this backend may spend in total; a request that would pass it is not sent. */
  maxCredits?: number;
  /** Verbose lines (request, status, timing, credits, rate limit, waits). The key is redacted. */
  log?: (line: string) => void;
  /** Clock in ms since the epoch (tests). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** [0,1) source of jitter (tests). */
  random?: () => number;
  userAgent?: string;
  /** Environment for PUBLICDATA_BASE_URL (default process.env). */
  env?: Record<string, string | undefined>;
  /** Headers and body timeout per attempt, ms. Default 30000. */
  timeoutMs?: number;
  /** Connect timeout per attempt, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Margin added to X-RateLimit-Reset before the next window is used, ms. Default 100. */
  resetMarginMs?: number;
  /** First back-off step for network errors, 5xx and repeated 429s, ms. Default 500. */
  backoffBaseMs?: number;
  /** Largest single back-off step, ms. Default 30000. */
  backoffMaxMs?: number;
}

export interface RateLimitState {
  limit?: number;
  remaining?: number;
  /** Unix seconds, as sent. */
  reset?: number;
}

export interface LiveStats {
  /** HTTP requests sent (attempts, including retries). */
  requests: number;
  /** Calls answered (one per call()). */
  calls: number;
  /** Credits spent by this backend (X-Credits-Cost, or the route's cost when the header is absent). */
  creditsSpent: number;
  /** Last X-Credits-Remaining seen. */
  creditsRemaining?: number;
  /** Last X-Credits-Cost seen. */
  lastCost?: number;
  /** Last X-RateLimit-* seen. */
  rateLimit: RateLimitState;
  /** 429 responses received. */
  rateLimited: number;
  retries: number;
  networkErrors: number;
  serverErrors: number;
  /** Server clock minus ours as used for pacing (0 unless the Date header shows a clear skew), ms. */
  clockOffsetMs: number;
  /** Time spent waiting (pacing, Retry-After, back-off), ms. */
  waitedMs: number;
  /** Waits caused by pacing (window used up), not by a 429. */
  pacingWaits: number;
}

export interface LiveCallResult extends CallResult {
  source: 'live';
  /** The response body exactly as received (for byte-exact passthrough); absent when synthesised. */
  raw?: string;
  /** Attempts made for this call. */
  attempts: number;
}

export interface LiveBackend extends Backend {
  readonly kind: 'live';
  call(call: RouteCall): Promise<LiveCallResult>;
  stats(): LiveStats;
  creditsSpent(): number;
  /** Whether n more credits fit in maxCredits (always true without a budget). */
  canSpend(n: number): boolean;
  /** Warnings to show once (e.g. a test key against the production API). */
  readonly warnings: readonly string[];
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Credits of a call: the route's cost, or GET 1 / POST 10 for paths outside the table. */
export function costOf(call: Pick<RouteCall, 'method' | 'path'>): number {
  try {
    return matchRoute(call.method, call.path).route.cost;
  } catch {
    return call.method === 'POST' ? 10 : 1;
  }
}

/** Parse Retry-After: delta-seconds or HTTP-date (RFC 9110 §10.2.3). Returns ms to wait, or undefined. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - nowMs);
}

/** Join the base URL and a /v1 path without doubling /v1; encode path segments, append the query. */
export function buildUrl(baseUrl: string, path: string, query: RouteCall['query'] = {}): string {
  let base = baseUrl.replace(/\/+$/, '');
  let p = path.startsWith('/') ? path : `/${path}`;
  if (/\/v1$/.test(base) && (p === '/v1' || p.startsWith('/v1/'))) base = base.slice(0, -3);
  else if (!/\/v1$/.test(base) && !(p === '/v1' || p.startsWith('/v1/'))) p = `/v1${p}`;
  const encoded = p
    .split('/')
    .map((seg) => {
      try {
        return encodeURIComponent(decodeURIComponent(seg));
      } catch {
        return encodeURIComponent(seg);
      }
    })
    .join('/');
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) qs.append(k, item);
    else if (v !== undefined) qs.append(k, v);
  }
  const s = qs.toString();
  return `${base}${encoded}${s ? `?${s}` : ''}`;
}

const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The most telling error code along the cause chain: a system errno (ECONNRESET...) before undici's. */
function errCode(e: unknown): string {
  const codes: string[] = [];
  let cur: any = e;
  for (let i = 0; i < 5 && cur; i++) {
    if (typeof cur.code === 'string') codes.push(cur.code);
    if (Array.isArray(cur.errors)) for (const x of cur.errors) if (typeof x?.code === 'string') codes.push(x.code);
    cur = cur.cause;
  }
  return codes.find((c) => /^E[A-Z_]+$/.test(c)) ?? codes[0] ?? (e as Error)?.name ?? 'ERROR';
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function headerValue(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return 'data' in v || isErrorEnvelope(v);
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}

type Attempt =
  | { kind: 'response'; status: number; headers: Record<string, string>; raw: string; ms: number; sentAt: number }
  | { kind: 'network'; code: string; message: string; connectPhase: boolean; ms: number };

export function createLiveBackend(opts: LiveOptions): LiveBackend {
  const env = opts.env ?? process.env;
  const baseUrl = (opts.baseUrl || env.PUBLICDATA_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  // A malformed base URL is a usage error now, not a network error retried for seconds later.
  let parsedBase: URL | undefined;
  try {
    parsedBase = new URL(baseUrl);
  } catch {
    parsedBase = undefined;
  }
  if (!parsedBase || (parsedBase.protocol !== 'https:' && parsedBase.protocol !== 'http:')) {
    throw new ApiError(400, 'usage_error', `PUBLICDATA_BASE_URL must be an http(s) URL such as ${DEFAULT_BASE_URL}; got '${baseUrl}'.`);
  }
  const baseHost = parsedBase.host;
  const apiKey = opts.apiKey;
  const maxWaitMs = Math.max(0, (opts.maxWait ?? DEFAULT_MAX_WAIT_S) * 1000);
  const maxRetries = Math.min(10, Math.max(0, Math.floor(opts.maxRetries ?? DEFAULT_MAX_RETRIES)));
  const maxCredits = opts.maxCredits;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const userAgent = opts.userAgent ?? 'publicdata';
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
  const resetMarginMs = opts.resetMarginMs ?? 100;
  const backoffBaseMs = opts.backoffBaseMs ?? 500;
  const backoffMaxMs = opts.backoffMaxMs ?? 30_000;
  const log = opts.log ? (line: string) => opts.log!(redact(line, apiKey)) : undefined;

  const warnings: string[] = [];
  if (keyKind(apiKey) === 'test' && baseUrl === DEFAULT_BASE_URL) {
    warnings.push(
      `Using a test key (${maskKey(apiKey)}) against the production API ${DEFAULT_BASE_URL}: test keys are for development (10 requests/minute, no live credits). Use a gd_live_ key for live work.`,
    );
  }
  const keyIssue = keyProblem(apiKey);

  const stats: LiveStats = {
    clockOffsetMs: 0,
    requests: 0,
    calls: 0,
    creditsSpent: 0,
    rateLimit: {},
    rateLimited: 0,
    retries: 0,
    networkErrors: 0,
    serverErrors: 0,
    waitedMs: 0,
    pacingWaits: 0,
  };

  // Window state for pacing. resetMs: local time at which the server's window resets.
  const win: { limit?: number; remaining?: number; resetMs?: number; rolledFrom?: number } = {};
  let inflight = 0;
  let gate: Promise<void> = Promise.resolve();

  type Undici = typeof import('undici');
  let agentPromise: Promise<{ agent: Dispatcher; request: Undici['request'] }> | undefined;
  let agent: Dispatcher | undefined;
  function dispatcher(): Promise<{ agent: Dispatcher; request: Undici['request'] }> {
    agentPromise ??= import('undici').then(({ Agent, request }) => {
      agent = new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 8,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connect: { timeout: connectTimeoutMs },
      });
      return { agent, request };
    });
    return agentPromise;
  }

  async function wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    stats.waitedMs += ms;
    await sleep(ms);
  }

  // Wake-ups for calls waiting on an answer in flight (the answer brings the new window's reset).
  let answerWaiters: Array<() => void> = [];
  function answered(): void {
    const ws = answerWaiters;
    answerWaiters = [];
    for (const w of ws) w();
  }

  /**
   * Take a slot in the current window, waiting for the reset when it is used up. Serialised so that
   * concurrent calls count each other. Returns a wait that would pass the budget instead of waiting.
   */
  function acquireSlot(budgetLeftMs: number): Promise<{ overBudgetMs?: number; waitedMs: number }> {
    const run = async (): Promise<{ overBudgetMs?: number; waitedMs: number }> => {
      let waited = 0;
      for (;;) {
        const t = now();
        if (win.resetMs !== undefined && t >= win.resetMs + resetMarginMs) {
          // A new window began; its budget is the plan limit until an answer says otherwise.
          win.remaining = win.limit;
          win.rolledFrom = win.resetMs;
          win.resetMs = undefined;
        }
        if (win.remaining !== undefined && win.remaining <= 0) {
          if (win.resetMs !== undefined) {
            const ms = win.resetMs + resetMarginMs - t;
            if (ms > budgetLeftMs - waited) return { overBudgetMs: ms, waitedMs: waited };
            log?.(`… rate-limit window used up (${win.limit ?? '?'} requests): waiting ${secs(ms)} for the reset`);
            stats.pacingWaits++;
            await wait(ms);
            waited += ms;
            continue;
          }
          if (inflight > 0) {
            // The new window's budget is spent by requests in flight; their answers carry its reset.
            await new Promise<void>((r) => answerWaiters.push(r));
            continue;
          }
        }
        if (win.remaining !== undefined) win.remaining--;
        inflight++;
        return { waitedMs: waited };
      }
    };
    const p = gate.then(run);
    gate = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  }

  /**
   * Server clock vs ours, from the Date header (1 s resolution). offset = server - local lies in
   * [lower, upper]. Applied only when it is certain to matter: the server is surely ahead (lower > 0:
   * its reset comes earlier on our clock) or surely behind (upper < 0: waiting by our clock would be
   * early, so wait by the lower bound, which is never early).
   */
  const skew = { lower: -Infinity, upper: Infinity };
  function observeClock(date: string | undefined, sentAt: number, receivedAt: number): void {
    if (!date) return;
    const d = Date.parse(date);
    if (Number.isNaN(d)) return;
    skew.lower = Math.max(skew.lower, d - receivedAt);
    skew.upper = Math.min(skew.upper, d + 1000 - sentAt);
  }
  function clockOffset(): number {
    if (skew.lower > skew.upper) return 0; // inconsistent samples (clock stepped): trust our clock
    if (skew.lower > 0 || skew.upper < 0) return skew.lower;
    return 0;
  }

  function observe(headers: Record<string, string>, receivedAt: number): void {
    const limit = num(headers['x-ratelimit-limit']);
    const remaining = num(headers['x-ratelimit-remaining']);
    const reset = num(headers['x-ratelimit-reset']);
    if (limit !== undefined) {
      win.limit = limit;
      stats.rateLimit.limit = limit;
    }
    if (remaining !== undefined) stats.rateLimit.remaining = remaining;
    if (reset !== undefined) stats.rateLimit.reset = reset;
    if (remaining === undefined || reset === undefined) return;
    const resetMs = reset * 1000 - clockOffset();
    // An answer from a window we already left (it was in flight across the reset) says nothing new.
    if (win.rolledFrom !== undefined && resetMs <= win.rolledFrom) return;
    // Requests sent but not answered yet will use the window too.
    const estimate = Math.max(0, remaining - Math.max(0, inflight));
    if (win.resetMs === undefined || resetMs > win.resetMs) {
      // A reset in the past (clock skew) still describes the current window: never before now.
      win.resetMs = Math.max(resetMs, receivedAt - resetMarginMs);
      win.remaining = estimate;
    } else {
      win.remaining = Math.min(win.remaining ?? estimate, estimate);
    }
  }

  async function send(call: RouteCall, url: string): Promise<Attempt> {
    const { agent: d, request } = await dispatcher();
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      'user-agent': userAgent,
    };
    let body: string | undefined;
    if (call.method === 'POST') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body ?? {});
    }
    const t0 = now();
    stats.requests++;
    log?.(`→ ${call.method} ${url}`);
    try {
      const res = await request(url, { method: call.method, headers, body: body ?? null, dispatcher: d });
      const raw = await res.body.text();
      const h: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const v = headerValue(res.headers as Record<string, string | string[] | undefined>, name);
        if (v !== undefined) h[name] = v;
      }
      return { kind: 'response', status: res.statusCode, headers: h, raw, ms: now() - t0, sentAt: t0 };
    } catch (e) {
      const code = errCode(e);
      return {
        kind: 'network',
        code,
        message: redact(String((e as Error)?.message ?? e), apiKey),
        connectPhase: CONNECT_PHASE_CODES.has(code),
        ms: now() - t0,
      };
    }
  }

  function describeResponse(call: RouteCall, a: Extract<Attempt, { kind: 'response' }>, path: string): string {
    const h = a.headers;
    const parts = [`← ${a.status} ${call.method} ${path} ${Math.round(a.ms)} ms`];
    if (h['x-credits-remaining'] !== undefined || h['x-credits-cost'] !== undefined)
      parts.push(`credits remaining ${h['x-credits-remaining'] ?? '?'} (cost ${h['x-credits-cost'] ?? '?'})`);
    if (h['x-ratelimit-remaining'] !== undefined)
      parts.push(
        `rate ${h['x-ratelimit-remaining']}/${h['x-ratelimit-limit'] ?? '?'} reset ${h['x-ratelimit-reset'] ?? '?'}`,
      );
    if (h['retry-after'] !== undefined) parts.push(`retry-after ${h['retry-after']}`);
    return parts.join(' · ');
  }

  function result(
    status: number,
    envelope: Envelope,
    attempts: number,
    a?: Extract<Attempt, { kind: 'response' }>,
    raw?: string,
  ): LiveCallResult {
    const r: LiveCallResult = { status, envelope, source: 'live', attempts };
    if (a) {
      r.headers = { ...a.headers };
      const credits: { remaining?: number; cost?: number } = {};
      const rem = num(a.headers['x-credits-remaining']);
      const cost = num(a.headers['x-credits-cost']);
      if (rem !== undefined) credits.remaining = rem;
      if (cost !== undefined) credits.cost = cost;
      r.credits = credits;
    }
    if (raw !== undefined) r.raw = raw;
    return r;
  }

  function synthesised(status: number, env: ErrorEnvelope, attempts: number, a?: Extract<Attempt, { kind: 'response' }>) {
    return result(status, env, attempts, a);
  }

  /** Interpret a response body: the envelope as sent, or a synthesised error envelope when it is not one. */
  function interpret(a: Extract<Attempt, { kind: 'response' }>, attempts: number): LiveCallResult {
    let parsed: unknown;
    let ok = false;
    try {
      parsed = JSON.parse(a.raw);
      ok = isEnvelope(parsed);
    } catch {
      ok = false;
    }
    if (ok) return result(a.status, parsed as Envelope, attempts, a, a.raw);
    const status = a.status;
    let env: ErrorEnvelope;
    if (status >= 500) env = errorEnvelope('server_error', SERVER_ERROR_MESSAGE);
    else if (status === 401) env = errorEnvelope('unauthorized', 'Invalid API key.');
    else if (status === 403) env = errorEnvelope('forbidden', 'The API key may not access this resource.');
    else if (status === 404) env = errorEnvelope('not_found', `The API answered 404 for this path (is PUBLICDATA_BASE_URL right? it is ${baseUrl}).`);
    else if (status === 429)
      env = errorEnvelope('rate_limit_exceeded', 'Rate limit exceeded. Please retry after the period indicated in the Retry-After header.');
    else {
      env = errorEnvelope('server_error', `The API answered HTTP ${status} with a body that is not a v1 JSON envelope.`);
      return synthesised(502, env, attempts, a);
    }
    return synthesised(status, env, attempts, a);
  }

  function backoff(retry: number): number {
    const base = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (retry - 1));
    return base / 2 + random() * (base / 2); // "equal jitter"
  }

  function jitter(ms: number): number {
    return random() * Math.min(1000, 100 + ms * 0.1);
  }

  function spend(a: Extract<Attempt, { kind: 'response' }>, cost: number): void {
    const headerCost = num(a.headers['x-credits-cost']);
    const rem = num(a.headers['x-credits-remaining']);
    if (rem !== undefined) stats.creditsRemaining = rem;
    if (headerCost !== undefined) {
      stats.lastCost = headerCost;
      stats.creditsSpent += headerCost;
    } else if (a.status < 500 && ![401, 402, 403, 429].includes(a.status)) {
      // No header: assume the documented cost of an answered request.
      stats.creditsSpent += cost;
    }
  }

  async function call(c: RouteCall): Promise<LiveCallResult> {
    stats.calls++;
    if (keyIssue) {
      return synthesised(401, errorEnvelope('unauthorized', `The API key is malformed: ${keyIssue}.`), 0);
    }
    const url = buildUrl(baseUrl, c.path, c.query);
    const pathForLog = url.slice(baseUrl.replace(/\/v1$/, '').length);
    const cost = costOf(c);
    const started = now();
    let waitedThisCall = 0;
    let attempts = 0;
    let last5xx: LiveCallResult | undefined;
    let last429: LiveCallResult | undefined;

    for (let retry = 0; ; retry++) {
      if (maxCredits !== undefined && stats.creditsSpent + cost > maxCredits) {
        const env = errorEnvelope(
          'credit_budget_exceeded',
          `Not sent: ${c.method} ${c.path} costs ${cost} credit(s); ${stats.creditsSpent} of the ${maxCredits} allowed by --max-credits are spent.`,
        );
        log?.(`✗ ${env.error.message}`);
        return synthesised(402, env, attempts);
      }
      const slot = await acquireSlot(maxWaitMs - waitedThisCall);
      waitedThisCall += slot.waitedMs;
      if (slot.overBudgetMs !== undefined) {
        const env = errorEnvelope(
          'rate_limit_exceeded',
          `Rate limit window used up; it resets in ${secs(slot.overBudgetMs)}, longer than the remaining wait budget (--max-wait ${maxWaitMs / 1000} s).`,
        );
        log?.(`✗ ${env.error.message}`);
        return synthesised(429, env, attempts);
      }
      attempts++;
      if (retry > 0) stats.retries++;
      let a: Attempt;
      try {
        a = await send(c, url);
      } finally {
        inflight--;
      }
      if (a.kind === 'response') {
        const receivedAt = now();
        observeClock(a.headers['date'], a.sentAt, receivedAt);
        observe(a.headers, receivedAt);
      }
      answered();

      let retryWaitMs: number | undefined;
      let reason = '';
      if (a.kind === 'network') {
        stats.networkErrors++;
        log?.(`✗ ${c.method} ${pathForLog} ${a.code} after ${Math.round(a.ms)} ms`);
        if (c.method === 'GET' || a.connectPhase) {
          retryWaitMs = backoff(retry + 1);
          reason = a.code;
        }
      } else {
        spend(a, cost);
        log?.(describeResponse(c, a, pathForLog));
        const res = interpret(a, attempts);
        const code = isErrorEnvelope(res.envelope) ? res.envelope.error.code : undefined;
        if (code === 'insufficient_credits') return res; // never retried, whatever the status
        if (a.status === 429) {
          stats.rateLimited++;
          last429 = res;
          const ra = parseRetryAfter(a.headers['retry-after'], now() + clockOffset());
          const base = Math.max(ra ?? 0, retry > 0 ? backoff(retry) : 0, ra === undefined ? backoff(retry + 1) : 0);
          retryWaitMs = base + jitter(base);
          reason = `429 ${code ?? ''}`.trim();
          // After a 429 the window is used up until Retry-After (which wins over X-RateLimit-Reset),
          // so concurrent calls hold back too.
          win.remaining = 0;
          win.resetMs = now() + (ra ?? 0) - resetMarginMs;
        } else if (a.status >= 500) {
          stats.serverErrors++;
          last5xx = res;
          if (c.method === 'GET') {
            retryWaitMs = backoff(retry + 1);
            reason = `HTTP ${a.status}`;
          }
        }
        if (retryWaitMs === undefined) return res;
      }

      // Retry or give up.
      const budgetLeft = maxWaitMs - waitedThisCall;
      if (retryWaitMs === undefined || retry >= maxRetries || retryWaitMs > budgetLeft) {
        const why =
          retryWaitMs === undefined
            ? 'not retried'
            : retry >= maxRetries
              ? `retry budget (${maxRetries}) used`
              : `next wait ${secs(retryWaitMs)} exceeds --max-wait`;
        log?.(`✗ giving up after ${attempts} attempt(s), ${secs(now() - started)}: ${why}`);
        if (a.kind === 'network') {
          const env = errorEnvelope(
            'network_error',
            `Could not reach ${baseHost} (${a.code}${a.message && a.message !== a.code ? `: ${a.message}` : ''}) after ${attempts} attempt(s).`,
          );
          return synthesised(503, env, attempts);
        }
        return (a.status === 429 ? last429 : last5xx) ?? interpret(a, attempts);
      }
      log?.(`… ${reason}: retry ${retry + 1}/${maxRetries} in ${secs(retryWaitMs)}`);
      await wait(retryWaitMs);
      waitedThisCall += retryWaitMs;
    }
  }

  return {
    kind: 'live',
    baseUrl,
    warnings,
    call,
    stats: () => ({ ...stats, clockOffsetMs: clockOffset(), rateLimit: { ...stats.rateLimit } }),
    creditsSpent: () => stats.creditsSpent,
    canSpend: (n: number) => maxCredits === undefined || stats.creditsSpent + n <= maxCredits,
    async close() {
      if (agent) await agent.close();
      agent = undefined;
      agentPromise = undefined;
    },
  };
}
