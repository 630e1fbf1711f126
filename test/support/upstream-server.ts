/**
 * A real node:http server on 127.0.0.1 that serves upstream-format files for sync tests, with Range
 * support (206, Content-Range, ETag, If-Range) and fault injection:
 *   - dropAfterBytes: destroy the socket after N body bytes (for `times` requests, default every one)
 *   - corrupt: flip bytes in the body (every 97th byte XOR 0x5a) while keeping the length
 *   - status: answer with this HTTP status instead
 *   - bytesPerSecond: throttle the body (to kill a sync mid-download)
 *   - noRange: ignore Range headers (always 200 with the whole body); not limited by `times`
 * Index pages are plain routes whose body is HTML.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fault {
  dropAfterBytes?: number;
  /** How many requests the fault applies to (default: all). */
  times?: number;
  corrupt?: boolean;
  status?: number;
  /** Headers sent with an injected `status` (e.g. Retry-After). */
  headers?: Record<string, string>;
  bytesPerSecond?: number;
  noRange?: boolean;
  closeAfterBody?: boolean;
  noLength?: boolean;
  redirect?: string;
}

export interface Route {
  body: Buffer;
  contentType?: string;
  fault?: Fault;
  /** Last-Modified to send. */
  lastModified?: string;
}

export interface RequestLog {
  path: string;
  range?: string;
  ifRange?: string;
  status: number;
}

export interface UpstreamServer {
  url: string;
  server: Server;
  requests: RequestLog[];
  /** Serve `body` (Buffer, string or a file path with `file:` prefix) at `path`. */
  set(path: string, body: Buffer | string, opts?: Omit<Route, 'body'>): void;
  setFile(path: string, file: string, opts?: Omit<Route, 'body'>): void;
  fault(path: string, fault: Fault | undefined): void;
  remove(path: string): void;
  close(): Promise<void>;
}

function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
}

function corruptBytes(b: Buffer): Buffer {
  const c = Buffer.from(b);
  for (let i = 13; i < c.length; i += 97) c[i] = c[i]! ^ 0x5a;
  return c;
}

export async function startUpstreamServer(): Promise<UpstreamServer> {
  const routes = new Map<string, Route>();
  const used = new Map<string, number>();
  const requests: RequestLog[] = [];

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const route = routes.get(path);
    const log: RequestLog = {
      path,
      ...(req.headers.range ? { range: String(req.headers.range) } : {}),
      ...(req.headers['if-range'] ? { ifRange: String(req.headers['if-range']) } : {}),
      status: 0,
    };
    requests.push(log);
    if (!route) {
      log.status = 404;
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const n = (used.get(path) ?? 0) + 1;
    used.set(path, n);
    const f = route.fault && (route.fault.times === undefined || n <= route.fault.times) ? route.fault : undefined;
    if (f?.redirect) {
      log.status = 302;
      res.writeHead(302, { location: f.redirect, 'content-type': 'text/plain' }).end('moved');
      return;
    }
    if (f?.status) {
      log.status = f.status;
      res.writeHead(f.status, { 'content-type': 'text/plain', ...(f.headers ?? {}) }).end(`injected ${f.status}`);
      return;
    }
    const noRange = !!route.fault?.noRange;
    const full = f?.corrupt ? corruptBytes(route.body) : route.body;
    const etag = etagOf(route.body);
    const headers: Record<string, string> = {
      'content-type': route.contentType ?? 'text/csv',
      'accept-ranges': noRange ? 'none' : 'bytes',
      etag,
      ...(route.lastModified ? { 'last-modified': route.lastModified } : {}),
    };
    let start = 0;
    let end = full.length - 1;
    let status = 200;
    const range = req.headers.range;
    const ifRange = req.headers['if-range'];
    if (range && !noRange && (!ifRange || ifRange === etag || ifRange === route.lastModified)) {
      const m = /^bytes=(\d+)-(\d*)$/.exec(String(range));
      if (m) {
        start = Number(m[1]);
        if (m[2]) end = Math.min(end, Number(m[2]));
        if (start >= full.length) {
          log.status = 416;
          res.writeHead(416, { 'content-range': `bytes */${full.length}` }).end();
          return;
        }
        status = 206;
        headers['content-range'] = `bytes ${start}-${end}/${full.length}`;
      }
    }
    const body = full.subarray(start, end + 1);
    if (!f?.noLength) headers['content-length'] = String(body.length);
    log.status = status;
    if (f?.closeAfterBody) {
      // No keep-alive and no chunked framing: the end of the body is the end of the connection.
      res.useChunkedEncodingByDefault = false;
      res.shouldKeepAlive = false;
      headers.connection = 'close';
    }
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const limit = f?.dropAfterBytes;
    const rate = f?.bytesPerSecond;
    if (limit === undefined && rate === undefined) {
      if (f?.closeAfterBody) res.end(body, () => res.socket?.end());
      else res.end(body);
      return;
    }
    // Write in chunks: throttled and/or cut off after `limit` bytes by destroying the socket.
    const chunk = rate ? Math.max(1, Math.floor(rate / 20)) : 16 * 1024;
    let off = 0;
    const step = () => {
      if (res.destroyed) return;
      if (limit !== undefined && off >= limit) {
        res.socket?.destroy();
        return;
      }
      if (off >= body.length) {
        res.end();
        return;
      }
      let next = Math.min(body.length, off + chunk);
      if (limit !== undefined) next = Math.min(next, limit);
      res.write(body.subarray(off, next));
      off = next;
      if (rate) setTimeout(step, 50);
      else setImmediate(step);
    };
    step();
  };

  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const api: UpstreamServer = {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    set(path, body, opts = {}) {
      routes.set(path, { body: typeof body === 'string' ? Buffer.from(body) : body, ...opts });
      used.delete(path);
    },
    setFile(path, file, opts = {}) {
      routes.set(path, { body: readFileSync(file), ...opts });
      used.delete(path);
    },
    fault(path, fault) {
      const r = routes.get(path);
      if (!r) throw new Error(`no route ${path}`);
      if (fault) r.fault = fault;
      else delete r.fault;
      used.delete(path);
    },
    remove(path) {
      routes.delete(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  return api;
}

/** An index page in the style of the publisher's: links to the files and a publication date. */
export function indexPage(links: Record<string, string>, published?: string): string {
  const items = Object.entries(links).map(([text, href]) => `<li><a href="${href}">${text}</a></li>`).join('\n');
  const meta = published ? `<script type="application/ld+json">{"dateModified":"${published}T09:30:00+00:00"}</script>` : '';
  return `<!doctype html><html><head><title>Price Paid Data</title>${meta}</head><body><ul>\n${items}\n</ul></body></html>`;
}
