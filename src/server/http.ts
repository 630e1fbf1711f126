/**
 * HTTP helpers of `publicdata serve` (src/server/server.ts): the error a request step throws, the query
 * of a URL, a size-limited body reader, ETags and Accept-Encoding.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope } from '../contract/errors.js';
import { isUnsafeKey, unsafeKeyReason } from '../contract/safe-keys.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What the server reads of a request target: its path and query. */
export type Target = Pick<URL, 'pathname' | 'searchParams'>;

const NO_QUERY = new URLSearchParams();
/** A target that is only a path of letters, digits, `/`, `_` and `-`, starting `/x` (no `//`, no dot segment, no escape, no query). */
const PLAIN_PATH = /^\/[A-Za-z0-9_-][A-Za-z0-9_/-]*$/;

/**
 * The path and query of a request target. A plain path (the common POST) is its own pathname, exactly as
 * WHATWG URL would give it, and has no query: it is not parsed (a URL object costs more than a small
 * calculation). Anything else goes through URL; a target URL refuses throws TypeError.
 */
export function parseTarget(target: string): Target {
  if (PLAIN_PATH.test(target)) return { pathname: target, searchParams: NO_QUERY };
  return new URL(target, 'http://localhost');
}

/** The query as an object; a name that would change its prototype (`__proto__` …) is a 400. */
export function queryOf(u: Target): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const [k, v] of u.searchParams) {
    if (isUnsafeKey(k)) throw new HttpError(400, 'invalid_parameter', `Query parameter ${unsafeKeyReason(k)}.`);
    const prev = q[k];
    q[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return q;
}

/** The deepest a JSON request body may nest (objects and arrays); the v1 bodies nest at most 4 deep. */
export const MAX_BODY_DEPTH = 32;

/** The client closed its connection before its request body was complete: nobody is there to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection before sending its whole request');
    this.name = 'ClientGoneError';
  }
}

/**
 * How deep JSON text nests, counted byte by byte as it arrives (a UTF-8 multi-byte character never holds
 * an ASCII byte, so brackets inside strings are told apart by tracking quotes and escapes alone). Costs
 * one pass over bytes already in memory, and lets a body nested too deep be refused before it is all
 * received, and before JSON.parse builds millions of empty arrays.
 */
export class DepthScanner {
  depth = 0;
  max = 0;
  private inString = false;
  private escaped = false;
  /** Scan a chunk; false once the nesting passed `limit`. */
  push(b: Buffer, limit: number): boolean {
    for (let i = 0; i < b.length; i++) {
      const c = b[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true; // backslash
        else if (c === 34) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 91 || c === 123) {
        if (++this.depth > limit) return false;
        if (this.depth > this.max) this.max = this.depth;
      } else if (c === 93 || c === 125) this.depth--;
    }
    return true;
  }
}

/**
 * Read a request body as UTF-8 text: at most `limit` bytes (413) and nested at most `maxDepth` deep (400
 * bad_request, as soon as the bytes that pass it arrive). A client that goes away first rejects with
 * ClientGoneError.
 */
export function readBody(req: IncomingMessage, limit: number, maxDepth = MAX_BODY_DEPTH): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new HttpError(413, 'payload_too_large', `The request body is ${declared} bytes; the limit is ${limit} bytes.`));
      return;
    }
    const chunks: Buffer[] = [];
    const scanner = new DepthScanner();
    let size = 0;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      reject(e);
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > limit) return fail(new HttpError(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes.`));
      if (!scanner.push(c, maxDepth)) {
        return fail(new HttpError(400, 'bad_request', `The request body nests deeper than ${maxDepth} levels of objects and arrays; no request of this API needs more.`));
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    // Node reports a client that disconnects mid-body as an 'aborted' ECONNRESET error, then 'close'.
    // (Checked before making the error: 'close' follows every request, and an Error captures a stack.)
    req.on('error', (e: NodeJS.ErrnoException) => settled || fail(req.destroyed || e.code === 'ECONNRESET' ? new ClientGoneError() : e));
    req.on('close', () => settled || fail(new ClientGoneError()));
  });
}

export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export function etagMatches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

export function acceptsGzip(header: string | string[] | undefined): boolean {
  const v = Array.isArray(header) ? header.join(',') : (header ?? '');
  return v.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    if (coding!.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The Date header of a time (ms), formatted once per second. */
export function dateHeader(): (t: number) => string {
  let second = -1;
  let text = '';
  return (t) => {
    const sec = Math.floor(t / 1000);
    if (sec !== second) {
      second = sec;
      text = new Date(sec * 1000).toUTCString();
    }
    return text;
  };
}

/** Node's 'clientError' (a malformed request, headers too large or too slow): an error envelope, then close. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(errorEnvelope(status === 408 ? 'timeout' : 'bad_request', status === 408 ? 'The request was not received in time.' : 'Malformed HTTP request.'));
  socket.end(`HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
