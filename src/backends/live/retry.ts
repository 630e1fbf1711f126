/**
 * Retry policy of the live client (docs/live-client.md, "Retries"): what is retried, how long to wait,
 * and when to stop. Pure: no clock, no I/O (the random source is injected for jitter).
 *
 * - 429: wait Retry-After (delta-seconds or HTTP-date), from the second 429 of a call at least the
 *   exponential back-off, plus jitter; GET and POST (a 429 was not processed).
 * - Network failures: GET always; POST only when the request surely was not sent (connect phase).
 *   An unreachable server (refused, no such host, no route) gets at most UNREACHABLE_MAX_RETRIES
 *   retries: it is rarely back within seconds, and the user should hear so at once.
 * - 5xx: GET only; Retry-After when the server sends one (RFC 9110 §10.2.3), else the back-off.
 * - Never: an answer that says it is permanent (`isPermanent`: 501/505, or an error code that no wait
 *   changes, such as serve's 503 dataset_not_synced), insufficient_credits whatever its status, 401,
 *   403, other 4xx, 2xx.
 */
import { ERROR_CODES } from '../../contract/errors.js';
import type { HttpMethod } from '../../contract/types.js';
import type { Attempt, NetworkAttempt } from './transport.js';

/** Retries of a call whose server could not be reached at all (about 1.5 s of waiting in total). */
export const UNREACHABLE_MAX_RETRIES = 2;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * 5xx error codes a later attempt may not get (the server was overloaded, slow, or failed once); every
 * other code we know (ERROR_CODES) describes the request or the server's data and is sent again alike.
 * An unknown code is treated as transient, as a bare 5xx is.
 */
const TRANSIENT_CODES = new Set(['server_error', 'internal_error', 'service_unavailable', 'timeout', 'network_error', 'rate_limit_exceeded']);

/**
 * Whether an answer says it will not change on a retry: 501 Not Implemented and 505, or an error code
 * such as dataset_not_synced (serve: run the sync it names) or not_available_offline.
 */
export function isPermanent(status: number, code: string | undefined): boolean {
  if (status === 501 || status === 505) return true;
  return code !== undefined && Object.hasOwn(ERROR_CODES, code) && !TRANSIENT_CODES.has(code);
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

/** What a network failure means for a person reading a wait line. */
export function describeNetworkCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)';
    case 'ENOTFOUND':
      return 'host not found (DNS)';
    case 'EAI_AGAIN':
      return 'DNS lookup failed for now';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the host (network down?)';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'connect timed out';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'no answer in time';
    default:
      return code;
  }
}

export interface RetryPolicyOptions {
  maxRetries: number;
  /** First back-off step, ms. */
  backoffBaseMs: number;
  /** Largest back-off step, ms. */
  backoffMaxMs: number;
  /** [0,1) source of jitter. */
  random: () => number;
}

export class RetryPolicy {
  constructor(private readonly o: RetryPolicyOptions) {}

  /** Exponential back-off with "equal jitter": retry 1 waits 0.25–0.5 s of a 0.5 s base, and so on. */
  backoff(retry: number): number {
    const base = Math.min(this.o.backoffMaxMs, this.o.backoffBaseMs * 2 ** (retry - 1));
    return base / 2 + this.o.random() * (base / 2);
  }

  jitter(ms: number): number {
    return this.o.random() * Math.min(1000, 100 + ms * 0.1);
  }

  /** Wait before retrying a network failure, or undefined when it must not be retried. */
  afterNetwork(method: HttpMethod, a: NetworkAttempt, retry: number): number | undefined {
    return method === 'GET' || a.connectPhase ? this.backoff(retry + 1) : undefined;
  }

  /** Wait before retrying a 429 (`retry` is the number of retries made so far). */
  after429(retryAfterMs: number | undefined, retry: number): number {
    const base = Math.max(retryAfterMs ?? 0, retry > 0 ? this.backoff(retry) : 0, retryAfterMs === undefined ? this.backoff(retry + 1) : 0);
    return base + this.jitter(base);
  }

  /** Wait before retrying a 5xx, or undefined when it must not be retried (POST). */
  after5xx(method: HttpMethod, retryAfterMs: number | undefined, retry: number): number | undefined {
    if (method !== 'GET') return undefined;
    if (retryAfterMs !== undefined) return retryAfterMs + this.jitter(0);
    return this.backoff(retry + 1);
  }

  /** Retries allowed after this kind of failure. */
  maxRetriesAfter(a: Attempt): number {
    return a.kind === 'network' && UNREACHABLE.has(a.code) ? Math.min(this.o.maxRetries, UNREACHABLE_MAX_RETRIES) : this.o.maxRetries;
  }
}
