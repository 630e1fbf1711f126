/** Pieces every upstream dataset module shares: catalogue fields, `--from`, index-page discovery, headers. */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetInfo } from '../src/mirror/catalog.js';
import { queryOne, type Param } from '../src/mirror/db.js';
import { DownloadError } from './download.js';
import type { DatasetModule, DatasetName, DiscoverContext, UpstreamFile } from './types.js';

/** The fields of a DatasetModule that come from the dataset catalogue (src/mirror/catalog.ts). */
export function catalogFields(
  info: DatasetInfo,
): Pick<DatasetModule, 'name' | 'title' | 'publisher' | 'licence' | 'attribution' | 'sourceUrl' | 'approxDownload' | 'file'> {
  return {
    name: info.name,
    title: info.title,
    publisher: info.publisher,
    licence: info.licence,
    attribution: info.attribution,
    sourceUrl: info.sourceUrl,
    approxDownload: info.approxDownload,
    file: info.file,
  };
}

/** Quoted SQL identifiers: defined with the mirror's SQL helpers (the read side uses it too). */
export { quoteIdent } from '../src/mirror/db.js';

/** `--from FILE_OR_URL` as the one upstream file, named after its last path segment (used by the framework). */
export function fromOption(from: string, fallbackName: string): UpstreamFile {
  return { url: from, name: basename(from.split('?')[0]!) || fallbackName, kind: 'full' };
}

/**
 * Try the publisher's index pages in order (newest first) and return the file the first one links to.
 * `pick` returns the file found on a page, or a reason why none was. If no page has it, the error names
 * the `--from` escape hatch and what each page said.
 */
