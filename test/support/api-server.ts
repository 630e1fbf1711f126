/**
 * A real HTTP server (node:http on 127.0.0.1, random port) that behaves like the published v1 API
 * for the live client's tests and benches: key check (401/403 with the GOVDATA-NOTES bodies),
 * a fixed-window request limit with X-RateLimit-* headers, credits with X-Credits-* headers and
 * insufficient_credits (402, or 429 like the published errors page), 429 with Retry-After in
 * delta-seconds or HTTP-date form, injectable faults (5xx, connection reset), and real data from
 * the local backend (callLocal with a fixed clock 2026-11-21).
 *
 * Windows are aligned on multiples of windowMs since the epoch, so X-RateLimit-Reset (Unix seconds,
 * rounded up) is exact when windowMs is a multiple of 1000.
 *
 * Kept free of vitest so the bench can transpile and run it (bench/live-pacing.bench.mjs).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callLocal } from '../../src/backends/local.js';
import type { CallResult, HandlerContext, HttpMethod, RouteCall } from '../../src/contract/types.js';

export const MISSING_AUTH_BODY = {
  error: {
    code: 'unauthorized',
    message: 'Missing or malformed Authorization header. Expected: Bearer <api_key>',
    documentation_url: 'https://docs.govdata.dev/errors',
  },
};
export const INVALID_KEY_BODY = {
  error: { code: 'unauthorized', message: 'Invalid API key.', documentation_url: 'https://docs.govdata.dev/errors' },
};
export const FORBIDDEN_BODY = {
  error: {
    code: 'forbidden',
    message: 'This API key may not access this resource.',
    documentation_url: 'https://docs.govdata.dev/errors',
  },
};
export const RATE_LIMIT_BODY = {
  error: {
    code: 'rate_limit_exceeded',
    message: 'Rate limit exceeded. Please retry after the period indicated in the Retry-After header.',
    documentation_url: 'https://docs.govdata.dev/rate-limits',
  },
};
export const INSUFFICIENT_CREDITS_BODY = {
  error: {
    code: 'insufficient_credits',
    message: 'Insufficient credits. Purchase credits at https://console.govdata.dev/billing',
    documentation_url: 'https://docs.govdata.dev/rate-limits',
  },
};
export const SERVER_ERROR_BODY = {
  error: { code: 'internal_error', message: 'An unexpected error occurred on our end.', documentation_url: 'https://docs.govdata.dev/errors' },
};

export const FIXED_CLOCK = new Date('2026-11-21T12:00:00Z');

export interface ApiServerOptions {
  /** Accepted keys (default: one test key, TEST_KEY). */
  keys?: string[];
  /** Keys that authenticate but get 403 forbidden. */
  forbiddenKeys?: string[];
  /** Requests per window per key (default 20). */
  limit?: number;
  /** Window length in ms (default 2000). */
  windowMs?: number;
  /** Starting credits per key (default 1e9). */
  credits?: number;
  /** Status of insufficient_credits (default 402; the published errors page lists 429). */
  insufficientStatus?: 402 | 429;
  /** Form of Retry-After on 429 (default seconds). */
  retryAfter?: 'seconds' | 'http-date';
  /** Handler context for callLocal (default: fixed clock 2026-11-21, empty temp mirror). */
  ctx?: Partial<HandlerContext>;
  /** Server clock, ms (default Date.now): windows, Retry-After and the Date header follow it. */
  now?: () => number;
  /** Retry-After (seconds) sent with injected 5xx faults, as a server asking for a quick retry would. */
  faultRetryAfter?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** All request headers except authorization. */
  headers: Record<string, string | string[] | undefined>;
  /** Whether an Authorization header was present (its value is never recorded). */
  hadAuth: boolean;
  body?: string;
  status: number;
  /** Server time the request was answered (ms). */
  at: number;
}

/** 'bare-429': a rate_limit_exceeded 429 without Retry-After or any X-RateLimit header. */
export type Fault = 500 | 502 | 503 | 'html-502' | 'reset' | 'json-500' | 'bare-429';

export interface ApiServer {
  url: string;
  port: number;
  /** Requests seen, in order. */
  requests: RecordedRequest[];
  stats(): { requests: number; byStatus: Record<number, number>; resets: number; creditsByKey: Record<string, number> };
  setCredits(n: number, key?: string): void;
  getCredits(key?: string): number;
  /** The next responses fail with these faults, in order. */
  injectFaults(...faults: Fault[]): void;
  /** Change the Retry-After form. */
  setRetryAfter(form: 'seconds' | 'http-date'): void;
  /** Force the next n answers to be 429 (regardless of the window), with Retry-After of `seconds`. */
  force429(n: number, seconds: number): void;
  /** Start (ms) of the window containing t, and the window length. */
  windowStart(t: number): number;
  readonly windowMs: number;
  readonly limit: number;
  close(): Promise<void>;
}

export const TEST_KEY = 'gd_test_4f9c2e7b1a8d6c3e5f0a9b8c7d6ea1b2';

