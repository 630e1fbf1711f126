/**
 * HTTP helpers of `publicdata serve` (src/server/server.ts): the error a request step throws, the query
 * of a URL, a size-limited body reader, ETags and Accept-Encoding.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
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

/** The query as an object; a name that would change its prototype (`__proto__` …) is a 400. */
export function queryOf(u: URL): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const [k, v] of u.searchParams) {
    if (isUnsafeKey(k)) throw new HttpError(400, 'invalid_parameter', `Query parameter ${unsafeKeyReason(k)}.`);
    const prev = q[k];
    q[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return q;
}

export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new HttpError(413, 'payload_too_large', `The request body is ${declared} bytes; the limit is ${limit} bytes.`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes.`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
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
