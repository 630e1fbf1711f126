/**
 * `publicdata sync hpi`: HM Land Registry's UK House Price Index full file
 * (https://publicdata.landregistry.gov.uk/market-trend-data/house-price-index-data/UK-HPI-full-file-YYYY-MM.csv)
 * into hpi.duckdb, table `hpi` (one row per area and month, sorted by region_code, date).
 *
 * Discovery: the publisher's monthly download page
 * https://www.gov.uk/government/statistical-data-sets/uk-house-price-index-data-downloads-<month>-<year>
 * is tried for the current month and the eleven before it (newest first); the newest
 * `UK-HPI-full-file-YYYY-MM.csv` link on the first page that answers wins. `--from FILE_OR_URL` skips discovery.
 *
 * Format quirks handled: `Date` is DD/MM/YYYY in the publisher's file (ISO YYYY-MM-DD accepted too); numbers
 * are integers or decimals, and re-serialised copies write floats with ".0" (e.g. SalesVolume "305.0"), so every
 * numeric column is read as text and TRY_CAST to DOUBLE (volumes rounded to integers); blank cells are NULL.
 * A row whose date or area code does not parse, or whose non-blank number does not parse, is rejected.
 * A row with a line break in any column is rejected too, and the file refused (below).
 */
import { basename } from 'node:path';
import { queryOne } from '../../../mirror/db.js';
import { catalogFields, csvHeader, discoverFromPages, quoteIdent } from '../../../../sync/common.js';
import { noLineBreak, refuseOpenQuote, type NoBreakFormat } from '../../../../sync/open-quote.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { HPI_INFO } from '../datasets.js';


/** The publisher's 54 columns, in file order, with the table column each goes to. */
export const HPI_CSV_COLUMNS: ReadonlyArray<readonly [csv: string, column: string, kind: 'date' | 'text' | 'number' | 'volume']> = [
  ['Date', 'date', 'date'],
  ['RegionName', 'region_name', 'text'],
  ['AreaCode', 'region_code', 'text'],
  ['AveragePrice', 'average_price', 'number'],
  ['Index', 'index_value', 'number'],
  ['IndexSA', 'index_sa', 'number'],
  ['1m%Change', 'monthly_change', 'number'],
  ['12m%Change', 'annual_change', 'number'],
  ['AveragePriceSA', 'average_price_sa', 'number'],
  ['SalesVolume', 'sales_volume', 'volume'],
  ...segment('Detached', 'detached', false),
  ...segment('SemiDetached', 'semi_detached', false),
  ...segment('Terraced', 'terraced', false),
  ...segment('Flat', 'flat', false),
  ...segment('Cash', 'cash', true),
  ...segment('Mortgage', 'mortgage', true),
  ...segment('FTB', 'ftb', false),
  ...segment('FOO', 'foo', false),
  ...segment('New', 'new_build', true),
  ...segment('Old', 'old', true),
];

function segment(csv: string, col: string, volume: boolean): Array<readonly [string, string, 'number' | 'volume']> {
  const out: Array<readonly [string, string, 'number' | 'volume']> = [
    [`${csv}Price`, `${col}_price`, 'number'],
    [`${csv}Index`, `${col}_index`, 'number'],
    [`${csv}1m%Change`, `${col}_monthly_change`, 'number'],
    [`${csv}12m%Change`, `${col}_annual_change`, 'number'],
  ];
  if (volume) out.push([`${csv}SalesVolume`, `${col}_sales_volume`, 'volume']);
  return out;
}

