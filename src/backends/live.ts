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
import type { RouteCall } from '../contract/types.js';
import { isErrorEnvelope } from '../contract/types.js';
import { wireValues } from '../contract/vocabulary.js';
import { Pacer } from './live/pacer.js';
import { interpret, num, result, type LiveCallResult } from './live/response.js';
import { describeNetworkCode, isPermanent, parseRetryAfter, RetryPolicy } from './live/retry.js';
import { buildUrl, createTransport, type Attempt, type NetworkAttempt, type ResponseAttempt, type Transport } from './live/transport.js';
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

/** The settings of one backend, resolved from LiveOptions. */
interface LiveConfig {
  baseUrl: string;
  /** host[:port] of the base URL, for messages. */
  baseHost: string;
  apiKey: string;
  maxWaitMs: number;
  maxRetries: number;
  maxCredits: number | undefined;
  now: () => number;
  /** Verbose lines, redacted. */
  log: ((line: string) => void) | undefined;
  /** Wait lines: to the verbose log, or else to the terminal notice; redacted. */
  waitLine: ((line: string) => void) | undefined;
  /** Why the key is malformed (then no request is sent). */
  keyIssue: string | undefined;
}

function resolveConfig(opts: LiveOptions): LiveConfig {
  const baseUrl = (opts.baseUrl || opts.env.PUBLICDATA_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
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
  const apiKey = opts.apiKey;
  // Lines name URLs: userinfo in the base URL and credential-named query values are masked too.
  const log = opts.log ? (line: string) => opts.log!(redact(redactUrlsIn(line), apiKey)) : undefined;
  return {
    baseUrl,
    baseHost: parsedBase.host,
    apiKey,
    maxWaitMs: Math.max(0, (opts.maxWait ?? DEFAULT_MAX_WAIT_S) * 1000),
    maxRetries: Math.min(10, Math.max(0, Math.floor(opts.maxRetries ?? DEFAULT_MAX_RETRIES))),
    maxCredits: opts.maxCredits,
    now: opts.now ?? Date.now,
    log,
    waitLine: log ?? (opts.notice ? (line: string) => opts.notice!(redact(redactUrlsIn(line), apiKey)) : undefined),
    keyIssue: keyProblem(apiKey),
  };
}

function keyWarnings(apiKey: string, baseUrl: string): string[] {
  const warnings: string[] = [];
  if (keyKind(apiKey) === 'test' && baseUrl === DEFAULT_BASE_URL) {
    warnings.push(
      `Using a test key (${maskKey(apiKey)}) against the production API ${DEFAULT_BASE_URL}: test keys are for development (10 requests/minute, no live credits). Use a gd_live_ key for live work.`,
    );
  }
  return warnings;
}

function newStats(): LiveStats {
  return {
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
}

/** Header bookkeeping: the last X-RateLimit-* seen. */
function observeRateLimit(stats: LiveStats, headers: Record<string, string>): void {
  const limit = num(headers['x-ratelimit-limit']);
  const remaining = num(headers['x-ratelimit-remaining']);
  const reset = num(headers['x-ratelimit-reset']);
  if (limit !== undefined) stats.rateLimit.limit = limit;
  if (remaining !== undefined) stats.rateLimit.remaining = remaining;
  if (reset !== undefined) stats.rateLimit.reset = reset;
}

/** Header bookkeeping: credits from X-Credits-Cost / X-Credits-Remaining, else the route's cost. */
function spendCredits(stats: LiveStats, a: Pick<ResponseAttempt, 'status' | 'headers'>, cost: number): void {
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

/** The verbose log line of a response (the caller's log redacts it). */
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

/** One call's progress across its attempts. */
interface CallProgress {
  c: PreparedCall;
  url: string;
  pathForLog: string;
  cost: number;
  started: number;
  /** Waited so far (pacing and retry waits), ms, against --max-wait. */
  waited: number;
  attempts: number;
  last5xx?: LiveCallResult;
  last429?: LiveCallResult;
}

/** What an attempt leads to: an answer, or a retry after retryWaitMs (undefined: not retryable). */
type Verdict = { answer: LiveCallResult } | { retryWaitMs: number | undefined; reason: string };

/** The call loop of one backend, in named steps; its state is the stats, the pacer and the transport. */
class LiveCaller {
  readonly stats: LiveStats = newStats();
  readonly transport: Transport;
  readonly pacer: Pacer;
  private readonly policy: RetryPolicy;
  private readonly cfg: LiveConfig;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(cfg: LiveConfig, opts: LiveOptions) {
    this.cfg = cfg;
    this.sleep = opts.sleep ?? defaultSleep;
    this.transport = createTransport({
      apiKey: cfg.apiKey,
      userAgent: opts.userAgent ?? 'publicdata',
      timeoutMs: opts.timeoutMs ?? 30_000,
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      now: cfg.now,
    });
    this.pacer = new Pacer({
      now: cfg.now,
      wait: (ms) => this.wait(ms),
      resetMarginMs: opts.resetMarginMs ?? 100,
      onWindowWait: (ms, limit) => {
        cfg.waitLine?.(`… rate-limit window used up (${limit ?? '?'} requests): waiting ${secs(ms)} for the reset`);
        this.stats.pacingWaits++;
      },
    });
    this.policy = new RetryPolicy({
      maxRetries: cfg.maxRetries,
      backoffBaseMs: opts.backoffBaseMs ?? 500,
      backoffMaxMs: opts.backoffMaxMs ?? 30_000,
      random: opts.random ?? Math.random,
    });
  }

  async wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    this.stats.waitedMs += ms;
    await this.sleep(ms);
  }

  async call(typed: PreparedCall): Promise<LiveCallResult> {
    const { cfg } = this;
    // a shared-vocabulary value (a region typed as "North West") goes out as the value the API documents (north_west)
    const wire = typed.prepared ? wireValues(typed.prepared.route, typed.query, typed.body, typed.prepared.request) : undefined;
    const c: PreparedCall = wire && (wire.query !== typed.query || wire.body !== typed.body) ? { ...typed, query: wire.query, body: wire.body } : typed;
    this.stats.calls++;
    if (cfg.keyIssue) {
      return result(401, errorEnvelope('unauthorized', `The API key is malformed: ${cfg.keyIssue}.`), 0);
    }
    const url = buildUrl(cfg.baseUrl, c.path, c.query);
    const pathForLog = url.slice(cfg.baseUrl.replace(/\/v1$/, '').length);
    const p: CallProgress = { c, url, pathForLog, cost: costOf(c), started: cfg.now(), waited: 0, attempts: 0 };
    for (let retry = 0; ; retry++) {
      const refused = this.overCredits(p) ?? (await this.acquireSlot(p));
      if (refused) return refused;
      const a = await this.attempt(p, retry);
      const verdict = a.kind === 'network' ? this.afterNetwork(p, a, retry) : this.afterResponse(p, a, retry);
      if ('answer' in verdict) return verdict.answer;
      const next = this.decideRetry(p, a, verdict.retryWaitMs, retry);
      if ('answer' in next) return next.answer;
      cfg.waitLine?.(`… ${verdict.reason}: retry ${retry + 1}/${next.allowed} in ${secs(next.waitMs)}`);
      await this.wait(next.waitMs);
      p.waited += next.waitMs;
    }
  }

  /** The --max-credits check: a request that would pass the budget is not sent. */
  private overCredits(p: CallProgress): LiveCallResult | undefined {
    const { maxCredits } = this.cfg;
    if (maxCredits !== undefined && this.stats.creditsSpent + p.cost > maxCredits) {
      const e = errorEnvelope(
        'credit_budget_exceeded',
        `Not sent: ${p.c.method} ${p.c.path} costs ${p.cost} credit(s); ${this.stats.creditsSpent} of the ${maxCredits} allowed by --max-credits are spent.`,
      );
      this.cfg.log?.(`✗ ${e.error.message}`);
      return result(402, e, p.attempts);
    }
    return undefined;
  }

  /** A slot in the rate-limit window, or a 429 when waiting for it would pass --max-wait. */
  private async acquireSlot(p: CallProgress): Promise<LiveCallResult | undefined> {
    const { maxWaitMs } = this.cfg;
    const slot = await this.pacer.acquire(maxWaitMs - p.waited);
    p.waited += slot.waitedMs;
    if (slot.overBudgetMs === undefined) return undefined;
    const e = errorEnvelope(
      'rate_limit_exceeded',
      `Rate limit window used up; it resets in ${secs(slot.overBudgetMs)}, longer than the remaining wait budget (--max-wait ${maxWaitMs / 1000} s).`,
    );
    this.cfg.log?.(`✗ ${e.error.message}`);
    return result(429, e, p.attempts);
  }

  /** One HTTP attempt: counted, logged, sent, and the pacer told what came back. */
  private async attempt(p: CallProgress, retry: number): Promise<Attempt> {
    p.attempts++;
    if (retry > 0) this.stats.retries++;
    this.stats.requests++;
    this.cfg.log?.(`→ ${p.c.method} ${p.url}`);
    let a: Attempt;
    try {
      a = await this.transport.send(p.c, p.url);
    } catch (e) {
      this.pacer.settle();
      throw e;
    }
    if (a.kind === 'response') observeRateLimit(this.stats, a.headers);
    this.pacer.settle(a.kind === 'response' ? { headers: a.headers, sentAt: a.sentAt, receivedAt: this.cfg.now() } : undefined);
    return a;
  }

  private afterNetwork(p: CallProgress, a: NetworkAttempt, retry: number): Verdict {
    this.stats.networkErrors++;
    // The answer's headers came before the body was cut off: what they charged counts (--max-credits).
    if (a.answered) spendCredits(this.stats, a.answered, p.cost);
    this.cfg.log?.(`✗ ${p.c.method} ${p.pathForLog} ${a.code} after ${Math.round(a.ms)} ms`);
    const retryWaitMs = this.policy.afterNetwork(p.c.method, a, retry);
    return { retryWaitMs, reason: `${this.cfg.baseHost}: ${describeNetworkCode(a.code)}` };
  }

  private afterResponse(p: CallProgress, a: ResponseAttempt, retry: number): Verdict {
    const { stats, cfg } = this;
    spendCredits(stats, a, p.cost);
    cfg.log?.(describeResponse(p.c, a, p.pathForLog));
    const res = interpret(a, p.attempts, cfg.baseUrl);
    const code = isErrorEnvelope(res.envelope) ? res.envelope.error.code : undefined;
    // Never retried, whatever the status: insufficient_credits, and answers that say they are
    // permanent (serve's 503 dataset_not_synced, a 501).
    if (code === 'insufficient_credits' || isPermanent(a.status, code)) return { answer: res };
    const ra = parseRetryAfter(a.headers['retry-after'], cfg.now() + this.pacer.clockOffset());
    let retryWaitMs: number | undefined;
    let reason = '';
    if (a.status === 429) {
      stats.rateLimited++;
      p.last429 = res;
      retryWaitMs = this.policy.after429(ra, retry);
      reason = `429 ${code ?? ''}`.trim();
      // Concurrent calls hold back too until Retry-After has passed.
      this.pacer.holdFor(ra);
    } else if (a.status >= 500) {
      stats.serverErrors++;
      p.last5xx = res;
      retryWaitMs = this.policy.after5xx(p.c.method, ra, retry);
      reason = `HTTP ${a.status} from ${cfg.baseHost}`;
    }
    if (retryWaitMs === undefined) return { answer: res };
    return { retryWaitMs, reason };
  }

  /** Retry (after waitMs, of `allowed` retries) or give up with the answer to return. */
  private decideRetry(p: CallProgress, a: Attempt, retryWaitMs: number | undefined, retry: number): { answer: LiveCallResult } | { waitMs: number; allowed: number } {
    const { cfg } = this;
    const budgetLeft = cfg.maxWaitMs - p.waited;
    const allowed = this.policy.maxRetriesAfter(a);
    if (retryWaitMs !== undefined && !(retry >= allowed || retryWaitMs > budgetLeft)) return { waitMs: retryWaitMs, allowed };
    const why =
      retryWaitMs === undefined
        ? 'not retried'
        : retry >= allowed
          ? `retry budget (${allowed}${allowed < cfg.maxRetries ? ' for an unreachable server' : ''}) used`
          : `next wait ${secs(retryWaitMs)} exceeds --max-wait`;
    cfg.log?.(`✗ giving up after ${p.attempts} attempt(s), ${secs(cfg.now() - p.started)}: ${why}`);
    if (a.kind === 'network') {
      const why = `${a.code}${a.message && a.message !== a.code ? `: ${a.message}` : ''}`;
      const cost = a.answered?.headers['x-credits-cost'];
      const e = errorEnvelope(
        'network_error',
        a.answered
          ? `${cfg.baseHost} answered HTTP ${a.answered.status}${cost !== undefined ? ` (X-Credits-Cost ${cost}: charged)` : ''} but the connection closed before the whole body arrived (${why}), after ${p.attempts} attempt(s); running the request again may be charged again.`
          : `Could not reach ${cfg.baseHost} (${why}) after ${p.attempts} attempt(s).`,
      );
      return { answer: result(503, e, p.attempts) };
    }
    return { answer: (a.status === 429 ? p.last429 : p.last5xx) ?? interpret(a, p.attempts, cfg.baseUrl) };
  }
}

export function createLiveBackend(opts: LiveOptions): LiveBackend {
  const cfg = resolveConfig(opts);
  const warnings = keyWarnings(cfg.apiKey, cfg.baseUrl);
  const caller = new LiveCaller(cfg, opts);
  const { stats, pacer, transport } = caller;
  const maxCredits = cfg.maxCredits;
  return {
    kind: 'live',
    baseUrl: cfg.baseUrl,
    warnings,
    call: (c: PreparedCall) => caller.call(c),
    stats: () => ({ ...stats, clockOffsetMs: pacer.clockOffset(), rateLimit: { ...stats.rateLimit } }),
    creditsSpent: () => stats.creditsSpent,
    canSpend: (n: number) => maxCredits === undefined || stats.creditsSpent + n <= maxCredits,
    close: () => transport.close(),
  };
}
