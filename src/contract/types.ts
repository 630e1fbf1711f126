/**
 * The v1 response envelope and the shapes every backend and handler shares.
 * Spec: v1 API document 1, "overview, errors, limits": §1 (conventions) and §7 (errors).
 */

export const API_VERSION = 'v1' as const;
export const OGL = 'Open Government Licence v3.0' as const;

export interface Meta {
  api_version: 'v1';
  licence?: string;
  source?: string;
  source_url?: string;
  /**
   * Local answers carry the date of the upstream data answered from; null where the loaded data does not
   * state it (spec 4: a field the open data cannot give is null, and meta says why).
   */
  as_of?: string | null;
  [key: string]: unknown;
}

export interface Pagination {
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}

export interface SuccessEnvelope<T = unknown> {
  data: T;
  meta: Meta;
  pagination?: Pagination;
}

export interface ErrorDetail {
  field: string;
  code: string;
  message: string;
}

export interface ErrorBody {
  code: string;
  message: string;
  documentation_url: string;
  details?: ErrorDetail[];
}

export interface ErrorEnvelope {
  error: ErrorBody;
}

export type Envelope = SuccessEnvelope | ErrorEnvelope;

export function isErrorEnvelope(e: unknown): e is ErrorEnvelope {
  return typeof e === 'object' && e !== null && 'error' in e && typeof (e as ErrorEnvelope).error === 'object';
}

export type HttpMethod = 'GET' | 'POST';

/** A call of one route, after path matching, before validation. Query values are raw strings. */
export interface RouteCall {
  method: HttpMethod;
  /** Concrete path, e.g. /v1/tax/income/bands/2024-25 (no query string). */
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
}

/** What a handler receives: validated, typed parameters. */
export interface HandlerRequest {
  /** Path parameters after validation and coercion. */
  params: Record<string, unknown>;
  /** Query parameters after validation, coercion and defaults. */
  query: Record<string, unknown>;
  /** Body after validation (nested objects included), defaults filled in. */
  body: any;
  /** bodyDocument routes: the document as its validator checked it (see DocumentValidator). */
  document?: unknown;
}

/** What a local handler may use. Built lazily by the local backend; nothing here loads DuckDB until asked. */
export interface HandlerContext {
  /**
   * The clock (injected in tests). Handlers use it only through the calendar date (UTC or UK), never
   * the time of day: `serve` caches answers of routes that read no mirror file for the current UTC hour
   * (UK and UTC days both start on a whole UTC hour; docs/serve.md).
   */
  now(): Date;
  /** Environment variables (injected in tests). */
  env: Record<string, string | undefined>;
  /** Directory holding the mirror's dataset files. */
  mirrorDir: string;
  /** Directory for downloads and other cache. */
  cacheDir: string;
  /**
   * `--all` on the local backend: a paged handler that can stream runs its query once, without
   * LIMIT/OFFSET, and hands the records to this sink in chunks instead of answering one page. Handlers
   * that cannot stream ignore it and answer the page (the caller then follows pages).
   */
  sink?: RecordSink;
  /**
   * Run another route's local handler (matched and validated like any call) and answer its envelope: how a
   * feature that spans domains (the area profile) asks the owning domain, never importing it. Set by the
   * handler runner (src/runner.ts); always local, on the same mirror, with no sink.
   */
  call?(call: RouteCall): Promise<CallResult>;
}

/** Where a streaming paged handler writes its records (see `HandlerContext.sink`). */
export interface RecordSink {
  /** Called once, before any records, when the handler streams (so an empty result is still known to be streamed). */
  start(): void;
  /** A chunk of records (DuckDB's vector size, 2,048 rows); awaited, so a slow writer slows the query. */
  write(records: unknown[]): Promise<void>;
  /**
   * Set when the caller prints the records as NDJSON or CSV lines and nothing else (no `--fields`): a
   * handler that can render its records in SQL (the same bytes the JavaScript renderer writes) calls
   * `rendered.write` with each chunk's text instead of `write`.
   */
  rendered?: RenderedSink;
}

/** Records rendered by the handler's query (see `RecordSink.rendered`). */
export interface RenderedSink {
  format: 'ndjson' | 'csv';
  /**
   * `rows` records as text, each line ending in `\n` (ndjson) or `\r\n` (csv; no header: `columns` are
   * the record's keys, for the caller to write the header once); awaited.
   */
  write(text: string, rows: number, columns: readonly string[]): Promise<void>;
}

export type Handler = (req: HandlerRequest, ctx: HandlerContext) => Promise<SuccessEnvelope> | SuccessEnvelope;

/** The answer of a backend for one call. */
export interface CallResult {
  status: number;
  envelope: Envelope;
  source: 'live' | 'local';
  /** Live only: response headers of interest (rate limit, credits). Never contains the key. */
  headers?: Record<string, string>;
  credits?: { remaining?: number; cost?: number };
}