/** SQL expression turning the raw text of one CSV column into its table value. */
function expr(csv: string, kind: 'date' | 'text' | 'number' | 'volume'): string {
  const c = `nullif(trim(${quoteIdent(csv)}), '')`;
  switch (kind) {
    case 'date':
      // DD/MM/YYYY (publisher) or YYYY-MM-DD; always the first of the month
      return `date_trunc('month', coalesce(try_strptime(${c}, '%d/%m/%Y'), try_strptime(${c}, '%Y-%m-%d')))::DATE`;
    case 'text':
      return c;
    case 'number':
      return `TRY_CAST(${c} AS DOUBLE)`;
    case 'volume':
      return `CAST(round(TRY_CAST(${c} AS DOUBLE)) AS BIGINT)`;
  }
}

const TABLE_DDL = `CREATE TABLE hpi (
  ${HPI_CSV_COLUMNS.map(([, col, kind]) =>
    `${col} ${kind === 'date' ? 'DATE NOT NULL' : kind === 'text' ? 'VARCHAR NOT NULL' : kind === 'volume' ? 'BIGINT' : 'DOUBLE'}`,
  ).join(',\n  ')}
)`;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** The gov.uk download page of a data month, e.g. .../uk-house-price-index-data-downloads-september-2025. */
export function indexPageUrl(base: string, year: number, month: number): string {
  return `${base.replace(/\/+$/, '')}/government/statistical-data-sets/uk-house-price-index-data-downloads-${MONTHS[month - 1]}-${year}`;
}

const FULL_FILE_RE = /UK-HPI-full-file-(\d{4})-(\d{2})\.csv/;

/** Every `UK-HPI-full-file-YYYY-MM.csv` link (href) of an HTML page, resolved against the page URL, newest first. */
export function fullFileLinks(html: string, pageUrl: string): Array<{ url: string; month: string }> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    const f = FULL_FILE_RE.exec(href);
    if (!f) continue;
    let url: string;
    try {
      url = new URL(href, pageUrl).toString();
    } catch {
      continue;
    }
    const month = `${f[1]}-${f[2]}`;
    if (!out.has(month)) out.set(month, url);
  }
  return [...out.entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([month, url]) => ({ url, month }));
}

export function checkHeader(path: string): void {
  const header = csvHeader(path);
  const expected = HPI_CSV_COLUMNS.map(([csv]) => csv);
  const missing = expected.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new Error(`UK HPI file ${basename(path)}: header lacks ${missing.join(', ')} (the publisher may have changed the layout)`);
  }
  if (header.length !== expected.length || header.some((h, i) => h !== expected[i])) {
    throw new Error(`UK HPI file ${basename(path)}: expected the 54 publisher columns in order; got ${header.length} columns`);
  }
}

/**
 * A UK HPI file has one area and month a line (no field of the real excerpt spans lines): a field with a
 * line break is a quote never closed that took in the lines after it (sync/open-quote.ts). Every column
 * fails `NO_BREAK` then (a number or date parse alone is not enough: DuckDB reads `'5\n'` as 5). A
 * rejected row holding a break refuses the file.
 */
const NO_BREAK = noLineBreak(HPI_CSV_COLUMNS.map(([csv]) => quoteIdent(csv)));
const HPI_CSV: NoBreakFormat = { what: 'UK HPI CSV', why: 'UK HPI files have one area and month a line' };

/** A raw row of `hpi_raw r` as one text, its fields joined by commas. */
const RAW_LINE = `concat_ws(',', ${HPI_CSV_COLUMNS.map(([csv]) => `coalesce(r.${quoteIdent(csv)}, '')`).join(', ')})`;

