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
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallResult } from '../contract/types.js';
import { loadDomains, loadResponseSchemas } from '../registry.js';
import type { PreparedCall } from '../runner.js';
import { HttpAdapter } from './adapter.js';
import { AnswerCache } from './answer-cache.js';
import { Answerer } from './answer.js';
import { CreditStore, type CreditStoreOptions } from './credits.js';
import { Executor } from './executor.js';
import { answerClientError } from './http.js';
import { keyIndex, keyMatcher, type KeyPlan } from './keys.js';
import { RateLimiter } from './ratelimit.js';
import { PageSite } from '../pages/site.js';

import { isLoopback } from './routing.js';

export { isLoopback };
export { INSUFFICIENT_CREDITS_MESSAGE, INVALID_KEY_MESSAGE, MISSING_AUTH_MESSAGE, RATE_LIMIT_MESSAGE, SERVER_ERROR_MESSAGE } from './answer.js';

export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
/** Executions at once per mirror dataset; more wait in the server's queue (src/server/gate.ts). */
export const DEFAULT_DATASET_CONCURRENCY = 2;

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
  /** Serve the browser pages (`/`, `/docs`, `/area/{postcode}`; docs/serve.md "Pages"). Default true. */
  pages?: boolean;
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

/** The credit store of keyed mode, with its write failures and recoveries reported to the operator. */
function creditStore(opts: ServeOptions): CreditStore {
  const credits = new CreditStore(opts.stateFile!, opts.creditRetry);
  credits.onWriteError = (e, r) =>
    opts.errorLog?.(
      `credit state: could not write ${opts.stateFile} (${e.message}); ${r.retryInMs === undefined ? `attempt ${r.failures} failed, no more retries` : `retry ${r.failures} in ${(r.retryInMs / 1000).toFixed(1)} s`}`,
    );
  credits.onWriteRecovered = (n) => opts.errorLog?.(`credit state: written to ${opts.stateFile} after ${n} failed attempt(s)`);
  return credits;
}

/**
 * Start serving. The parts: the answer cache (answer-cache.ts), the executor with coalescing, dataset
 * gates and the handler timeout (executor.ts), the request-to-answer logic with keys, rate windows and
 * credits (answer.ts), and the HTTP adapter (adapter.ts).
 */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  // the whole API: every domain's manifest (the registry loads them on demand; the CLI's serve has them already)
  await loadDomains();
  const host = opts.host ?? '127.0.0.1';
  const now = opts.now ?? Date.now;
  const keyed = opts.keys !== undefined;
  if (keyed && !opts.stateFile) throw new Error('startServer: stateFile is required with keys');
  const credits = keyed ? creditStore(opts) : undefined;
  const cache = new AnswerCache();
  const executor = new Executor(opts.execute, opts.datasetConcurrency ?? DEFAULT_DATASET_CONCURRENCY, opts.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS);
  const answerer = new Answerer({
    now,
    ...(keyed ? { findKey: keyMatcher(opts.keys!), knownKey: keyIndex(opts.keys!) } : {}),
    ...(credits ? { credits } : {}),
    limiter: new RateLimiter(opts.windowMs ?? 60_000),
    cache,
    executor,
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    responses: await loadResponseSchemas(),
  });
  const http = new HttpAdapter(
    {
      now,
      ...(opts.cors ? { cors: opts.cors } : {}),
      ...(opts.accessLog ? { accessLog: opts.accessLog } : {}),
      ...(opts.errorLog ? { errorLog: opts.errorLog } : {}),
      debug: opts.debug === true,
      loopbackOnly: isLoopback(host),
      keyed,
      ...(opts.pages === false ? {} : { pages: new PageSite(keyed) }),
    },
    answerer,
    cache,
  );
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const requestTimeout = opts.requestTimeoutMs ?? 60_000;
  // Node checks both deadlines on a timer (every 30 s by default), so a slow client was cut anywhere up
  // to 30 s late (17.7-20 s for the 10 s headers limit): check often enough to keep within 10% of it.
  const server = createServer({ connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeout, requestTimeout) / 10))) }, (req, res) =>
    http.request(req, res),
  );
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 5_000;
  server.on('connection', (s) => http.connection(s));
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
  answerer.baseUrl = `http://${urlHost}:${port}/v1`;
  answerer.openApiAnswer();
  return {
    url: answerer.baseUrl,
    host,
    port,
    server,
    inflight: () => http.inflight,
    executing: () => executor.executing,
    flush: async () => credits?.flush(),
    reloadKeys(keys) {
      if (!keyed) throw new Error('reloadKeys: the server was started without keys');
      answerer.setKeys(keyMatcher(keys), keyIndex(keys));
    },
    close: (graceMs = 10_000) => http.close(server, graceMs, credits),
  };
}
