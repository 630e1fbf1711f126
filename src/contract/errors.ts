/**
 * Error codes of the v1 contract (spec doc 1 §7 and GOVDATA-NOTES.md "Error codes beyond the spec"),
 * the ApiError thrown by validation and handlers, and the mapping of every code to a CLI exit code.
 */
import type { ErrorDetail, ErrorEnvelope } from './types.js';

/** `{docs_url}` of the spec: we follow the spec's per-code form when we produce errors. */
export const DOCS_URL = 'https://docs.govdata.dev';

export interface ErrorCodeInfo {
  status: number;
  /** What the code means (for `publicdata help exit-codes` and the README). */
  when: string;
}

/** Every error code we produce or expect to read. */
export const ERROR_CODES: Record<string, ErrorCodeInfo> = {
  invalid_parameter: { status: 400, when: 'a query filter is malformed or not one of its allowed values' },
  bad_request: { status: 400, when: 'a request body is malformed or misses a required field' },
  invalid_region: { status: 400, when: "tax region is not 'england_wales_ni' or 'scotland'" },
  invalid_year: { status: 400, when: 'calendar year is not a 4-digit number' },
  VALIDATION_ERROR: { status: 400, when: 'the VAT return body fails validation; details[] lists every failure' },
  unauthorized: { status: 401, when: 'missing, malformed, unknown or revoked API key' },
  forbidden: { status: 403, when: 'the key may not access this resource' },
  insufficient_credits: { status: 402, when: 'the account has no credits left (the published service may send it with 429)' },
  not_found: { status: 404, when: 'a single-record lookup names a record that does not exist (or an unknown path)' },
  invalid_tax_year: { status: 404, when: 'tax year not found or not in the form YYYY-YY' },
  no_active_tax_year: { status: 404, when: 'no tax year is active' },
  make_prefix_too_broad: { status: 422, when: 'vehicle make prefix is one character or matches more than 25 makes' },
  marriage_allowance_ineligible: { status: 422, when: 'marriage allowance recipient is not a basic-rate (Scotland: starter, basic or intermediate) taxpayer' },
  director_not_applicable: { status: 422, when: "NI director method asked for with a type other than 'employed'" },
  invalid_type: { status: 422, when: "NI type is not 'employed' or 'self_employed'" },
  rate_limit_exceeded: { status: 429, when: 'per-minute request limit exceeded; retried after Retry-After' },
  method_not_allowed: { status: 405, when: 'the path exists but not with this method' },
  // Client-side codes (never sent by the API; produced by publicdata itself, same envelope).
  not_available_live: { status: 501, when: "a publicdata extension route (postcodes, area) asked for with --source live: the published API has no such route; use the local mirror or serve" },
  not_available_offline: { status: 503, when: 'no local handler or local data for this route, and no API key for live' },
  dataset_not_synced: { status: 503, when: 'the local mirror lacks the dataset this route needs; the message names the sync command' },
  dataset_damaged: { status: 503, when: 'the mirror file this route reads is damaged (DuckDB cannot read it whole); the message names the file and the sync that rebuilds it' },
  credit_budget_exceeded: { status: 402, when: '--max-credits would be exceeded by this job' },
  network_error: { status: 503, when: 'the API could not be reached (DNS, refused, reset, timeout) after retries' },
  server_error: { status: 500, when: 'the API answered 5xx after retries' },
  usage_error: { status: 400, when: 'bad command-line usage (unknown flag, missing argument, unparseable --data)' },
  // Produced by `publicdata serve` (HTTP-level refusals; docs/serve.md). It answers a route without a
  // local handler with not_available_offline and status 501, not the CLI's 503.
  payload_too_large: { status: 413, when: 'serve: the request body is larger than the limit (5 MB)' },
  timeout: { status: 503, when: 'serve: the request took longer than the handler time limit (30 s)' },
  internal_error: { status: 500, when: 'an unexpected failure; publicdata serve answers it without details' },
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: ErrorDetail[];
  constructor(status: number, code: string, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (details) this.details = details;
  }
  toEnvelope(): ErrorEnvelope {
    return errorEnvelope(this.code, this.message, this.details);
  }
}

export function documentationUrl(code: string): string {
  return code === 'rate_limit_exceeded' || code === 'insufficient_credits'
    ? `${DOCS_URL}/rate-limits`
    : `${DOCS_URL}/errors/${code}`;
}

export function errorEnvelope(code: string, message: string, details?: ErrorDetail[]): ErrorEnvelope {
  const error: ErrorEnvelope['error'] = { code, message, documentation_url: documentationUrl(code) };
  if (details) error.details = details;
  return { error };
}

