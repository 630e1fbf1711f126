/**
 * The live backend: the v1 API over HTTPS. Composes the pieces in src/backends/live/ (docs/live-client.md
 * has the reasons):
 * - transport.ts: URL building and one attempt with undici (one keep-alive Agent per backend);
 * - pacer.ts: the rate-limit window from X-RateLimit-* so a long job does not provoke 429;
 * - retry.ts: what is retried and how long to wait (429 Retry-After, back-off, POST safety);
 * - response.ts: the envelope as received, or a synthesised error envelope.
 * This file keeps the call loop: the --max-credits budget, the --max-wait budget, stats and the log.
 * The key is sent only in the Authorization header and never appears in log lines or messages.
 */
import { redact, redactUrl, redactUrlsIn, keyKind, keyProblem, maskKey } from '../config.js';
import { ApiError, errorEnvelope } from '../contract/errors.js';
import { matchRoute } from '../registry.js';
import type { PreparedCall } from '../runner.js';
import type { ErrorEnvelope, RouteCall } from '../contract/types.js';
import { isErrorEnvelope } from '../contract/types.js';
import { Pacer } from './live/pacer.js';
import { interpret, num, result, type LiveCallResult } from './live/response.js';
import { describeNetworkCode, isPermanent, parseRetryAfter, RetryPolicy } from './live/retry.js';
import { buildUrl, createTransport, type Attempt, type ResponseAttempt } from './live/transport.js';
import type { Backend } from './types.js';

export { buildUrl, PASSED_HEADERS } from './live/transport.js';
export { parseRetryAfter, UNREACHABLE_MAX_RETRIES } from './live/retry.js';
export { SERVER_ERROR_MESSAGE, type LiveCallResult } from './live/response.js';

export const DEFAULT_BASE_URL = 'https://api.govdata.dev/v1';
export const DEFAULT_MAX_WAIT_S = 120;
export const DEFAULT_MAX_RETRIES = 5;

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
  /**
   * Wait lines only ("… what it is waiting for"), for a terminal without --verbose: a person sees why
   * nothing happens during a back-off or a rate-limit wait. Not called for lines `log` already shows.
   */
  notice?: (line: string) => void;
  /** Clock in ms since the epoch (tests). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** [0,1) source of jitter (tests). */
  random?: () => number;
  userAgent?: string;
  /** Environment for PUBLICDATA_BASE_URL (default process.env). */
  env: Record<string, string | undefined>;
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

/**
 * Credits of a call: the cost of the route it carries (execute and the server hand the backend a call
 * already matched and validated), else of the route its path matches, else GET 1 / POST 10 for paths
 * outside the table (`publicdata api` to a route the table does not know).
 */
export function costOf(call: Pick<PreparedCall, 'method' | 'path' | 'prepared'>): number {
  if (call.prepared) return call.prepared.route.cost;
  try {
    return matchRoute(call.method, call.path).route.cost;
  } catch {
    return call.method === 'POST' ? 10 : 1;
  }
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}

