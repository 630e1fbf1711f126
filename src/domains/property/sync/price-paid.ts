/**
 * `publicdata sync price-paid`: HM Land Registry Price Paid Data into price_paid.duckdb.
 *
 * Upstream (no header, 16 quoted columns, LF or CRLF):
 *   transaction id `{GUID}`, price, date `YYYY-MM-DD 00:00`, postcode, property type D/S/T/F/O,
 *   old/new Y/N, duration F/L (U in a few old rows), PAON, SAON, street, locality, town/city, district,
 *   county, PPD category A/B, record status A/C/D.
 * Files: pp-complete.csv (everything, ~5 GB), pp-<year>.csv (one year), pp-monthly-update-new-version.csv
 * (last month's additions A, changes C and deletions D, keyed by transaction id).
 *
 * Loading: DuckDB read_csv with explicit all-VARCHAR columns, TRY_CAST into typed columns in one
 * CREATE TABLE AS … ORDER BY postcode (zonemaps then prune postcode lookups); rows that do not parse go
 * to `rejects` (structural errors with their line number from DuckDB's reject tables, type errors with
 * the raw fields and a reason). Never row-by-row inserts from JavaScript.
 * Incremental: the framework copies the live file; the update file is staged in a temp table and applied
 * by transaction id (delete every id in the file, insert the last A/C row per id).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { beginChanges, recordChanged } from '../../../mirror/changes.js';
import { queryOne } from '../../../mirror/db.js';
import { catalogFields, count, MAX_STORED_REJECTS, storeStructuralRejects } from '../../../../sync/common.js';
import { DownloadError } from '../../../../sync/download.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { READER_LIMITS, sampleLines, type ReaderLimits } from '../../../../sync/formats/bounds.js';
import { csvFields } from '../../../../sync/integrity.js';
import { noLineBreak, refuseOpenQuote, refuseOpenQuoteInRejects, type NoBreakFormat } from '../../../../sync/open-quote.js';
import { PRICE_PAID_INFO } from '../datasets.js';
import { addMonths, coveredThrough, dropYears, MAX_REPAIR_YEARS, planUpdate, recordFull, recordUpdate, repairYears } from './price-paid-months.js';


export const DEFAULT_BASE_URL = 'http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com';
export const PUBLISHER_PAGE = 'https://www.gov.uk/government/statistical-data-sets/price-paid-data-downloads';
export const COMPLETE_FILE = 'pp-complete.csv';
export const UPDATE_FILE = 'pp-monthly-update-new-version.csv';
export const yearFile = (y: number) => `pp-${y}.csv`;

export const PRICE_PAID_DDL = `CREATE TABLE price_paid (
  id            UUID    NOT NULL, -- transaction unique identifier, braces stripped, lowercase
  price         BIGINT  NOT NULL, -- pounds
  date          DATE    NOT NULL, -- date of transfer (upstream 'YYYY-MM-DD 00:00')
  postcode      VARCHAR,          -- NULL where the publisher has none
  property_type VARCHAR NOT NULL, -- D detached, S semi-detached, T terraced, F flat/maisonette, O other
  old_new       VARCHAR NOT NULL, -- Y new build, N established
  duration      VARCHAR NOT NULL, -- F freehold, L leasehold (U unknown in a few old rows)
  paon          VARCHAR,          -- primary addressable object name (house number or name)
  saon          VARCHAR,          -- secondary addressable object name (flat, unit)
  street        VARCHAR,
  locality      VARCHAR,
  town          VARCHAR,          -- town/city
  district      VARCHAR,          -- local authority district
  county        VARCHAR,
  ppd_category  VARCHAR NOT NULL  -- A standard price paid, B additional (repossessions, buy-to-let, non-private buyers, ...)
)`;

/** id → postcode, sorted on id (see loadFull). */
export const ID_TABLE = 'price_paid_ids';

const COLUMNS = [
  'id', 'price', 'date', 'postcode', 'property_type', 'old_new', 'duration', 'paon', 'saon', 'street',
  'locality', 'town', 'district', 'county', 'ppd_category', 'record_status',
] as const;

/** read_csv options: headerless, every column VARCHAR, structural errors stored in reject tables. */
const READ_OPTS =
  `columns = {${COLUMNS.map((c) => `'${c}': 'VARCHAR'`).join(', ')}}, header = false, auto_detect = false, ` +
  `delim = ',', quote = '"', escape = '"', store_rejects = true, strict_mode = false, max_line_size = ${READER_LIMITS.lineBytes}`;