/** Shorthands used by validation and handlers. */
export const errors = {
  invalidParameter: (message: string) => new ApiError(400, 'invalid_parameter', message),
  badRequest: (message: string) => new ApiError(400, 'bad_request', message),
  invalidRegion: (value: unknown) =>
    new ApiError(400, 'invalid_region', `Invalid region '${String(value)}'. Use 'england_wales_ni' or 'scotland'.`),
  /**
   * A tax year not found. Malformed: the API's own message (the format). Well-formed but outside the
   * data (`covered`, sorted): say which years are covered, not the format the user already used.
   */
  invalidTaxYear: (value: unknown, covered?: readonly string[]) =>
    new ApiError(
      404,
      'invalid_tax_year',
      covered?.length && typeof value === 'string' && /^\d{4}-\d{2}$/.test(value)
        ? `Tax year '${value}' not found: the data covers ${covered[0]} to ${covered[covered.length - 1]}.`
        : `Tax year '${String(value)}' not found. Use the format YYYY-YY, e.g. 2025-26.`,
    ),
  notFound: (message: string) => new ApiError(404, 'not_found', message),
  unprocessable: (code: string, message: string) => new ApiError(422, code, message),
  validation: (details: ErrorDetail[]) =>
    new ApiError(400, 'VALIDATION_ERROR', `Request validation failed with ${details.length} error(s).`, details),
};

/**
 * CLI exit codes (issue 2, point 7). The same code whichever backend answered.
 *  0 ok · 1 other error envelope · 2 usage / 400-class validation · 3 insufficient credits
 *  4 authentication (401/403) · 5 rate limited past the retry budget · 6 network failure or 5xx
 */
export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  CREDITS: 3,
  AUTH: 4,
  RATE_LIMITED: 5,
  NETWORK: 6,
} as const;

export const EXIT_CODE_DOCS: Array<[number, string]> = [
  [0, 'success'],
  [1, 'the API (or the local handler) answered with an error envelope not listed below: 404 not_found / invalid_tax_year / no_active_tax_year, the 422 codes (make_prefix_too_broad, marriage_allowance_ineligible, director_not_applicable, invalid_type); dataset_not_synced / dataset_damaged (run the sync it names); internal_error when publicdata itself fails'],
  [2, 'usage error or 400-class validation error: usage_error, invalid_parameter (also the 422 of a malformed collisions date), bad_request, invalid_region, invalid_year, VALIDATION_ERROR, unparseable --data'],
  [3, 'insufficient credits (402, or 429 with code insufficient_credits), or --max-credits would be exceeded'],
  [4, 'authentication: 401 unauthorized or 403 forbidden, or no API key for a call only the API can answer (unauthorized under --source live, not_available_offline under auto or local), or not_available_live: a publicdata extension route (postcodes, area) under --source live'],
  [5, 'rate limited (429) past the retry budget or --max-wait'],
  [6, 'network failure or 5xx after retries: network_error, server_error, the API\'s own 500 envelope (internal_error)'],
];

/** Exit code for an error code and HTTP status. Switch on the code first (GOVDATA-NOTES: 402 vs 429). */
export function exitCodeFor(code: string, status?: number): number {
  switch (code) {
    case 'insufficient_credits':
    case 'credit_budget_exceeded':
      return EXIT.CREDITS;
    case 'unauthorized':
    case 'forbidden':
    case 'missing_api_key':
    // The route can only be answered by the API and there is no key: the same exit whether --source was
    // auto (this code) or live (unauthorized), since the fix is the same (set a key).
    case 'not_available_offline':
    // an extension route has no live backend at all: the same "no backend can answer" exit (spec 5-places.md)
    case 'not_available_live':
      return EXIT.AUTH;
    case 'rate_limit_exceeded':
      return EXIT.RATE_LIMITED;
    case 'network_error':
    case 'server_error':
      return EXIT.NETWORK;
    // 400-class validation codes: exit 2 whatever the status. The road collisions list answers a
    // malformed date_from/date_to with 422 invalid_parameter (spec doc 1); the README's exit table puts
    // invalid_parameter under 2 like every other bad filter (the fix is the same: correct the value).
    case 'usage_error':
    case 'invalid_parameter':
    case 'bad_request':
    case 'invalid_region':
    case 'invalid_year':
    case 'VALIDATION_ERROR':
      return EXIT.USAGE;
    case 'dataset_not_synced':
    case 'dataset_damaged':
    case 'not_found':
    case 'invalid_tax_year':
    case 'no_active_tax_year':
    case 'make_prefix_too_broad':
    case 'marriage_allowance_ineligible':
    case 'director_not_applicable':
    case 'invalid_type':
      return EXIT.ERROR;
  }
  const s = status ?? ERROR_CODES[code]?.status ?? 0;
  if (s === 401 || s === 403) return EXIT.AUTH;
  if (s === 402) return EXIT.CREDITS;
  if (s === 429) return EXIT.RATE_LIMITED;
  if (s >= 500) return EXIT.NETWORK;
  if (s >= 400 && s < 500 && s !== 404 && s !== 405 && s !== 422) return EXIT.USAGE;
  return EXIT.ERROR;
}
