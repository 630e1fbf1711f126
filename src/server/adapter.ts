/**
 * The HTTP side of `serve`: one node:http request in, one answer out. CORS and the preflight, the answer
 * cache looked up by the exact request target, the access log (keys masked, 499 for an answer nobody
 * received), internal errors as the 500 envelope, gzip, HEAD, and a graceful close that drops queued
 * work and refunds it. What the answer is, Answerer (answer.ts) decides.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { maskKey, redact, redactUrl } from '../config.js';
import { errorEnvelope } from '../contract/errors.js';
import type { AnswerCache } from './answer-cache.js';
import { bearerToken, errorAnswer, SERVER_ERROR_MESSAGE, type Answer, type Answerer, type RequestState } from './answer.js';
import type { CreditStore } from './credits.js';
import { RequestAbort } from './gate.js';
import { acceptsGzip, ClientGoneError, dateHeader, etagMatches, parseTarget, type Target } from './http.js';
import { isPagePath, PAGE_HEADERS, type PageSite } from '../pages/site.js';
import { methodsOf } from './routing.js';

const gzip = promisify(gzipCb);

/** The longest key a keys file may hold (keys.ts), %-escaped: what a run of the target is tried up to. */
const MAX_RUN_CHARS = 512 * 3;
/** Pieces of the target a run may join: a key holding `/`, `&`, `=`, `#`, `;` or `?` sent unescaped. */
const MAX_RUN_PIECES = 8;
/** Forms tried per request: a crafted target cannot make masking its log line costly. */
const MAX_FORMS = 512;

/**
 * The texts of a request target that could be a key, each as its forms. A text is a run of 1 to
 * MAX_RUN_PIECES consecutive pieces between the target's delimiters (`/ ? & = # ;`), as sent (so a path
 * segment, a query name or value whole, base64 with its `/`, a key holding a delimiter), of 16+ characters;
 * its forms are it and its %-decodings (up to three, for a target escaped more than once), after the `?` or
 * `#` both with `+` as a space (a form's encoding) and as itself (base64's `+`). At most MAX_FORMS in all.
 */