const hpi: DatasetModule = {
  ...catalogFields(HPI_INFO),
  defaultBaseUrl: 'https://www.gov.uk',
  tables: ['hpi'],
  rejectThreshold: 0.01,

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const now = ctx.now();
    const pages: string[] = [];
    for (let back = 0; back < 12; back++) {
      const idx = now.getUTCFullYear() * 12 + now.getUTCMonth() - back;
      pages.push(indexPageUrl(ctx.baseUrl, Math.floor(idx / 12), (idx % 12) + 1));
    }
    return discoverFromPages(
      ctx,
      pages,
      (html, page) => {
        const newest = fullFileLinks(html, page)[0];
        return newest ? { url: newest.url, name: `UK-HPI-full-file-${newest.month}.csv`, kind: 'full' } : 'no UK-HPI-full-file-YYYY-MM.csv link';
      },
      { what: 'the UK HPI full file (tried the last 12 monthly pages)', dataset: 'hpi' },
    );
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const file = ctx.files[0];
    if (!file) throw new Error('hpi: no file downloaded');
    checkHeader(file.path);
    const conn = ctx.conn;
    const columns = `{${HPI_CSV_COLUMNS.map(([csv]) => `'${csv.replace(/'/g, "''")}': 'VARCHAR'`).join(', ')}}`;
    await conn.run(
      `CREATE TEMP TABLE hpi_raw AS SELECT row_number() OVER () + 1 AS line, * FROM read_csv(?, header = true, columns = ${columns}, quote = '"', escape = '"', ` +
        `strict_mode = false, null_padding = true)`,
      [file.path],
    );
    const select = HPI_CSV_COLUMNS.map(([csv, col, kind]) => `${expr(csv, kind)} AS ${col}`).join(',\n  ');
    await conn.run(`CREATE TEMP TABLE hpi_typed AS SELECT\n  line,\n  ${select},\n  ${rawOk()} AS ok FROM hpi_raw`);
    await refuseOpenQuote(conn, `SELECT ? AS file, ${RAW_LINE} AS text FROM hpi_raw r JOIN hpi_typed t USING (line) WHERE NOT t.ok`, HPI_CSV, [file.name]);
    await conn.run(TABLE_DDL);
    await conn.run(
      `INSERT INTO hpi SELECT ${HPI_CSV_COLUMNS.map(([, col]) => col).join(', ')} FROM hpi_typed WHERE ok ORDER BY region_code, date`,
    );
    const counts = (await queryOne<{ good: number; bad: number; as_of: string | null }>(
      conn,
      `SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad,
              strftime(max(date) FILTER (WHERE ok), '%Y-%m-%d') AS as_of FROM hpi_typed`,
    ))!;
    if (counts.bad > 0) {
      await conn.run(
        `INSERT INTO rejects SELECT ?, r.line, ${RAW_LINE}, 'unparseable date, area code or number'
         FROM hpi_raw r JOIN hpi_typed t USING (line) WHERE NOT t.ok ORDER BY r.line LIMIT 1000`,
        [file.name],
      );
    }
    await conn.run('DROP TABLE hpi_typed');
    await conn.run('DROP TABLE hpi_raw');
    ctx.progress(counts.good);
    return { rows: counts.good, rejected: counts.bad, mode: 'full', ...(counts.as_of ? { asOf: counts.as_of } : {}) };
  },

  async verify(conn): Promise<void> {
    const r = (await queryOne<{ n: number; no_price: number }>(
      conn,
      'SELECT count(*) AS n, count(*) FILTER (WHERE average_price IS NULL) AS no_price FROM hpi',
    ))!;
    if (r.n === 0) throw new Error('hpi: the file held no usable rows');
    if (r.no_price > r.n / 2) throw new Error('hpi: most rows lack AveragePrice; refusing to replace the data');
  },
};

/** A row is usable when date and area code parse, every non-blank number parses and no text holds a line break. */
function rawOk(): string {
  const checks = HPI_CSV_COLUMNS.map(([csv, , kind]) => {
    const c = `nullif(trim(${quoteIdent(csv)}), '')`;
    if (kind === 'date') return `${expr(csv, kind)} IS NOT NULL`;
    if (kind === 'text') return `${c} IS NOT NULL`;
    return `(${c} IS NULL OR TRY_CAST(${c} AS DOUBLE) IS NOT NULL)`;
  });
  return `(${[...checks, NO_BREAK].join(' AND ')})`;
}

export default hpi;
export { hpi };
