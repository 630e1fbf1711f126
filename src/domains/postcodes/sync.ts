/**
 * `publicdata sync postcodes [--from ZIP_OR_CSV]`: the ONS Postcode Directory into postcodes.duckdb.
 *
 * Discovery: the ArcGIS search API of the ONS Open Geography Portal (each edition is a new item), keeping the
 * items whose `name` is `ONSPD_<MON>_<YYYY>.zip` (titles are not reliable), the newest edition by that name,
 * and among items of that name the newest `modified` stamp, which is the version stamp (`published`).
 * Load: the single national CSV (`Data/ONSPD_<MON>_<YYYY>_UK.csv`, not `Data/multi_csv/`) is streamed out of
 * the zip through a FIFO into DuckDB's read_csv (sync/formats/fifo.ts), never unpacked to disk; the
 * code-to-name lookups of `Documents/*.csv` are read the same way into `area_names`. Columns are found by
 * pattern (columns.ts). Tables: `postcodes` sorted by latitude (zone maps prune a radius query to a band),
 * `postcode_index` (key and latitude, sorted by key: a lookup reads one row group of each), `area_names`,
 * `edition`. The framework stages the file beside the live one and renames it into place after verify.
 */
import { closeSync, openSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { catalogFields, firstLine } from '../../../sync/common.js';
import { withStreamAsFile } from '../../../sync/formats/fifo.js';
import { isZipFile, listEntries, listZip, memberHead, pipeMember, readEntry, type ZipMember } from '../../../sync/formats/zip.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../sync/types.js';
import { query, queryOne, quoteIdent } from '../../mirror/db.js';
import { FIELDS, findColumns, missingMessage, type Found } from './columns.js';
import { POSTCODES_INFO } from './datasets.js';

export const ARCGIS_BASE = 'https://www.arcgis.com';
export const SEARCH_PATH = '/sharing/rest/search';
export const ITEM_NAME_RE = /^ONSPD_([A-Z]{3})_(\d{4})\.zip$/i;
const FILE_NAME_RE = /^ONSPD_([A-Z]{3})_(\d{4})(?:_UK)?\.(zip|csv)$/i;
const NATIONAL_RE = /(^|\/)ONSPD_[A-Z]{3}_\d{4}_UK\.csv$/i;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `ONSPD_AUG_2024` from a zip or CSV name, with the edition's month (YYYY-MM), or undefined. */
export function editionOf(name: string): { edition: string; month: string } | undefined {
  const m = FILE_NAME_RE.exec(basename(name)) ?? /ONSPD_([A-Z]{3})_(\d{4})/i.exec(basename(name));
  if (!m) return undefined;
  const mon = MONTHS.indexOf(m[1]!.toUpperCase());
  if (mon < 0) return undefined;
  return { edition: `ONSPD_${m[1]!.toUpperCase()}_${m[2]}`, month: `${m[2]}-${String(mon + 1).padStart(2, '0')}` };
}

interface SearchItem { id?: unknown; name?: unknown; title?: unknown; modified?: unknown }

/** The newest edition among ArcGIS search results, or why there is none. */
export function pickEdition(doc: unknown, baseUrl: string): UpstreamFile | string {
  const results = (doc as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return 'the ArcGIS search answer has no results list';
  let best: { item: SearchItem; month: string; modified: number } | undefined;
  for (const item of results as SearchItem[]) {
    if (typeof item?.name !== 'string' || typeof item.id !== 'string' || !/^[0-9a-f]{32}$/i.test(item.id)) continue;
    if (!ITEM_NAME_RE.test(item.name)) continue;
    const e = editionOf(item.name);
    if (!e) continue;
    const modified = typeof item.modified === 'number' ? item.modified : 0;
    if (!best || e.month > best.month || (e.month === best.month && modified > best.modified)) best = { item, month: e.month, modified };
  }
  if (!best) return `no item named ONSPD_<MON>_<YYYY>.zip among ${results.length} search results`;
  const name = String(best.item.name);
  return {
    url: `${baseUrl}/sharing/rest/content/items/${String(best.item.id)}/data`,
    name,
    kind: 'full',
    ...(best.modified ? { published: new Date(best.modified).toISOString().slice(0, 10) } : {}),
  };
}

export async function discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
  const q = new URLSearchParams({ q: 'title:"ONS Postcode Directory"', f: 'json', sortField: 'created', sortOrder: 'desc', num: '100' });
  const url = `${ctx.baseUrl}${SEARCH_PATH}?${q.toString()}`;
  let doc: unknown;
  try {
    doc = JSON.parse(await ctx.fetchText(url));
  } catch (e) {
    throw new Error(`could not read the ArcGIS search API ${url} (${(e as Error).message}). Download ONSPD_<MON>_<YYYY>.zip from ${POSTCODES_INFO.sourceUrl} and run 'publicdata sync postcodes --from <the zip>'.`);
  }
  const f = pickEdition(doc, ctx.baseUrl);
  if (typeof f === 'string') throw new Error(`${f} at ${url}. Use 'publicdata sync postcodes --from <ONSPD zip or CSV>'.`);
  return [f];
}

/** The national CSV member of an ONSPD zip (never the multi_csv/ split of the same rows). */
function nationalMember(members: readonly ZipMember[], zipName: string): ZipMember {
  const csvs = members.filter((m) => /\.csv$/i.test(m.name) && !/(^|\/)multi_csv\//i.test(m.name) && !/(^|\/)Documents\//i.test(m.name));
  const named = csvs.filter((m) => NATIONAL_RE.test(m.name));
  if (named.length === 1) return named[0]!;
  if (named.length === 0 && csvs.length === 1) return csvs[0]!;
  throw new Error(
    `postcodes: ${zipName} holds ${named.length || csvs.length} candidate national CSVs (${(named.length ? named : csvs).map((m) => m.name).join(', ') || 'none'}); ` +
      'expected one Data/ONSPD_<MON>_<YYYY>_UK.csv',
  );
}

function headerOf(line: string): string[] {
  return line.replace(/^\uFEFF/, '').split(/\r?\n/)[0]!.split(',').map((h) => h.trim().replace(/^"|"$/g, ''));
}

const q = quoteIdent;
const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** An area code, or NULL for an empty cell or a pseudo code meaning "none" (E99999999, L99999999, ...). */
const area = (col: string) => `CASE WHEN ${q(col)} IS NULL OR trim(${q(col)}) = '' OR regexp_full_match(trim(${q(col)}), '[A-Z]99999999') THEN NULL ELSE trim(${q(col)}) END`;
/** Grid quality 9 (or none) means no grid reference: its placeholder coordinates are never stored. */
const located = (c: Found) => `TRY_CAST(${q(c.grid)} AS INTEGER) BETWEEN 1 AND 8`;
const AREAS = ['country', 'region', 'lad', 'ward', 'parish', 'pcon', 'oa21', 'lsoa21', 'msoa21', 'lsoa11', 'pfa'] as const;

function stageSql(c: Found, path: string): string {
  const pc = `upper(trim(regexp_replace(${q(c.pcds)}, '\\s+', ' ', 'g')))`;
  return `CREATE TEMP TABLE stage AS SELECT
      ${pc} AS postcode,
      replace(${pc}, ' ', '') AS pc_key,
      TRY_CAST(nullif(trim(${q(c.dointr)}), '') AS INTEGER) AS introduced,
      TRY_CAST(nullif(trim(${q(c.doterm)}), '') AS INTEGER) AS terminated,
      CASE WHEN ${located(c)} THEN TRY_CAST(${q(c.east)} AS INTEGER) END AS easting,
      CASE WHEN ${located(c)} THEN TRY_CAST(${q(c.north)} AS INTEGER) END AS northing,
      CASE WHEN ${located(c)} THEN TRY_CAST(${q(c.grid)} AS TINYINT) END AS quality,
      CASE WHEN ${located(c)} AND TRY_CAST(${q(c.lat)} AS DOUBLE) BETWEEN -90 AND 90 THEN TRY_CAST(${q(c.lat)} AS DOUBLE) END AS lat,
      CASE WHEN ${located(c)} AND TRY_CAST(${q(c.lat)} AS DOUBLE) BETWEEN -90 AND 90 THEN TRY_CAST(${q(c.lng)} AS DOUBLE) END AS lng,
      ${AREAS.map((a) => `${area(c[a])} AS ${a}`).join(',\n      ')},
      TRY_CAST(nullif(trim(${q(c.imd)}), '') AS INTEGER) AS imd,
      nullif(trim(${q(c.ru)}), '') AS ru,
      (regexp_full_match(${pc}, '[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}')
        AND TRY_CAST(nullif(trim(${q(c.dointr)}), '') AS INTEGER) IS NOT NULL
        AND (nullif(trim(${q(c.doterm)}), '') IS NULL OR TRY_CAST(trim(${q(c.doterm)}) AS INTEGER) IS NOT NULL)) AS ok,
      concat_ws(',', ${q(c.pcds)}, ${q(c.dointr)}, ${q(c.doterm)}) AS raw
    FROM read_csv(${sqlString(path)}, header = true, all_varchar = true, quote = '"', escape = '"', delim = ',', sample_size = 1000)`;
}

/** Documents/*.csv: every lookup with a code column (…CD or …IND) and a name column (…NM) goes into area_names. */
async function loadLookups(ctx: LoadContext, zipPath: string, workDir: string): Promise<number> {
  const docs: Array<{ name: string; buf: Buffer }> = [];
  const fd = openSync(zipPath, 'r');
  try {
    for await (const e of listEntries(zipPath, (m) => /(^|\/)Documents\/[^/]+\.csv$/i.test(m.name) && m.size < 64 * 2 ** 20)) {
      docs.push({ name: e.name, buf: readEntry(fd, e, basename(zipPath)) });
    }
  } finally {
    closeSync(fd);
  }
  let n = 0;
  for (const d of docs) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(d.buf);
    } catch {
      text = new TextDecoder('windows-1252').decode(d.buf); // older lookups are Windows-1252
    }
    text = text.replace(/^\uFEFF/, '');
    const header = headerOf(text);
    const code = header.find((h) => /^[a-z]+\d{0,2}cd$/i.test(h)) ?? header.find((h) => /^[a-z]+\d{2}ind$/i.test(h));
    const name = header.find((h) => /^[a-z]+\d{0,2}nm$/i.test(h));
    if (!code || !name) {
      ctx.log?.(`postcodes: ${d.name}: no code and name columns; not used`);
      continue;
    }
    const kind = /ind$/i.test(code) ? 'ru' : 'gss';
    await withStreamAsFile(workDir, 'lookup.csv', (dest) => pipeline(Readable.from([Buffer.from(text, 'utf8')]), dest), (path) =>
      ctx.conn.run(
        `INSERT INTO area_names SELECT DISTINCT ON (code) trim(${q(code)}) AS code, trim(${q(name)}) AS name, ${sqlString(kind)}, ${sqlString(basename(d.name))}
         FROM read_csv(${sqlString(path)}, header = true, all_varchar = true) WHERE nullif(trim(${q(code)}), '') IS NOT NULL AND nullif(trim(${q(name)}), '') IS NOT NULL
           AND (trim(${q(code)}), ${sqlString(kind)}) NOT IN (SELECT (code, kind) FROM area_names)`,
      ),
    );
    n++;
  }
  return n;
}