function queryOf(u: URL): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const [k, v] of u.searchParams) {
    const prev = q[k];
    if (prev === undefined) q[k] = v;
    else q[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return q;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const keys = new Set(opts.keys ?? [TEST_KEY]);
  const forbidden = new Set(opts.forbiddenKeys ?? []);
  const limit = opts.limit ?? 20;
  const windowMs = opts.windowMs ?? 2000;
  const now = opts.now ?? Date.now;
  const insufficientStatus = opts.insufficientStatus ?? 402;
  let retryAfterForm = opts.retryAfter ?? 'seconds';
  const startCredits = opts.credits ?? 1e9;
  const credits = new Map<string, number>();
  const windows = new Map<string, { start: number; count: number }>();
  const faults: Fault[] = [];
  let forced429 = 0;
  let forced429Seconds = 1;
  const requests: RecordedRequest[] = [];
  const byStatus: Record<number, number> = {};
  let resets = 0;
  const sockets = new Set<Socket>();

  const ctx: HandlerContext = {
    now: () => new Date(FIXED_CLOCK),
    env: {},
    mirrorDir: join(tmpdir(), 'publicdata-test-api-server-no-mirror'),
    cacheDir: join(tmpdir(), 'publicdata-test-api-server-cache'),
    ...opts.ctx,
  };

  const windowStart = (t: number) => Math.floor(t / windowMs) * windowMs;
  const creditsOf = (key: string) => credits.get(key) ?? startCredits;

  function rateHeaders(key: string, t: number): Record<string, string> {
    const w = windows.get(key);
    const start = windowStart(t);
    const count = w && w.start === start ? w.count : 0;
    return {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(Math.ceil((start + windowMs) / 1000)),
    };
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      Date: new Date(now()).toUTCString(),
      'Content-Type': typeof body === 'string' && !text.startsWith('{') ? 'text/html' : 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  }

  function retryAfterValue(waitMs: number, t: number): string {
    const secs = Math.max(1, Math.ceil(waitMs / 1000));
    if (retryAfterForm === 'seconds') return String(secs);
    // HTTP-date has 1 s resolution: round the target up to the next whole second.
    return new Date(Math.ceil((t + waitMs) / 1000) * 1000).toUTCString();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const headers = { ...req.headers };
    const auth = headers.authorization;
    delete headers.authorization;
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: queryOf(u),
      headers,
      hadAuth: auth !== undefined,
      status: 0,
      at: 0,
    };
    if (body) rec.body = body;
    requests.push(rec);
    const finish = (status: number, b: unknown, h: Record<string, string> = {}) => {
      rec.status = status;
      rec.at = now();
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      send(res, status, b, h);
    };

    const fault = faults.shift();
    if (fault === 'reset') {
      resets++;
      rec.status = -1;
      rec.at = now();
      req.socket.destroy();
      return;
    }
    const faultHeaders: Record<string, string> = opts.faultRetryAfter !== undefined ? { 'Retry-After': String(opts.faultRetryAfter) } : {};
    if (fault === 'html-502') return finish(502, '<html><body>Bad gateway</body></html>', faultHeaders);
    if (fault === 'json-500') return finish(500, SERVER_ERROR_BODY, faultHeaders);
    if (fault === 'bare-429') return finish(429, RATE_LIMIT_BODY);
    if (fault !== undefined) return finish(fault, fault === 500 ? SERVER_ERROR_BODY : '<html>Service unavailable</html>', faultHeaders);

    const m = /^Bearer ([^\s]+)$/.exec(auth ?? '');
    if (!m) return finish(401, MISSING_AUTH_BODY);
    const key = m[1]!;
    if (!keys.has(key) && !forbidden.has(key)) return finish(401, INVALID_KEY_BODY);
    if (forbidden.has(key)) return finish(403, FORBIDDEN_BODY);

    const t = now();
    const start = windowStart(t);
    let w = windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      windows.set(key, w);
    }
    const creditHeaders = (cost: number) => ({
      'X-Credits-Remaining': String(creditsOf(key)),
      'X-Credits-Cost': String(cost),
    });
    if (forced429 > 0) {
      forced429--;
      return finish(429, RATE_LIMIT_BODY, {
        ...rateHeaders(key, t),
        ...creditHeaders(0),
        'Retry-After': retryAfterValue(forced429Seconds * 1000, t),
      });
    }
    if (w.count >= limit) {
      return finish(429, RATE_LIMIT_BODY, {
        ...rateHeaders(key, t),
        ...creditHeaders(0),
        'Retry-After': retryAfterValue(start + windowMs - t, t),
      });
    }
    w.count++;

    const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
    const cost = method === 'POST' ? 10 : 1;
    if (creditsOf(key) < cost) {
      return finish(insufficientStatus, INSUFFICIENT_CREDITS_BODY, { ...rateHeaders(key, t), ...creditHeaders(0) });
    }

    let parsedBody: unknown;
    if (method === 'POST') {
      try {
        parsedBody = body ? JSON.parse(body) : {};
      } catch {
        return finish(
          400,
          { error: { code: 'bad_request', message: 'Request body is not valid JSON.', documentation_url: 'https://docs.govdata.dev/errors/bad_request' } },
          { ...rateHeaders(key, t), ...creditHeaders(0) },
        );
      }
    }
    credits.set(key, creditsOf(key) - cost);
    const call: RouteCall = { method, path: u.pathname, query: rec.query };
    if (method === 'POST') call.body = parsedBody;
    const result: CallResult = await callLocal(call, ctx);
    return finish(result.status, result.envelope, { ...rateHeaders(key, t), ...creditHeaders(cost) });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { code: 'internal_error', message: String(e), documentation_url: 'https://docs.govdata.dev/errors' } });
    });
  });
  server.keepAliveTimeout = 5000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    windowMs,
    limit,
    stats: () => ({
      requests: requests.length,
      byStatus: { ...byStatus },
      resets,
      creditsByKey: Object.fromEntries(credits),
    }),
    setCredits(n, key = [...keys][0]!) {
      credits.set(key, n);
    },
    getCredits: (key = [...keys][0]!) => creditsOf(key),
    injectFaults(...f) {
      faults.push(...f);
    },
    setRetryAfter(form) {
      retryAfterForm = form;
    },
    force429(n, seconds) {
      forced429 = n;
      forced429Seconds = seconds;
    },
    windowStart,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
