/**
 * The pages `serve` gives a browser (docs/serve.md "Pages"): `/` and `/docs` (the API reference, drawn
 * by swagger-ui from the server's own `/v1/openapi.json`, plus a postcode box) and `/area/{postcode}`
 * (the area profile page, which fetches `/v1/area/{postcode}` itself with the key the user types: the
 * page carries no data). Their scripts and styles are plain files in src/pages/assets/; the reference
 * renderer is served from the installed swagger-ui-dist package, never from a CDN.
 *
 * Every page answer has the same strict headers (a Content-Security-Policy allowing the server's own
 * origin only, nosniff, no referrer) and an ETag (304 on If-None-Match). Files are read, tagged and
 * gzipped on first ask and kept for the life of the process (they are the installed package's files).
 * Pages need no key: they hold no data. The API routes are not touched by any of this.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { PACKAGE_ROOT } from '../data.js';

/** The page's own scripts and styles (plain files, shipped in the package). */
export const ASSETS_DIR = join(PACKAGE_ROOT, 'src', 'pages', 'assets');

/**
 * Only this server's origin: scripts, styles, fetches and fonts from 'self'; images from 'self' and data:
 * (swagger-ui's icons are data: SVGs inside its CSS; no other origin). No inline script or style, no
 * framing, no <base>, forms post only here.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // revalidate every time: a 304 costs a round trip and no bytes; a new install changes the tag
  'Cache-Control': 'no-cache',
};

export interface PageFile {
  type: string;
  body: Buffer;
  etag: string;
  /** gzip of body, made on first ask by a client that accepts it. */
  gz?: Promise<Buffer>;
}

/** What a page request gets: a file, or a redirect (the postcode form without script). */
export type PageAnswer = { status: 200; file: PageFile } | { status: 303; location: string } | { status: 404 };

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

const swaggerDir = (): string => dirname(createRequire(join(PACKAGE_ROOT, 'package.json')).resolve('swagger-ui-dist/package.json'));

/** /assets/<name> → where the file is. Nothing else is served from disk. */
const ASSET_FILES: Record<string, () => string> = {
  'swagger-ui-bundle.js': () => join(swaggerDir(), 'swagger-ui-bundle.js'),
  'swagger-ui.css': () => join(swaggerDir(), 'swagger-ui.css'),
  'docs.js': () => join(ASSETS_DIR, 'docs.js'),
  'pages.css': () => join(ASSETS_DIR, 'pages.css'),
  'area.js': () => join(ASSETS_DIR, 'area.js'),
  'area.css': () => join(ASSETS_DIR, 'area.css'),
};

const gzip = promisify(gzipCb);

function fileOf(type: string, body: Buffer): PageFile {
  return { type, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The top bar of every page: the name, the two pages, the postcode box (works without script: GET /area?postcode=). */
function header(postcode = ''): string {
  return `<header class="bar">
  <a class="brand" href="/">publicdata</a>
  <nav aria-label="Pages"><a href="/docs">API reference</a></nav>
  <form class="pcform" action="/area" method="get" role="search" aria-label="Area profile by postcode">
    <label for="pc">Postcode</label>
    <input id="pc" name="postcode" autocomplete="postal-code" placeholder="LS8 3BS" value="${escapeHtml(postcode)}" required maxlength="10">
    <button type="submit">Area profile</button>
  </form>
</header>`;
}

function shell(title: string, body: string, css: string[], js: string[], auth = false): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="publicdata-auth" content="${auth ? 'bearer' : 'none'}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
${css.map((c) => `<link rel="stylesheet" href="/assets/${c}">`).join('\n')}
${js.map((s) => `<script src="/assets/${s}" defer></script>`).join('\n')}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`;
}

const DOCS_HTML = shell(
  'publicdata: API reference',
  `${header()}
<main id="main">
  <h1 class="visually-hidden">API reference</h1>
  <p class="lede">Every route of this server, from its own <a href="/v1/openapi.json">OpenAPI document</a>. “Try it out” sends the key you give under “Authorize” as an <code>Authorization: Bearer</code> header; it is kept in this tab’s memory only.</p>
  <div id="swagger-ui" aria-live="polite"><p>Loading the reference…</p></div>
  <noscript><p>The interactive reference needs JavaScript; the document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
</main>`,
  ['swagger-ui.css', 'pages.css'],
  ['swagger-ui-bundle.js', 'docs.js'],
);

/**
 * The area page: the same HTML for every postcode (the script reads the postcode from the path). With
 * keys the page asks for one before its first request (`publicdata-auth`), rather than learning it from a 401.
 */
const areaHtml = (auth: boolean): string => shell(
  'publicdata: area profile',
  `${header()}
<main id="main" class="area" aria-busy="true">
  <p class="status" role="status">Loading…</p>
  <noscript><p>The area page draws its map and charts with JavaScript; the figures are at <code>/v1/area/{postcode}</code>.</p></noscript>
</main>
<footer class="foot"><p>Drawn in your browser from this server’s <code>/v1/area</code> answer and the point routes it links to. Contains public sector information licensed under the Open Government Licence v3.0.</p></footer>`,
  ['pages.css', 'area.css'],
  ['area.js'],
  auth,
);

/** A path `serve` answers with a page (GET and HEAD only; everything else is the API's). */
export function isPagePath(path: string): boolean {
  return path === '/' || path === '/docs' || path === '/docs/' || path === '/area' || path.startsWith('/area/') || path.startsWith('/assets/');
}

export class PageSite {
  private readonly files = new Map<string, PageFile>();

  /** `keyed`: serve requires a Bearer key (the area page asks for it first). */
  constructor(private readonly keyed: boolean) {}

  /** The answer for a page path (isPagePath) and its query. */
  answer(path: string, query: URLSearchParams): PageAnswer {
    if (path === '/' || path === '/docs' || path === '/docs/') return { status: 200, file: this.cached('docs.html', () => fileOf(TYPES.html!, Buffer.from(DOCS_HTML))) };
    if (path === '/area') {
      const pc = (query.get('postcode') ?? '').trim();
      return { status: 303, location: pc ? `/area/${encodeURIComponent(pc)}` : '/' };
    }
    if (path.startsWith('/area/')) return { status: 200, file: this.cached('area.html', () => fileOf(TYPES.html!, Buffer.from(areaHtml(this.keyed)))) };
    const name = path.slice('/assets/'.length);
    const where = Object.hasOwn(ASSET_FILES, name) ? ASSET_FILES[name] : undefined;
    if (!where) return { status: 404 };
    return { status: 200, file: this.cached(name, () => fileOf(TYPES[name.slice(name.lastIndexOf('.') + 1)]!, readFileSync(where()))) };
  }

  /** The gzip of a file (made once, off the main thread). */
  gzipped(f: PageFile): Promise<Buffer> {
    return (f.gz ??= gzip(f.body, { level: 9 }));
  }

  private cached(key: string, make: () => PageFile): PageFile {
    let f = this.files.get(key);
    if (!f) this.files.set(key, (f = make()));
    return f;
  }
}
