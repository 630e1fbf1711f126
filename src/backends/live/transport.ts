/**
 * Transport of the live client: URL building and one HTTP attempt with undici (one keep-alive Agent per
 * backend, imported only when the first request is sent), returning the answer as received or the
 * network failure with its most telling error code. Knows nothing of retries, pacing or credits.
 */
import type { Dispatcher } from 'undici';
import { redact } from '../../config.js';
import type { RouteCall } from '../../contract/types.js';

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

/** Failures before the request could be sent: safe to retry even for a POST. */
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

function headerValue(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export type ResponseAttempt = { kind: 'response'; status: number; headers: Record<string, string>; raw: string; ms: number; sentAt: number };
/**
 * A request that failed in the network. `answered`: the status and headers had arrived before the body
 * was cut off (the server may have charged for it: X-Credits-Cost is in the headers).
 */
export type NetworkAttempt = {
  kind: 'network'; code: string; message: string; connectPhase: boolean; ms: number;
  answered?: { status: number; headers: Record<string, string> };
};
export type Attempt = ResponseAttempt | NetworkAttempt;

export interface TransportOptions {
  apiKey: string;
  userAgent: string;
  /** Headers and body timeout, ms. */
  timeoutMs: number;
  connectTimeoutMs: number;
  now: () => number;
}

export interface Transport {
  /** One attempt; never throws for network failures (they are an Attempt of kind 'network'). */
  send(call: RouteCall, url: string): Promise<Attempt>;
  /** Close the Agent and its keep-alive sockets (a later send opens a new one). */
  close(): Promise<void>;
}

export function createTransport(o: TransportOptions): Transport {
  type Undici = typeof import('undici');
  let agentPromise: Promise<{ agent: Dispatcher; request: Undici['request'] }> | undefined;
  let agent: Dispatcher | undefined;
  function dispatcher(): Promise<{ agent: Dispatcher; request: Undici['request'] }> {
    agentPromise ??= (async () => {
      // undici parses HTTP with llhttp compiled to WebAssembly. V8 first compiles it with Liftoff, then
      // re-compiles it with TurboFan on background threads, and a process cannot exit before those
      // finish: the CLI printed its answer, then hung 0.3 s (seconds on a busy machine). Liftoff code
      // parses our small answers just as well. Set before undici compiles the module; process-wide, so
      // only where the live client is used.
      const { setFlagsFromString } = await import('node:v8');
      setFlagsFromString('--liftoff-only');
      return import('undici');
    })().then(({ Agent, request }) => {
      agent = new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 8,
        headersTimeout: o.timeoutMs,
        bodyTimeout: o.timeoutMs,
        connect: { timeout: o.connectTimeoutMs },
      });
      return { agent, request };
    });
    return agentPromise;
  }

  return {
    async send(call, url) {
      const { agent: d, request } = await dispatcher();
      const headers: Record<string, string> = {
        authorization: `Bearer ${o.apiKey}`,
        accept: 'application/json',
        'user-agent': o.userAgent,
      };
      let body: string | undefined;
      if (call.method === 'POST') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(call.body ?? {});
      }
      const t0 = o.now();
      let answered: NetworkAttempt['answered'];
      try {
        const res = await request(url, { method: call.method, headers, body: body ?? null, dispatcher: d });
        const h: Record<string, string> = {};
        for (const name of PASSED_HEADERS) {
          const v = headerValue(res.headers as Record<string, string | string[] | undefined>, name);
          if (v !== undefined) h[name] = v;
        }
        answered = { status: res.statusCode, headers: h };
        const raw = await res.body.text();
        return { kind: 'response', status: res.statusCode, headers: h, raw, ms: o.now() - t0, sentAt: t0 };
      } catch (e) {
        const code = errCode(e);
        return {
          kind: 'network',
          code,
          message: redact(String((e as Error)?.message ?? e), o.apiKey),
          connectPhase: CONNECT_PHASE_CODES.has(code),
          ms: o.now() - t0,
          ...(answered ? { answered } : {}),
        };
      }
    },
    async close() {
      const a = agent;
      agent = undefined;
      agentPromise = undefined;
      // destroy(), not close(): close() waits for idle keep-alive sockets to be ended by the server,
      // which holds the process open after the answer is printed. Nothing is in flight by now.
      if (a) await a.destroy();
    },
  };
}