async function load(ctx: LoadContext): Promise<LoadResult> {
  if (ctx.files.length !== 1) throw new Error(`postcodes: give one ONSPD zip or its national CSV (got ${ctx.files.length} files)`);
  const file = ctx.files[0]!;
  const workDir = ctx.workDir ?? join(file.path, '..', 'postcodes-work');
  const zip = isZipFile(file.path);
  let member: ZipMember | undefined;
  let header: string[];
  if (zip) {
    member = nationalMember(await listZip(file.path), file.name);
    header = headerOf((await memberHead(file.path, member.name)).toString('utf8'));
  } else {
    header = headerOf(firstLine(file.path));
  }
  const cols = findColumns(header);
  if ('missing' in cols) throw new Error(missingMessage(member ? `${file.name} (${member.name})` : file.name, cols.missing));
  const c = cols.found;
  const edition = editionOf(member?.name ?? file.name) ?? editionOf(file.name);
  ctx.log?.(`postcodes: reading ${member ? `${member.name} from inside ${file.name}` : file.name}`);
  const readInto = (path: string) => ctx.conn.run(stageSql(c, path));
  if (member) {
    const m = member;
    await withStreamAsFile(workDir, 'onspd.csv', (dest) => pipeMember(file.path, (x) => x.name === m.name, dest), readInto);
  } else {
    await readInto(file.path);
  }
  const counts = (await queryOne<{ good: number; bad: number }>(ctx.conn, 'SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad FROM stage'))!;
  ctx.progress(counts.good);
  if (counts.bad > 0) {
    await ctx.conn.run(
      `INSERT INTO rejects SELECT ${sqlString(file.name)}, NULL, raw, 'no postcode in the form A9 9AA, or a date of introduction or termination that is not YYYYMM' FROM stage WHERE NOT ok LIMIT 10000`,
    );
  }
  await ctx.conn.run(`CREATE TABLE postcodes AS SELECT * EXCLUDE (ok, raw) FROM stage WHERE ok ORDER BY lat NULLS LAST, pc_key`);
  await ctx.conn.run('DROP TABLE stage');
  await ctx.conn.run('CREATE TABLE postcode_index AS SELECT pc_key, lat FROM postcodes ORDER BY pc_key');
  await ctx.conn.run('CREATE TABLE area_names (code VARCHAR, name VARCHAR, kind VARCHAR, file VARCHAR)');
  const lookups = zip ? await loadLookups(ctx, file.path, workDir) : 0;
  const missing = (await queryOne<Record<string, number>>(
    ctx.conn, `SELECT ${[...AREAS, 'lat'].map((a) => `count(*) FILTER (WHERE ${a} IS NULL) AS ${a}`).join(', ')} FROM postcodes`,
  ))!;
  const missingText = Object.entries(missing).filter(([, v]) => v > 0).map(([k, v]) => `${k === 'lat' ? 'location' : k} ${v}`).join(', ');
  await ctx.conn.run(
    `CREATE TABLE edition AS SELECT ? AS edition, ? AS file, CAST(? AS DATE) AS published, ? AS columns, ? AS missing, ? AS imd_column, ? AS lookups`,
    [edition?.edition ?? null, file.name, file.published ?? null, JSON.stringify(c), JSON.stringify(missing), c.imd.toLowerCase(), lookups],
  );
  return {
    rows: counts.good,
    rejected: counts.bad,
    mode: 'full',
    ...(edition ? { asOf: `${edition.month}-01` } : file.published ? { asOf: file.published } : {}),
    note: `${edition?.edition ?? file.name}: ${lookups} name lookups${missingText ? `; rows without: ${missingText}` : ''}`,
  };
}