export async function discoverFromPages(
  ctx: DiscoverContext,
  pages: readonly string[],
  pick: (html: string, page: string) => UpstreamFile | string,
  notFound: { what: string; dataset: DatasetName },
): Promise<UpstreamFile[]> {
  const errors: string[] = [];
  for (const page of pages) {
    let html: string;
    try {
      html = await ctx.fetchText(page);
    } catch (e) {
      // A host that cannot be reached at all will not answer for the next page either: say so now.
      if (e instanceof DownloadError && e.kind === 'connect') throw e;
      errors.push(`${page}: ${(e as Error).message}`);
      continue;
    }
    const found = pick(html, page);
    if (typeof found !== 'string') return [found];
    errors.push(`${page}: ${found}`);
  }
  throw new Error(
    `Could not find ${notFound.what} on the publisher's pages. Use 'publicdata sync ${notFound.dataset} --from <URL or file>'. ` +
      `Tried: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (+${errors.length - 3} more)` : ''}`,
  );
}

/** The first line of a file (a CSV header), without reading the whole file; a UTF-8 BOM is dropped. */
export function firstLine(path: string, max = 16384): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  } finally {
    closeSync(fd);
  }
}

/** The column names of a CSV header line (plain or double-quoted). */
export function csvHeader(path: string): string[] {
  return firstLine(path)
    .split(',')
    .map((h) => h.trim().replace(/^"|"$/g, ''));
}

/** Rejected rows kept in `rejects` (all are counted; a corrupt 5 GB file would otherwise copy itself there). */
export const MAX_STORED_REJECTS = 10_000;

/** Structural CSV errors (wrong column count, bad quoting) from DuckDB's reject tables, one row per line. */
export async function storeStructuralRejects(conn: DuckDBConnection): Promise<number> {
  const exists = await count(conn, "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'reject_errors' AND temporary");
  if (exists === 0) return 0;
  const n = await count(conn, 'SELECT count(*) AS n FROM (SELECT DISTINCT scan_id, file_id, line FROM reject_errors)');
  await conn.run(`
    INSERT INTO rejects (file, line, raw, reason)
    SELECT s.file_path, e.line, any_value(e.csv_line), 'malformed CSV line: ' || arg_min(e.error_message, e.column_idx)
    FROM reject_errors e JOIN reject_scans s USING (scan_id, file_id)
    GROUP BY s.file_path, e.line
    ORDER BY s.file_path, e.line
    LIMIT ${MAX_STORED_REJECTS}`);
  await conn.run('DELETE FROM reject_errors');
  await conn.run('DELETE FROM reject_scans');
  return n;
}

/** `SELECT count(*) AS n ...` */
export async function count(conn: DuckDBConnection, sql: string, params: Param[] = []): Promise<number> {
  return (await queryOne<{ n: number }>(conn, sql, params))?.n ?? 0;
}


/** The links on an HTML page (or a directory listing) whose file name matches `re`, resolved against the page. */
export function pageLinks(html: string, pageUrl: string, re: RegExp): Map<string, string> {
  const links = new Map<string, string>();
  const base = /\.[a-z]+$/i.test(pageUrl.split('?')[0]!) || pageUrl.endsWith('/') ? pageUrl : `${pageUrl}/`;
  for (const m of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) {
    const href = m[1]!;
    const nm = decodeURIComponent(href.split('?')[0]!.split('/').pop() ?? '');
    if (!re.test(nm) || links.has(nm)) continue;
    try {
      links.set(nm, new URL(href, base).toString());
    } catch {
      /* ignore bad hrefs */
    }
  }
  return links;
}

/**
 * The publisher's download page, or, when that fails, the listing at the base URL itself (a mirror or a
 * `--from` URL prefix that is a plain directory listing).
 */
export async function fetchPage(ctx: Pick<DiscoverContext, 'baseUrl' | 'fetchText'>, page: string): Promise<string> {
  try {
    return await ctx.fetchText(page);
  } catch (e) {
    try {
      return await ctx.fetchText(`${ctx.baseUrl}/`);
    } catch {
      throw e;
    }
  }
}

/**
 * The module fields shared by the Companies House snapshot datasets (companies, psc): catalogue fields,
 * download host, `memoryLimit: 'auto'` (their sorts spill instead of taking several GB), full loads
 * dated by the snapshot date in the file name, `--from` folders by the publisher's file names, and
 * discovery of the newest complete snapshot on the publisher's download page.
 */
export function snapshotDataset(o: {
  info: DatasetInfo;
  baseUrl: string;
  /** The download page, relative to the base URL. */
  page: string;
  /** How the page is named in errors ('Companies House download page'). */
  pageTitle: string;
  /** The publisher's file names (zip, parts, or their members). */
  fileRe: RegExp;
  snapshotDate(name: string): string | undefined;
  /** The files of the newest complete snapshot linked, or why there is none. */
  pick(links: Map<string, string>, now: Date): UpstreamFile[] | string;
  /** What `--from` takes, for the error when the page cannot be read. */
  fromHint: string;
}): Pick<DatasetModule, ReturnType<typeof catalogKeys>[number] | 'defaultBaseUrl' | 'memoryLimit' | 'classifyFrom' | 'fromNames' | 'discover'> {
  return {
    ...catalogFields(o.info),
    defaultBaseUrl: o.baseUrl,
    memoryLimit: 'auto',
    classifyFrom(name: string) {
      const d = o.snapshotDate(name);
      return { kind: 'full', ...(d ? { published: d } : {}) };
    },
    fromNames: o.fileRe,
    async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
      const page = `${ctx.baseUrl}/${o.page}`;
      let html: string;
      try {
        html = await fetchPage(ctx, page);
      } catch (e) {
        throw new Error(
          `could not read the ${o.pageTitle} ${page} (${(e as Error).message}). Use 'publicdata sync ${o.info.name} --from <${o.fromHint}>'.`,
        );
      }
      const found = o.pick(pageLinks(html, page, o.fileRe), ctx.now());
      if (typeof found === 'string') throw new Error(`${found} on ${page}. Use 'publicdata sync ${o.info.name} --from <file, folder or URL>'.`);
      return found;
    },
  };
}
const catalogKeys = () => ['name', 'title', 'publisher', 'licence', 'attribution', 'sourceUrl', 'approxDownload', 'file'] as const;