/**
 * Typed projection of one file's raw rows. No trim/upper: the publisher's fields are clean, and a value
 * that is not exactly a valid code is rejected rather than silently repaired. DuckDB casts `{GUID}` to
 * UUID and `YYYY-MM-DD 00:00` to DATE directly. The raw id/price/date travel along (cheap: no copy) so a
 * rejected row can be written out as it was read.
 */
const TYPED_FROM_FILE = (param: number) => `SELECT
  TRY_CAST(id AS UUID) AS id,
  TRY_CAST(price AS BIGINT) AS price,
  TRY_CAST(date AS DATE) AS date,
  NULLIF(postcode, '') AS postcode,
  property_type, old_new, duration,
  NULLIF(paon, '') AS paon,
  NULLIF(saon, '') AS saon,
  NULLIF(street, '') AS street,
  NULLIF(locality, '') AS locality,
  NULLIF(town, '') AS town,
  NULLIF(district, '') AS district,
  NULLIF(county, '') AS county,
  ppd_category, record_status,
  id AS r_id, price AS r_price, date AS r_date,
  filename AS _file
FROM read_csv($${param}, ${READ_OPTS})`;

/** The fields as read (the raw id, price and date, the text columns as they are). */
const RAW_FIELDS = ['r_id', 'r_price', 'r_date', ...COLUMNS.slice(3)];
/**
 * A price-paid file has one transaction a line (checkPricePaidFile reads it so; no field of the real
 * excerpts spans lines): a field with a line break is a quote never closed that took in the lines after it
 * (sync/open-quote.ts). A row with one in any field as read is rejected (a cast alone is not enough: DuckDB
 * reads '250000\n' as 250000), its raw text kept, and `openQuote` refuses the file.
 */
const NO_BREAK = noLineBreak(RAW_FIELDS);
const BREAK_REASON = 'a field holds a line break';
const PPD_CSV: NoBreakFormat = { what: 'HM Land Registry price-paid CSV', why: 'price-paid files have one transaction a line' };

/** Refuse a file whose rejected rows (`raw` column of `table`) or structural rejects hold a line break. */
async function openQuote(conn: DuckDBConnection, table: string, raw: string): Promise<void> {
  await refuseOpenQuoteInRejects(conn, PPD_CSV);
  await refuseOpenQuote(conn, `SELECT _file AS file, ${raw} AS text FROM ${table} WHERE _reject IS NOT NULL`, PPD_CSV);
}

/** Every file's typed rows plus `_reject`: the reason a row is rejected, NULL when it is fine. */
function staged(files: number): string {
  const union = Array.from({ length: files }, (_, i) => TYPED_FROM_FILE(i + 1)).join('\nUNION ALL\n');
  return `SELECT *,
  CASE
    WHEN NOT ${NO_BREAK} THEN '${BREAK_REASON}'
    WHEN id IS NULL THEN 'invalid transaction id'
    WHEN price IS NULL OR price < 0 THEN 'invalid price'
    WHEN date IS NULL THEN 'invalid date'
    WHEN property_type IS NULL OR property_type NOT IN ('D', 'S', 'T', 'F', 'O') THEN 'invalid property type'
    WHEN old_new IS NULL OR old_new NOT IN ('Y', 'N') THEN 'invalid old/new flag'
    WHEN duration IS NULL OR duration NOT IN ('F', 'L', 'U') THEN 'invalid duration'
    WHEN ppd_category IS NULL OR ppd_category NOT IN ('A', 'B') THEN 'invalid PPD category'
    WHEN record_status IS NULL OR record_status NOT IN ('A', 'C', 'D') THEN 'invalid record status'
  END AS _reject
FROM (${union})`;
}

/** The row as read (quoted CSV), built only for rejected rows (CASE evaluates it lazily). */
const RAW_LINE = `'"' || concat_ws('","', ${RAW_FIELDS.map((c) => `coalesce(${c}, '')`).join(', ')}) || '"'`;

const OUT_COLUMNS = COLUMNS.filter((c) => c !== 'record_status').join(', ');

async function asOf(conn: DuckDBConnection): Promise<string | undefined> {
  return (await queryOne<{ d: string | null }>(conn, 'SELECT max(date) AS d FROM price_paid'))?.d ?? undefined;
}

/** Lines of each file read before DuckDB is handed it, and the share of them that may not be price-paid rows. */
export const SAMPLE_LINES = 100;
const SAMPLE_BAD_SHARE = 0.01;
const ROW_START = /^"\{[0-9A-Fa-f-]{36}\}",/;