async function verify(conn: DuckDBConnection): Promise<void> {
  const r = (await queryOne<{ n: number; d: number; i: number }>(conn, 'SELECT count(*) AS n, count(DISTINCT pc_key) AS d, (SELECT count(*) FROM postcode_index) AS i FROM postcodes'))!;
  if (r.n === 0) throw new Error('postcodes: no postcode loaded');
  if (r.d !== r.n) throw new Error(`postcodes: ${r.n - r.d} postcodes appear twice`);
  if (r.i !== r.n) throw new Error('postcodes: the index does not hold every postcode');
  const placeholder = await query(conn, 'SELECT postcode FROM postcodes WHERE (lat IS NULL) <> (quality IS NULL) LIMIT 1');
  if (placeholder.length) throw new Error(`postcodes: ${String(placeholder[0]!.postcode)} has a location without a grid quality (or the reverse)`);
}

export const postcodes: DatasetModule = {
  ...catalogFields(POSTCODES_INFO),
  defaultBaseUrl: ARCGIS_BASE,
  tables: ['postcodes'],
  rejectThreshold: 0.01,
  memoryLimit: 'auto',
  fromNames: FILE_NAME_RE,
  classifyFrom(name: string) {
    const e = editionOf(name);
    return { kind: 'full', ...(e ? { published: `${e.month}-01` } : {}) };
  },
  discover,
  load,
  verify,
};

export { FIELDS };
