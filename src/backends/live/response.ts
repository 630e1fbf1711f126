/**
 * What an answer of the live API means for the caller: the envelope exactly as received (with the raw
 * body for byte-exact passthrough), or a synthesised error envelope when the body is not a v1 envelope,
 * plus the rate-limit and credit headers.
 */
import { redactUrl } from '../../config.js';
import { errorEnvelope } from '../../contract/errors.js';
import type { CallResult, Envelope, ErrorEnvelope } from '../../contract/types.js';
import { isErrorEnvelope } from '../../contract/types.js';
import type { ResponseAttempt } from './transport.js';

export const SERVER_ERROR_MESSAGE = 'An unexpected error occurred on our end.';

export interface LiveCallResult extends CallResult {
  source: 'live';
  /** The response body exactly as received (for byte-exact passthrough); absent when synthesised. */
  raw?: string;
  /** Attempts made for this call. */
  attempts: number;
}

export function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return 'data' in v || isErrorEnvelope(v);
}

export function result(status: number, envelope: Envelope, attempts: number, a?: ResponseAttempt, raw?: string): LiveCallResult {
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

/** Interpret a response body: the envelope as sent, or a synthesised error envelope when it is not one. */
export function interpret(a: ResponseAttempt, attempts: number, baseUrl: string): LiveCallResult {
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
  else if (status === 404) env = errorEnvelope('not_found', `The API answered 404 for this path (is PUBLICDATA_BASE_URL right? it is ${redactUrl(baseUrl, { allQuery: true })}).`);
  else if (status === 429)
    env = errorEnvelope('rate_limit_exceeded', 'Rate limit exceeded. Please retry after the period indicated in the Retry-After header.');
  else {
    env = errorEnvelope('server_error', `The API answered HTTP ${status} with a body that is not a v1 JSON envelope.`);
    return result(502, env, attempts, a);
  }
  return result(status, env, attempts, a);
}