/**
 * Refuse a file that is not a price-paid CSV after reading its first lines with a bounded buffer (a line
 * over the limit is refused as soon as it passes it): given to DuckDB, garbage was held in memory whole
 * as rejected lines (~50x its size) before the reject threshold refused it (issue 37).
 */
export function checkPricePaidFile(path: string, name: string, limits: Pick<ReaderLimits, 'lineBytes'> = READER_LIMITS): void {
  const lines = sampleLines(path, name, SAMPLE_LINES, limits).filter((l) => l !== '');
  if (!lines.length) return;
  const bad = lines.map((l, i) => [i + 1, l] as const).filter(([, l]) => !ROW_START.test(l) || csvFields(l, ',').fields !== COLUMNS.length);
  if (bad.length > Math.floor(lines.length * SAMPLE_BAD_SHARE)) {
    const [n, l] = bad[0]!;
    throw new Error(
      `${name}: ${bad.length} of its first ${lines.length} lines are not price-paid rows (${COLUMNS.length} fields, a {transaction id} first), ` +
        `e.g. line ${n}: ${JSON.stringify(l.slice(0, 60))}: not a price-paid CSV`,
    );
  }
}

/** Full load of one or more complete/yearly files into an empty file. */
async function loadFull(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  for (const f of ctx.files) checkPricePaidFile(f.path, f.name);
  const paths = ctx.files.map((f) => f.path);
  ctx.log?.(`full load of ${ctx.files.map((f) => f.name).join(', ')}`);
  // One pass over the CSV: typed columns plus a reject reason (NULL for good rows), sorted on postcode.
  // Only rejected rows carry their raw line and file name, so the sort moves no extra bytes.
  let t = Date.now();
  await conn.run(
    `CREATE TABLE price_paid AS
     SELECT ${OUT_COLUMNS}, _reject,
       CASE WHEN _reject IS NOT NULL THEN ${RAW_LINE} END AS _raw,
       CASE WHEN _reject IS NOT NULL THEN _file END AS _file
     FROM (${staged(paths.length)})
     WHERE record_status IS DISTINCT FROM 'D' OR _reject IS NOT NULL
     ORDER BY postcode`,
    paths,
  );
  ctx.log?.(`read, typed and sorted in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await openQuote(conn, 'price_paid', '_raw');
  const structural = await storeStructuralRejects(conn);
  const typed = await count(conn, 'SELECT count(*) AS n FROM price_paid WHERE _reject IS NOT NULL');
  if (typed > 0) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason) SELECT _file, NULL, _raw, _reject FROM price_paid WHERE _reject IS NOT NULL LIMIT ${MAX_STORED_REJECTS}`,
    );
    await conn.run('DELETE FROM price_paid WHERE _reject IS NOT NULL');
  }
  for (const c of ['_reject', '_raw', '_file']) await conn.run(`ALTER TABLE price_paid DROP COLUMN ${c}`);
  // Lookup by id: a narrow copy sorted on id, so zonemaps find an id's postcode in one row group; the
  // handler then reads the row through the postcode-sorted table (cheaper than an ART index on 30M UUIDs).
  t = Date.now();
  await conn.run(`CREATE TABLE ${ID_TABLE} AS SELECT id, postcode FROM price_paid ORDER BY id`);
  ctx.log?.(`id lookup table sorted in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const rows = await count(conn, 'SELECT count(*) AS n FROM price_paid');
  ctx.progress(rows);
  await recordFull(conn, ctx.files);
  const a = await asOf(conn);
  return { rows, rejected: structural + typed, mode: 'full', ...(a ? { asOf: a } : {}) };
}

/** Apply a monthly update (A add, C change, D delete, by transaction id) to the copy of the live data. */
async function loadUpdate(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  for (const f of ctx.files) checkPricePaidFile(f.path, f.name);
  const paths = ctx.files.map((f) => f.path);
  ctx.log?.(`applying ${ctx.files.map((f) => f.name).join(', ')} to the existing data`);
  await conn.run(
    `CREATE TEMP TABLE _pp_update AS
     SELECT *, CASE WHEN _reject IS NOT NULL THEN ${RAW_LINE} END AS _rawkept
     FROM (${staged(paths.length)})`,
    paths,
  );
  await openQuote(conn, '_pp_update', '_rawkept');
  const structural = await storeStructuralRejects(conn);
  const typed = await count(conn, 'SELECT count(*) AS n FROM _pp_update WHERE _reject IS NOT NULL');
  await conn.run(
    `INSERT INTO rejects (file, line, raw, reason) SELECT _file, NULL, _rawkept, _reject FROM _pp_update WHERE _reject IS NOT NULL LIMIT ${MAX_STORED_REJECTS}`,
  );
  // The last row per id wins (file order = rowid order of the staging table).
  await conn.run(
    `CREATE TEMP TABLE _pp_apply AS
     SELECT * EXCLUDE (rn) FROM (
       SELECT *, row_number() OVER (PARTITION BY id ORDER BY rowid DESC) AS rn FROM _pp_update WHERE _reject IS NULL
     ) WHERE rn = 1`,
  );
  const adds = await count(conn, `SELECT count(*) AS n FROM _pp_apply WHERE record_status = 'A'`);
  const changes = await count(conn, `SELECT count(*) AS n FROM _pp_apply WHERE record_status = 'C'`);
  const deletes = await count(conn, `SELECT count(*) AS n FROM _pp_apply WHERE record_status = 'D'`);
  const existing = await count(conn, `SELECT count(*) AS n FROM price_paid WHERE id IN (SELECT id FROM _pp_apply)`);
  await conn.run('BEGIN TRANSACTION');
  // the old and new versions of the rows, for `mirror export --since` (src/mirror/changes.ts)
  await recordChanged(conn, 'price_paid', 'removed', 'SELECT * FROM price_paid WHERE id IN (SELECT id FROM _pp_apply)');
  await conn.run('DELETE FROM price_paid WHERE id IN (SELECT id FROM _pp_apply)');
  const added = `SELECT ${OUT_COLUMNS} FROM _pp_apply WHERE record_status IN ('A', 'C')`;
  await conn.run(`INSERT INTO price_paid (${OUT_COLUMNS}) ${added} ORDER BY postcode`);
  await recordChanged(conn, 'price_paid', 'added', added, OUT_COLUMNS);
  await conn.run(`DELETE FROM ${ID_TABLE} WHERE id IN (SELECT id FROM _pp_apply)`);
  await conn.run(`INSERT INTO ${ID_TABLE} SELECT id, postcode FROM _pp_apply WHERE record_status IN ('A', 'C') ORDER BY id`);
  await conn.run('COMMIT');
  await conn.run('DROP TABLE _pp_apply');
  await conn.run('DROP TABLE _pp_update');
  const applied = adds + changes + deletes;
  ctx.log?.(`update: ${adds} added, ${changes} changed, ${deletes} deleted (${existing} of those ids were in the mirror)`);
  ctx.progress(applied);
  const a = await asOf(conn);
  return { rows: applied, rejected: structural + typed, mode: 'incremental', ...(a ? { asOf: a } : {}) };
}

function parseYears(y: { from: number; to: number }, now: Date): number[] {
  const last = Math.min(y.to, now.getUTCFullYear());
  const out: number[] = [];
  for (let v = Math.max(1995, y.from); v <= last; v++) out.push(v);
  return out;
}

/** Find the file links on the publisher's index page (gov.uk page or a mirror's directory listing). */
export function parseIndexPage(html: string, pageUrl: string): { links: Map<string, string>; published?: string } {
  const links = new Map<string, string>();
  for (const m of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) {
    const href = m[1]!;
    const nm = href.split('?')[0]!.split('/').pop() ?? '';
    if (/^pp-(complete|monthly-update-new-version|\d{4})\.csv$/i.test(nm)) {
      try {
        links.set(nm.toLowerCase(), new URL(href, pageUrl.endsWith('/') ? pageUrl : `${pageUrl}/`).toString());
      } catch {
        /* ignore bad hrefs */
      }
    }
  }
  // Publication date: gov.uk "Last updated" metadata, or a data-published attribute / <time datetime>.
  const d =
    /"dateModified"\s*:\s*"(\d{4}-\d{2}-\d{2})/.exec(html)?.[1] ??
    /<meta[^>]*name\s*=\s*["']govuk:(?:public-)?updated-at["'][^>]*content\s*=\s*["'](\d{4}-\d{2}-\d{2})/i.exec(html)?.[1] ??
    /data-published\s*=\s*["'](\d{4}-\d{2}-\d{2})/.exec(html)?.[1] ??
    /<time[^>]*datetime\s*=\s*["'](\d{4}-\d{2}-\d{2})/i.exec(html)?.[1];
  return { links, ...(d ? { published: d } : {}) };
}

const pricePaid: DatasetModule & { classifyFrom(name: string): Pick<UpstreamFile, 'kind' | 'published'> } = {
  ...catalogFields(PRICE_PAID_INFO),
  defaultBaseUrl: DEFAULT_BASE_URL,
  rejectThreshold: 0.01,
  // The 30M-row sort spills to disk instead of taking ~12 GB (measured no slower at 3 GB on 2 cores).
  memoryLimit: 'auto',
  tables: ['price_paid'],

  classifyFrom(name: string) {
    return /^pp-monthly-update/i.test(name) ? { kind: 'update' } : { kind: 'full' };
  },

  // `--from pp-YYYY.csv` adds that year's rows (by transaction id, as an update) to the data there;
  // pp-complete.csv replaces it. --replace makes a yearly file replace it too.
  fromAdds: (name: string) => /^pp-\d{4}\.csv$/i.test(name),

  /**
   * Full (complete file, or yearly files with --years) when there is no data or with --force; otherwise
   * the monthly update. Links come from the index page (the gov.uk page for the publisher's base URL,
   * `<base>/` for an overridden one); the well-known names at the base URL are the fallback.
   */
  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const base = ctx.baseUrl;
    const indexUrl = base === DEFAULT_BASE_URL ? PUBLISHER_PAGE : `${base}/`;
    let page: { links: Map<string, string>; published?: string } = { links: new Map() };
    try {
      page = parseIndexPage(await ctx.fetchText(indexUrl), indexUrl);
    } catch (e) {
      // No index page: use the well-known names, unless they are on a host that could not be reached.
      if (e instanceof DownloadError && e.kind === 'connect' && new URL(indexUrl).host === new URL(`${base}/`).host) throw e;
    }
    const link = (nm: string) => page.links.get(nm) ?? `${base}/${nm}`;
    const published = page.published ? { published: page.published } : {};
    if (ctx.options.years) {
      return parseYears(ctx.options.years, ctx.now()).map((y) => ({ url: link(yearFile(y)), name: yearFile(y), kind: 'full' as const, ...published }));
    }
    if (!ctx.previous || ctx.options.force) {
      return [{ url: link(COMPLETE_FILE), name: COMPLETE_FILE, kind: 'full', ...published }];
    }
    // the update expected on the server covers the month before its publication (else before today); the
    // yearly files of any month missing in between come first (price-paid-months.ts)
    const next = addMonths((page.published ?? ctx.now().toISOString()).slice(0, 7), -1);
    const covered = typeof ctx.previous.module === 'string' ? ctx.previous.module : undefined;
    const years = repairYears(covered, next);
    const repair = (years.length > MAX_REPAIR_YEARS ? [] : years).map((y) => ({ url: link(yearFile(y)), name: yearFile(y), kind: 'update' as const, ...published }));
    return [...repair, { url: link(UPDATE_FILE), name: UPDATE_FILE, kind: 'update', ...published }];
  },

  // the month the live data covers up to (price-paid-months.ts), for discover to plan a repair
  readPrevious: coveredThrough,

  async load(ctx: LoadContext): Promise<LoadResult> {
    if (ctx.mode !== 'incremental') return loadFull(ctx);
    // a missed month: the yearly files replace their years' rows, then the update applies (or refused)
    const plan = await planUpdate(ctx.conn, ctx.files);
    await beginChanges(ctx.conn, 'price_paid');
    await dropYears(ctx.conn, plan.replaceYears, ID_TABLE);
    const r = await loadUpdate(ctx);
    await recordUpdate(ctx.conn, plan);
    return { ...r, ...(plan.note ? { note: plan.note } : {}) };
  },

  async verify(conn: DuckDBConnection): Promise<void> {
    const total = await count(conn, 'SELECT count(*) AS n FROM price_paid');
    if (total === 0) throw new Error('price_paid is empty');
    const ids = await count(conn, `SELECT count(*) AS n FROM ${ID_TABLE}`);
    if (ids !== total) throw new Error(`${ids} rows in ${ID_TABLE}, ${total} in price_paid`);
    // A sample query the handlers rely on: a postcode lookup finds its own row again.
    const row = await queryOne<{ postcode: string; id: string }>(conn, 'SELECT postcode, id::VARCHAR AS id FROM price_paid WHERE postcode IS NOT NULL LIMIT 1');
    if (row) {
      const n = await count(conn, 'SELECT count(*) AS n FROM price_paid WHERE postcode = ? AND id = CAST(? AS UUID)', [row.postcode, row.id]);
      if (n < 1) throw new Error('sample postcode lookup found nothing');
    }
    const bad = await count(
      conn,
      `SELECT count(*) AS n FROM price_paid WHERE property_type NOT IN ('D','S','T','F','O') OR ppd_category NOT IN ('A','B')`,
    );
    if (bad > 0) throw new Error(`${bad} rows with out-of-range codes`);
  },
};

export default pricePaid;
export { pricePaid };