export function createLiveBackend(opts: LiveOptions): LiveBackend {
  const env = opts.env;
  const baseUrl = (opts.baseUrl || env.PUBLICDATA_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  // A malformed base URL is a usage error now, not a network error retried for seconds later.
  let parsedBase: URL | undefined;
  try {
    parsedBase = new URL(baseUrl);
  } catch {
    parsedBase = undefined;
  }
  if (!parsedBase || (parsedBase.protocol !== 'https:' && parsedBase.protocol !== 'http:')) {
    throw new ApiError(400, 'usage_error', `PUBLICDATA_BASE_URL must be an http(s) URL such as ${DEFAULT_BASE_URL}; got '${redactUrl(baseUrl, { allQuery: true })}'.`);
  }
  const baseHost = parsedBase.host;
  const apiKey = opts.apiKey;
  const maxWaitMs = Math.max(0, (opts.maxWait ?? DEFAULT_MAX_WAIT_S) * 1000);
  const maxRetries = Math.min(10, Math.max(0, Math.floor(opts.maxRetries ?? DEFAULT_MAX_RETRIES)));
  const maxCredits = opts.maxCredits;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const resetMarginMs = opts.resetMarginMs ?? 100;
  // Lines name URLs: userinfo in the base URL and credential-named query values are masked too.
  const log = opts.log ? (line: string) => opts.log!(redact(redactUrlsIn(line), apiKey)) : undefined;
  // Wait lines go to the verbose log, or else to the terminal notice.
  const waitLine = log ?? (opts.notice ? (line: string) => opts.notice!(redact(redactUrlsIn(line), apiKey)) : undefined);

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

  async function wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    stats.waitedMs += ms;
    await sleep(ms);
  }

  const transport = createTransport({
    apiKey,
    userAgent: opts.userAgent ?? 'publicdata',
    timeoutMs: opts.timeoutMs ?? 30_000,
    connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
    now,
  });
  const pacer = new Pacer({
    now,
    wait,
    resetMarginMs,
    onWindowWait: (ms, limit) => {
      waitLine?.(`… rate-limit window used up (${limit ?? '?'} requests): waiting ${secs(ms)} for the reset`);
      stats.pacingWaits++;
    },
  });
  const policy = new RetryPolicy({
    maxRetries,
    backoffBaseMs: opts.backoffBaseMs ?? 500,
    backoffMaxMs: opts.backoffMaxMs ?? 30_000,
    random: opts.random ?? Math.random,
  });

  function observeStats(headers: Record<string, string>): void {
    const limit = num(headers['x-ratelimit-limit']);
    const remaining = num(headers['x-ratelimit-remaining']);
    const reset = num(headers['x-ratelimit-reset']);
    if (limit !== undefined) stats.rateLimit.limit = limit;
    if (remaining !== undefined) stats.rateLimit.remaining = remaining;
    if (reset !== undefined) stats.rateLimit.reset = reset;
  }

  function describeResponse(call: RouteCall, a: ResponseAttempt, path: string): string {
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

  function synthesised(status: number, e: ErrorEnvelope, attempts: number, a?: ResponseAttempt): LiveCallResult {
    return result(status, e, attempts, a);
  }

  function spend(a: ResponseAttempt, cost: number): void {
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

  async function call(c: PreparedCall): Promise<LiveCallResult> {
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
        const e = errorEnvelope(
          'credit_budget_exceeded',
          `Not sent: ${c.method} ${c.path} costs ${cost} credit(s); ${stats.creditsSpent} of the ${maxCredits} allowed by --max-credits are spent.`,
        );
        log?.(`✗ ${e.error.message}`);
        return synthesised(402, e, attempts);
      }
      const slot = await pacer.acquire(maxWaitMs - waitedThisCall);
      waitedThisCall += slot.waitedMs;
      if (slot.overBudgetMs !== undefined) {
        const e = errorEnvelope(
          'rate_limit_exceeded',
          `Rate limit window used up; it resets in ${secs(slot.overBudgetMs)}, longer than the remaining wait budget (--max-wait ${maxWaitMs / 1000} s).`,
        );
        log?.(`✗ ${e.error.message}`);
        return synthesised(429, e, attempts);
      }
      attempts++;
      if (retry > 0) stats.retries++;
      stats.requests++;
      log?.(`→ ${c.method} ${url}`);
      let a: Attempt;
      try {
        a = await transport.send(c, url);
      } catch (e) {
        pacer.settle();
        throw e;
      }
      if (a.kind === 'response') observeStats(a.headers);
      pacer.settle(a.kind === 'response' ? { headers: a.headers, sentAt: a.sentAt, receivedAt: now() } : undefined);

      let retryWaitMs: number | undefined;
      let reason = '';
      if (a.kind === 'network') {
        stats.networkErrors++;
        log?.(`✗ ${c.method} ${pathForLog} ${a.code} after ${Math.round(a.ms)} ms`);
        retryWaitMs = policy.afterNetwork(c.method, a, retry);
        reason = `${baseHost}: ${describeNetworkCode(a.code)}`;
      } else {
        spend(a, cost);
        log?.(describeResponse(c, a, pathForLog));
        const res = interpret(a, attempts, baseUrl);
        const code = isErrorEnvelope(res.envelope) ? res.envelope.error.code : undefined;
        // Never retried, whatever the status: insufficient_credits, and answers that say they are
        // permanent (serve's 503 dataset_not_synced, a 501).
        if (code === 'insufficient_credits' || isPermanent(a.status, code)) return res;
        const ra = parseRetryAfter(a.headers['retry-after'], now() + pacer.clockOffset());
        if (a.status === 429) {
          stats.rateLimited++;
          last429 = res;
          retryWaitMs = policy.after429(ra, retry);
          reason = `429 ${code ?? ''}`.trim();
          // Concurrent calls hold back too until Retry-After has passed.
          pacer.holdFor(ra);
        } else if (a.status >= 500) {
          stats.serverErrors++;
          last5xx = res;
          retryWaitMs = policy.after5xx(c.method, ra, retry);
          reason = `HTTP ${a.status} from ${baseHost}`;
        }
        if (retryWaitMs === undefined) return res;
      }

      // Retry or give up.
      const budgetLeft = maxWaitMs - waitedThisCall;
      const allowed = policy.maxRetriesAfter(a);
      if (retryWaitMs === undefined || retry >= allowed || retryWaitMs > budgetLeft) {
        const why =
          retryWaitMs === undefined
            ? 'not retried'
            : retry >= allowed
              ? `retry budget (${allowed}${allowed < maxRetries ? ' for an unreachable server' : ''}) used`
              : `next wait ${secs(retryWaitMs)} exceeds --max-wait`;
        log?.(`✗ giving up after ${attempts} attempt(s), ${secs(now() - started)}: ${why}`);
        if (a.kind === 'network') {
          const e = errorEnvelope(
            'network_error',
            `Could not reach ${baseHost} (${a.code}${a.message && a.message !== a.code ? `: ${a.message}` : ''}) after ${attempts} attempt(s).`,
          );
          return synthesised(503, e, attempts);
        }
        return (a.status === 429 ? last429 : last5xx) ?? interpret(a, attempts, baseUrl);
      }
      waitLine?.(`… ${reason}: retry ${retry + 1}/${allowed} in ${secs(retryWaitMs)}`);
      await wait(retryWaitMs);
      waitedThisCall += retryWaitMs;
    }
  }

  return {
    kind: 'live',
    baseUrl,
    warnings,
    call,
    stats: () => ({ ...stats, clockOffsetMs: pacer.clockOffset(), rateLimit: { ...stats.rateLimit } }),
    creditsSpent: () => stats.creditsSpent,
    canSpend: (n: number) => maxCredits === undefined || stats.creditsSpent + n <= maxCredits,
    close: () => transport.close(),
  };
}