export function targetSegments(target: string): string[][] {
  const q = target.search(/[?#]/);
  const pieces: Array<{ s: number; e: number }> = [];
  for (const m of target.matchAll(/[^/?&=#;]+/g)) pieces.push({ s: m.index!, e: m.index! + m[0].length });
  const out: string[][] = [];
  let budget = MAX_FORMS;
  for (let i = 0; i < pieces.length && budget > 0; i++) {
    for (let j = i; j < Math.min(pieces.length, i + MAX_RUN_PIECES) && budget > 0; j++) {
      const raw = target.slice(pieces[i]!.s, pieces[j]!.e);
      if (raw.length > MAX_RUN_CHARS) break;
      if (raw.length < 16) continue;
      const forms = formsOf(raw, q >= 0 && pieces[j]!.e > q, budget);
      budget -= forms.length;
      if (forms.length) out.push(forms);
    }
  }
  return out;
}

/** `raw` and its %-decodings (see targetSegments), at most `max`. */
function formsOf(raw: string, query: boolean, max: number): string[] {
  const forms = new Set<string>();
  let frontier = [raw];
  for (let i = 0; i < 4 && frontier.length && forms.size < max; i++) {
    const next: string[] = [];
    for (const f of frontier) {
      if (f.length < 16 || forms.has(f) || forms.size >= max) continue;
      forms.add(f);
      for (const d of query ? [f, f.replace(/\+/g, ' ')] : [f]) {
        try {
          const decoded = decodeURIComponent(d);
          if (decoded !== f) next.push(decoded);
        } catch {
          // not %-encoded text: the form as it is
        }
      }
    }
    frontier = next;
  }
  return [...forms];
}

/**
 * The text a base64 or base64url token encodes, when it is one (padding optional) and decodes to UTF-8 text
 * that encodes back to it; else undefined. A key of the keys file is found by its digest only, so a token
 * of the target is tried as itself and as what it encodes.
 */
function fromBase64(token: string): string | undefined {
  if (token.length < 16 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(token)) return undefined;
  const bytes = Buffer.from(token, token.includes('-') || token.includes('_') ? 'base64url' : 'base64');
  const text = bytes.toString('utf8');
  const again = Buffer.from(text, 'utf8');
  // not text (a decoding that replaced bytes), or not this token's bytes
  if (!again.equals(bytes) || again.toString('base64url') !== token.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')) return undefined;
  return text;
}

/** Answers smaller than this are sent uncompressed (gzip would not pay for its header and CPU). */
const GZIP_MIN_BYTES = 1024;
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Credits-Remaining, X-Credits-Cost, Retry-After, ETag';

export interface AdapterOptions {
  now: () => number;
  cors?: string;
  accessLog?: (line: string) => void;
  errorLog?: (line: string) => void;
  debug?: boolean;
  /**
   * The server listens on a loopback address only: a request naming another host is refused (403), so a
   * page of another site cannot reach it through a DNS name rebound to 127.0.0.1 (DNS rebinding).
   */
  loopbackOnly?: boolean;
  /** Keyed mode: every answer depends on the key, so none may be kept by a shared cache. */
  keyed?: boolean;
  /** The browser pages (`/`, `/docs`, `/area/…`, `/assets/…`; src/pages/site.ts); absent = none. */
  pages?: PageSite;
}

/** A Host header naming this machine's loopback (localhost, a *.localhost name, 127.x.x.x, [::1]), port aside. */
export function isLoopbackHostHeader(host: string): boolean {
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')).toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name === '[::1]' || name === '[::ffff:127.0.0.1]';
}

export class HttpAdapter {
  /** Requests being answered now. */
  inflight = 0;
  private closing = false;
  private idle: (() => void) | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly active = new Set<RequestState>();
  private readonly httpDate = dateHeader();
  /** The last Host header found to name a loopback address (loopbackOnly). */
  private loopbackHost: string | undefined;
  /**
   * Every header value is ASCII (they are made here, except the echoed CORS origin, which equals --cors):
   * then a string body may share the header block's write, where node encodes both as UTF-8 (a header
   * byte 0x80-0xFF, sent as latin1 otherwise, would change).
   */
  private readonly asciiHeaders: boolean;

  constructor(
    private readonly o: AdapterOptions,
    private readonly answerer: Answerer,
    private readonly cache: AnswerCache,
  ) {
    this.asciiHeaders = o.cors === undefined || /^[\x20-\x7e]*$/.test(o.cors);
  }

  /** node:http's request listener. */
  request(req: IncomingMessage, res: ServerResponse): void {
    this.inflight++;
    const state: RequestState = { abort: new RequestAbort(), log: { cost: 0 } };
    this.active.add(state);
    // Registered before the access log's listener (in `handle`), so the log reports the refund.
    res.on('close', () => {
      this.active.delete(state);
      this.inflight--;
      // Closed before the answer was sent: the client went away (or shutdown closed it): drop its queued
      // work and give back its credits (refunded now, before `close` writes the credit state; the handler
      // finishing later charges nothing, as its signal is aborted).
      if (!res.writableFinished) {
        state.abort.abort();
        this.answerer.release(state);
      }
      if (this.inflight === 0) this.idle?.();
    });
    let pending: Promise<void> | undefined;
    try {
      pending = this.handle(req, res, state);
    } catch (e) {
      this.failed(req, res, e);
    }
    pending?.catch((e: unknown) => this.failed(req, res, e));
  }

  /** An error no step turned into an answer: logged, and the 500 envelope (or the connection closed). */
  private failed(req: IncomingMessage, res: ServerResponse, e: unknown): void {
    this.o.errorLog?.(redact(`could not answer ${req.method} ${redactUrl(req.url ?? '')}: ${(e as Error)?.message ?? String(e)}`));
    if (!res.headersSent) {
      res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(errorEnvelope('internal_error', SERVER_ERROR_MESSAGE)));
    } else res.destroy();
  }

  /** Track a connection (closed at the shutdown deadline). */
  connection(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  private corsHeaders(req: IncomingMessage): Record<string, string> {
    const cors = this.o.cors;
    if (!cors) return {};
    const origin = req.headers.origin;
    if (cors === '*') return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED };
    if (origin === cors) return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED, Vary: 'Origin' };
    return { Vary: 'Origin' };
  }

  private logAccess(req: IncomingMessage, res: ServerResponse, state: RequestState, accessLog: (line: string) => void): void {
    const started = performance.now();
    res.on('close', () => {
      // The target with credential-named query values masked (`?key=…`, `?api_key=…`, whatever their shape).
      // 499 (nginx's "client closed request"): the connection closed before the whole answer was sent.
      const status = res.writableFinished ? res.statusCode : 499;
      const line = `${new Date(this.o.now()).toISOString()} ${req.method} ${redactUrl(req.url ?? '')} ${status} ${(performance.now() - started).toFixed(1)}ms credits=${state.log.cost} key=${state.log.key ?? '-'}`;
      accessLog(this.maskKeys(line, req));
    });
  }

  /**
   * A log line with every key masked, in any encoding (redact): the request's own Bearer token when shaped
   * like a key (a gd_ key, or 16+ characters: `Bearer 1` must not mask every 1 in the line), and any key of
   * the keys file that stands as a run of the target's pieces (targetSegments: a path segment, a query
   * name or value, the fragment, escaped or not, itself or in base64/base64url), found by its digest since
   * the keys themselves are not kept. Whatever the answer (401, OPTIONS, 405, the OpenAPI document).
   */
  private maskKeys(line: string, req: IncomingMessage): string {
    let out = line;
    const own = bearerToken(req);
    if (own && (/^gd_(live|test)_/.test(own) || own.length >= 16)) out = redact(out, own);
    // a server without a keys file has no key to find in the target
    for (const forms of this.answerer.keyed ? targetSegments(req.url ?? '') : []) {
      for (const form of forms) {
        // the key itself, or its base64/base64url
        const decoded = this.answerer.isKey(form) ? form : fromBase64(form);
        if (decoded === undefined || (decoded !== form && !this.answerer.isKey(decoded))) continue;
        // every encoding redact knows of the key, and the segment as sent (base64 with %-escapes: `%2F`, `%3D`)
        out = redact(out, decoded).split(forms[0]!).join(maskKey(decoded));
        break;
      }
    }
    return redact(out);
  }

  private preflight(u: Target, cors: Record<string, string>): Answer {
    const path = u.pathname.replace(/\/+$/, '') || '/';
    const allow = path === '/v1' || path === '/v1/openapi.json' ? ['GET', 'HEAD', 'OPTIONS'] : methodsOf(path);
    if (!allow) return errorAnswer(404, 'not_found', `No route ${u.pathname}.`);
    const pre: Record<string, string> = { Allow: allow.join(', ') };
    if (cors['Access-Control-Allow-Origin']) {
      Object.assign(pre, {
        'Access-Control-Allow-Methods': allow.join(', '),
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-None-Match',
        'Access-Control-Max-Age': '600',
      });
    }
    return { status: 204, headers: pre };
  }

  /**
   * Everything up to and including the answer cache runs synchronously (no promise for a cached answer
   * that needs no gzip); the rest (handleUncached) may wait for the body and the handler.
   */
  private handle(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<void> | undefined {
    const cors = this.corsHeaders(req);
    if (this.o.accessLog) this.logAccess(req, res, state, this.o.accessLog);
    const host = req.headers.host;
    if (this.o.loopbackOnly && host !== undefined && host !== this.loopbackHost) {
      if (!isLoopbackHostHeader(host)) {
        const msg = `This server listens on a loopback address and answers only requests addressed to it (localhost, 127.0.0.1, [::1]); the request named the host '${host.slice(0, 100)}'. To serve other names, listen on them with --host (and --keys).`;
        return this.send(req, res, errorAnswer(403, 'forbidden', msg), {});
      }
      // Every request of a client names the same host: the last one found loopback is not checked again.
      this.loopbackHost = host;
    }
    // The answer cache is looked up by the exact request target, before any parsing.
    if ((req.method === 'GET' || req.method === 'HEAD') && this.cache.size > 0) {
      const t = this.o.now();
      const hit = this.cache.lookup(req.url ?? '', t);
      if (hit) return this.send(req, res, this.answerer.answerCached(req, hit, t, state), cors);
    }
    return this.handleUncached(req, res, state, cors);
  }

  private async handleUncached(req: IncomingMessage, res: ServerResponse, state: RequestState, cors: Record<string, string>): Promise<void> {
    let u: Target;
    try {
      u = parseTarget(req.url ?? '/');
    } catch {
      return this.send(req, res, errorAnswer(400, 'bad_request', 'The request target is not a valid URL path.'), cors);
    }
    if (req.method === 'OPTIONS') return this.send(req, res, this.preflight(u, cors), cors);
    // The pages: no key (they hold no data), their own headers; every other path is the API's as before.
    if (this.o.pages && (req.method === 'GET' || req.method === 'HEAD') && isPagePath(u.pathname)) return this.sendPage(req, res, this.o.pages, u);
    let a: Answer;
    try {
      a = await this.answerer.answer(req, u, state);
    } catch (e) {
      // The client left mid-upload: nobody to answer, and not an error of ours (the access log says 499).
      if (e instanceof ClientGoneError) return;
      this.o.errorLog?.(redact(`internal error on ${req.method} ${u.pathname}: ${(e as Error)?.message ?? String(e)}`));
      if (this.o.debug && (e as Error)?.stack) this.o.errorLog?.((e as Error).stack!);
      a = errorAnswer(500, 'internal_error', SERVER_ERROR_MESSAGE);
    }
    // A request whose body was not read (refused early) must not leave it in the connection.
    if (req.method === 'POST' && !req.readableEnded) {
      a.headers.Connection = 'close';
      req.resume();
    }
    return this.send(req, res, a, cors);
  }

  /** Send an answer: at once, unless it must be gzipped first (then the promise of its sending). */
  private send(req: IncomingMessage, res: ServerResponse, a: Answer, extra: Record<string, string>): Promise<void> | undefined {
    const headers: Record<string, string> = { Date: this.httpDate(this.o.now()), 'X-Content-Type-Options': 'nosniff', ...extra, ...a.headers };
    // keyed: an answer is the key holder's (its balance, its rate window): a shared cache must not keep it
    if (this.o.keyed) headers['Cache-Control'] = headers['Cache-Control'] ? `private, ${headers['Cache-Control']}` : 'private, no-store';
    if (this.closing) headers.Connection = 'close';
    const c = a.cached;
    if (a.body === undefined && !c) {
      res.writeHead(a.status, headers);
      res.end();
      return;
    }
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
    const size = c ? c.body.length : Buffer.byteLength(a.body!, 'utf8');
    if (size >= GZIP_MIN_BYTES && req.headers['accept-encoding'] !== undefined && acceptsGzip(req.headers['accept-encoding'])) {
      headers['Content-Encoding'] = 'gzip';
      if (c?.gz) return void this.write(req, res, a.status, headers, c.gz, c.gz.length);
      return (c ? gzip(c.body).then((gz) => (c.gz ??= gz)) : gzip(Buffer.from(a.body!, 'utf8'))).then((gz) => this.write(req, res, a.status, headers, gz, gz.length));
    }
    // A string body (an answer not compressed and not from the cache) goes out as UTF-8 in the same write
    // as the headers: node joins a string to its header block (one write, not a writev of two buffers,
    // and no Buffer made here).
    this.write(req, res, a.status, headers, c ? c.body : this.asciiHeaders ? a.body! : Buffer.from(a.body!, 'utf8'), size);
    return undefined;
  }

  /** Headers with the payload's length, then the payload (none for HEAD: node sends the GET's length). */
  private write(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, payload: Buffer | string, size: number): void {
    headers['Content-Length'] = String(size);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  /** A page or one of its files: strict headers, ETag and 304, gzip when accepted. */
  private async sendPage(req: IncomingMessage, res: ServerResponse, pages: PageSite, u: Target): Promise<void> {
    const a = pages.answer(u.pathname, u.searchParams);
    const headers: Record<string, string> = { Date: this.httpDate(this.o.now()), ...PAGE_HEADERS };
    if (this.closing) headers.Connection = 'close';
    if (a.status !== 200) {
      if (a.status === 303) headers.Location = a.location;
      const body = a.status === 404 ? JSON.stringify(errorEnvelope('not_found', `No page ${u.pathname}.`)) : '';
      if (body) headers['Content-Type'] = 'application/json; charset=utf-8';
      headers['Content-Length'] = String(Buffer.byteLength(body));
      res.writeHead(a.status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const f = a.file;
    Object.assign(headers, { 'Content-Type': f.type, ETag: f.etag, Vary: 'Accept-Encoding' });
    if (etagMatches(req.headers['if-none-match'], f.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    let payload = f.body;
    if (f.body.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers['accept-encoding'])) {
      payload = await pages.gzipped(f);
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = String(payload.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  /**
   * Stop accepting, finish requests in flight (at most graceMs; then their connections are closed and
   * work still queued for them is dropped), write the credit state.
   */
  async close(server: Server, graceMs: number, credits: CreditStore | undefined): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await this.drained(graceMs);
    // The deadline: whatever is still queued is dropped, every connection closed.
    for (const st of this.active) st.abort.abort();
    server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
    await this.drained(1000);
    await credits?.flush();
  }

  /** Until no request is in flight, at most `ms`. */
  private async drained(ms: number): Promise<void> {
    if (this.inflight === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => (this.idle = resolve)),
      new Promise<void>((resolve) => setTimeout(resolve, ms).unref()),
    ]);
  }
}
