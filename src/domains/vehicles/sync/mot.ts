/**
 * `publicdata sync mot`: DVSA anonymised MOT test results and test (failure) items into mot.duckdb.
 *
 * Upstream (https://www.data.gov.uk/dataset/e3939ef8-30c7-4ca8-9c7c-ad9475cc9b2f/anonymised_mot_test, files on
 * DVSA's open data bucket): per test year a results zip and an items zip, plus lookup.zip. Names by year:
 * `dft_test_result_extracts_2025.zip` / `dft_test_item_extracts_2025.zip` (2025: zip64, stored members
 * `dft_test_result_extracts_2025/dft_test_result_extract_2025MM.csv`), `dft_test_result_2023.zip` (one member,
 * Deflate64 in 2022/2023), `MOT+testing+data+results+(2024).zip`, `test_result_2017.txt.gz` (2005-2017).
 * `--years 2024-2025` picks years (default: the newest year the index page lists); `--from` takes the zips,
 * their extracted members (`*result*`, `*item*`, `item_detail.csv`, `item_group.csv`), a folder or a URL prefix.
 *
 * Layouts (detected from each member's header): pipe-delimited (2005-2017, 2022, 2023, lookups) or comma; 14
 * result columns, or 15 with `completed_date` (2024/2025 extracts, whose embedded quotes are escaped with a
 * backslash: read with quote '"' and escape '\'); items with `location_id` or `mot_test_rfr_location_type_id`.
 * Embedded duplicate header rows (2024) are skipped; `__MACOSX/` members are junk. Deflate64 members fail with
 * the shared zip reader's message (unzip with 7-Zip and pass the member with --from).
 *
 * Tables (vehicle_id is read past and never stored; there are no registrations or VINs in the data):
 *   mot_tests        one row per test with result P, F or PRS: test_id, test_date, test_year, test_class,
 *                    test_type (label), result (label), mileage (NULL for 0/blank), postcode_area, make, model,
 *                    colour, fuel_type (label), cylinder_capacity_cc, first_use_date (NULL for 1971-01-01/blank);
 *                    sorted by test_year, make, model, test_date, test_id
 *   mot_pass_rates   normal tests (NT) per test_year, make, model, fuel_type, first_use_year_band,
 *                    vehicle_age_band: tests, passes (P + PRS)
 *   mot_failures     items ⨝ tests ⨝ item_detail per test_year, make, model, rfr_type, defect_category,
 *                    defect_description, dangerous: failures (item rows), affected_tests (distinct tests)
 *   mot_item_detail, mot_item_group, mot_defect_categories   the lookups (and each item's top-level group)
 *   mot_years        per test year: tests, excluded outcomes, items, coverage dates
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { ageBandSql, caseMap, firstUseBandSql, motCodes } from '../mot-codes.js';
import { query, queryOne } from '../../../mirror/db.js';
import { catalogFields, count, firstLine, MAX_STORED_REJECTS, quoteIdent, storeStructuralRejects } from '../../../../sync/common.js';
import { extractMembers, isZipFile } from '../../../../sync/formats/zip.js';
import { noLineBreak, refuseOpenQuote, refuseOpenQuoteInRejects, type NoBreakFormat } from '../../../../sync/open-quote.js';
import { STAGE_DB, withStaging } from '../../../../sync/staging.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { MOT_INFO } from '../datasets.js';
import { keepPreviousLookups, mergePreviousYears, setAsidePrevious } from './mot-merge.js';

export const INDEX_PATH = '/mot-anonymised/';
const DEFAULT_BASE_URL = 'https://open.data.dvsa.gov.uk';
export const resultsZip = (y: number) => `dft_test_result_extracts_${y}.zip`;
export const itemsZip = (y: number) => `dft_test_item_extracts_${y}.zip`;
export const LOOKUP_ZIP = 'lookup.zip';

export type MotFileKind = 'results' | 'items' | 'lookup' | 'item_detail' | 'item_group' | 'other';

/** What a publisher's file or member name holds, and the test year in the name when there is one. */
export function classifyMotFile(name: string): { kind: MotFileKind; year?: number } {
  const n = basename(name).toLowerCase().replace(/\+/g, ' ');
  const y = /(?:^|[^0-9])(20[0-9]{2})/.exec(n);
  const year = y ? Number(y[1]) : undefined;
  const withYear = <T extends object>(o: T) => ({ ...o, ...(year ? { year } : {}) });
  if (/^lookup.*\.zip$/.test(n)) return { kind: 'lookup' };
  if (n.startsWith('item_detail')) return { kind: 'item_detail' };
  if (n.startsWith('item_group')) return { kind: 'item_group' };
  if (n.startsWith('mdr_')) return { kind: 'other' };
  if (/result/.test(n) && /\.(zip|csv|txt|gz)$/.test(n)) return withYear({ kind: 'results' as const });
  if (/item/.test(n) && /\.(zip|csv|txt|gz)$/.test(n)) return withYear({ kind: 'items' as const });
  return { kind: 'other' };
}

const FROM_NAMES = /^(lookup.*\.zip|item_detail.*|item_group.*|.*(test_result|test_item|results|failure.item).*\.(zip|csv|txt|gz))$/i;

/** Result and item files linked from an index page (HTML links or an S3 listing), by year. */
export function motLinks(text: string, pageUrl: string): { years: Map<number, { results?: string; items?: string }>; lookup?: string } {
  // per year and publication: DVSA's current `dft_test_<kind>_extracts_<year>.zip`, or any older naming
  // (2024 is published twice: `MOT+testing+data+results+(2024).zip` and the extracts)
  const found = new Map<number, Record<'extracts' | 'older', { results?: string; items?: string }>>();
  let lookup: string | undefined;
  const candidates = [
    ...[...text.matchAll(/href\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!),
    ...[...text.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!),
  ];
  for (const raw of candidates) {
    const href = raw.replace(/&amp;/g, '&');
    let url: string;
    try {
      url = new URL(href, pageUrl).toString();
    } catch {
      continue;
    }
    const name = decodeURIComponent(basename(new URL(url).pathname));
    const c = classifyMotFile(name);
    if (c.kind === 'lookup') lookup ??= url;
    if ((c.kind === 'results' || c.kind === 'items') && c.year && /\.(zip|gz)$/i.test(name)) {
      const byPub = found.get(c.year) ?? { extracts: {}, older: {} };
      byPub[/_extracts_\d{4}\.zip$/i.test(name) ? 'extracts' : 'older'][c.kind] ??= url;
      found.set(c.year, byPub);
    }
  }
  // Results and items of one publication, never one of each: the extracts when they have results (the
  // newer publication), else the older one.
  const years = new Map<number, { results?: string; items?: string }>();
  for (const [y, p] of found) years.set(y, p.extracts.results ? p.extracts : p.older.results ? p.older : p.extracts);
  return { years, ...(lookup ? { lookup } : {}) };
}

const mot: DatasetModule = {
  ...catalogFields(MOT_INFO),
  defaultBaseUrl: DEFAULT_BASE_URL,
  tables: ['mot_tests'],
  fromNames: FROM_NAMES,
  // `--from` MOT files add their years to the years there (--replace replaces)
  fromAdds: (name: string) => classifyMotFile(name).kind !== 'other',
  rejectThreshold: 0.001,
  // The items ⨝ tests aggregate of a whole year needs to spill: half the RAM, 1 to 3 GB.
  memoryLimit: 'auto',

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const page = `${ctx.baseUrl}${INDEX_PATH}`;
    const want = ctx.options.years;
    let reason: string;
    try {
      const found = motLinks(await ctx.fetchText(page), page);
      const listed = [...found.years.keys()].filter((y) => found.years.get(y)!.results).sort((a, b) => a - b);
      const years = want ? listed.filter((y) => y >= want.from && y <= want.to) : listed.slice(-1);
      if (years.length && found.lookup) {
        const files: UpstreamFile[] = [{ url: found.lookup, name: LOOKUP_ZIP, kind: 'full' }];
        for (const y of years) {
          const e = found.years.get(y)!;
          files.push({ url: e.results!, name: decodeURIComponent(basename(new URL(e.results!).pathname)), kind: 'full' });
          if (e.items) files.push({ url: e.items, name: decodeURIComponent(basename(new URL(e.items).pathname)), kind: 'full' });
        }
        return files;
      }
      reason = !found.lookup
        ? 'no lookup.zip link'
        : want
          ? `no results file for ${want.from}-${want.to} (listed: ${listed.join(', ') || 'none'})`
          : 'no results file links';
    } catch (e) {
      reason = (e as Error).message;
    }
    if (ctx.baseUrl.replace(/\/+$/, '') !== DEFAULT_BASE_URL) {
      // A mirror or --from prefix serving the publisher's names.
      const last = ctx.now().getUTCFullYear() - 1;
      const years = want ? range(want.from, want.to) : [last];
      return [
        { url: `${ctx.baseUrl}/${LOOKUP_ZIP}`, name: LOOKUP_ZIP, kind: 'full' },
        ...years.flatMap((y) => [
          { url: `${ctx.baseUrl}/${resultsZip(y)}`, name: resultsZip(y), kind: 'full' as const },
          { url: `${ctx.baseUrl}/${itemsZip(y)}`, name: itemsZip(y), kind: 'full' as const },
        ]),
      ];
    }
    throw new Error(
      `Could not find the MOT files on ${page} (${reason}). Use 'publicdata sync mot --from <dft_test_result_extracts_YYYY.zip>' ` +
        `with --from for the items zip and lookup.zip too (or a folder holding them).`,
    );
  },

  // the results and items are staged in the load's staging database (sync/staging.ts), not TEMP tables
  load: (ctx: LoadContext) => withStaging(ctx, 'mot', () => loadMot(ctx)),

  async verify(conn): Promise<void> {
    const n = await count(conn, 'SELECT count(*) AS n FROM mot_tests');
    if (n === 0) throw new Error('mot: the files held no test results');
    const p = await count(conn, 'SELECT count(*) AS n FROM mot_pass_rates');
    if (p === 0) throw new Error('mot: no normal tests to compute pass rates from');
    const cols = await query<{ column_name: string }>(conn, "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND column_name ILIKE '%vehicle_id%'");
    if (cols.length) throw new Error('mot: a vehicle_id column was stored');
  },
};

async function loadMot(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  const byKind = (k: MotFileKind) => ctx.files.filter((f) => classifyMotFile(f.name).kind === k);
  const other = ctx.files.filter((f) => classifyMotFile(f.name).kind === 'other');
  if (other.length) throw new Error(`not MOT data file names: ${other.map((f) => f.name).join(', ')} (keep the publisher's names)`);
  const resultFiles = byKind('results');
  const itemFiles = byKind('items');
  if (!resultFiles.length) throw new Error('no test results file (dft_test_result_extracts_YYYY.zip or its members)');
  const work = mkdtempSync(join(tmpdir(), 'publicdata-mot-'));
  // `--from` files added to the years there (mot-merge.ts): the previous tables are set aside
  const adding = ctx.mode === 'incremental';
  try {
    if (adding) await setAsidePrevious(conn);
    await conn.run(STAGE_DDL);
    await conn.run(ITEMS_DDL);
    // 1. lookups
    await loadLookups(ctx, work);
    if (adding) await keepPreviousLookups(conn);
    const haveLookups = (await count(conn, 'SELECT count(*) AS n FROM mot_item_detail')) > 0;
    if (itemFiles.length && !haveLookups) {
      throw new Error('the test items need the lookup files to be described: add lookup.zip (or item_detail.csv and item_group.csv) with --from');
    }
    // 2. results, member by member
    let structural = 0;
    for (const f of resultFiles) {
      for await (const m of members(f, work)) {
        const r = await loadResults(ctx, m.path, m.name);
        structural += r.structural;
        ctx.progress(await count(conn, `SELECT count(*) AS n FROM ${STAGE}`));
      }
    }
    // 3. items
    for (const f of itemFiles) {
      for await (const m of members(f, work)) {
        const r = await loadItems(ctx, m.path, m.name);
        structural += r.structural;
      }
    }
    // 4. typed, sorted table; rejects
    const rejected = structural + (await finish(ctx));
    const rows = await count(conn, 'SELECT count(*) AS n FROM mot_tests');
    // 5. aggregates
    await aggregate(ctx);
    const kept = adding ? await mergePreviousYears(conn) : [];
    const a = await queryOne<{ d: string | null }>(conn, "SELECT strftime(max(test_date), '%Y-%m-%d') AS d FROM mot_tests");
    const note = kept.length ? `kept the years already there: ${kept.join(', ')}` : undefined;
    return { rows, rejected, mode: adding ? 'incremental' : 'full', ...(a?.d ? { asOf: a.d } : {}), ...(note ? { note } : {}) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let y = a; y <= b; y++) out.push(y);
  return out;
}

/** A zip's CSV/TXT members one at a time (extracted into `work`, deleted when the next comes), or the file itself. */
async function* members(f: { path: string; name: string }, work: string): AsyncGenerator<{ path: string; name: string }> {
  if (isZipFile(f.path)) {
    for await (const m of extractMembers(f.path, work, { filter: (z) => /\.(csv|txt)$/i.test(z.name) })) yield { path: m.path, name: m.name };
  } else yield { path: f.path, name: f.name };
}

// ---------------------------------------------------------------------------------------------------
// Reading members

const RESULT_COLUMNS = [
  'test_id', 'test_date', 'test_class_id', 'test_type', 'test_result', 'test_mileage', 'postcode_area', 'make', 'model',
  'colour', 'fuel_type', 'cylinder_capacity', 'first_use_date',
] as const;

interface Layout {
  header: string[];
  delim: string;
  escape: string;
}

/** The first line of a plain or gzip (`.gz`, the 2005-2017 `test_result_YYYY.txt.gz`) file. */
async function headerLine(path: string): Promise<string> {
  if (!/\.gz$/i.test(path)) return firstLine(path);
  let text = '';
  const gunzip = createReadStream(path).pipe(createGunzip());
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.includes('\n') || text.length > 65536) break;
  }
  gunzip.destroy();
  return text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
}

/** Delimiter from the header line; backslash escapes in the comma extracts that carry `completed_date` (2024+). */
export async function layoutOf(path: string, name: string, need: readonly string[]): Promise<Layout> {
  const line = await headerLine(path);
  const delim = line.includes('|') ? '|' : ',';
  const header = line.split(delim).map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
  const missing = need.filter((c) => !header.includes(c));
  if (missing.length) throw new Error(`${name}: header lacks ${missing.join(', ')} (got ${header.join(delim)})`);
  const escape = delim === ',' && header.includes('completed_date') ? '\\' : '"';
  return { header, delim, escape };
}

function readCsv(l: Layout): string {
  const columns = `{${l.header.map((h) => `${lit(h)}: 'VARCHAR'`).join(', ')}}`;
  return `read_csv(?, header = true, auto_detect = false, columns = ${columns}, delim = ${lit(l.delim)}, quote = '"', escape = ${lit(l.escape)}, store_rejects = true, strict_mode = false, null_padding = true)`;
}
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The staged result and item rows: tables of the load's staging database (sync/staging.ts). */
const STAGE = `${STAGE_DB}.mot_stage`;
const ITEMS = `${STAGE_DB}.mot_items`;
const STAGE_DDL = `CREATE TABLE ${STAGE} (
  test_id BIGINT, test_date DATE, test_class VARCHAR, test_type VARCHAR, result VARCHAR, mileage INTEGER,
  postcode_area VARCHAR, make VARCHAR, model VARCHAR, colour VARCHAR, fuel_code VARCHAR, cylinder_capacity_cc INTEGER,
  first_use_date DATE, _reject VARCHAR, _raw VARCHAR, _file VARCHAR)`;
// _brk: the raw line of an item row with a line break in a field (NULL for every other row; loadItems)
const ITEMS_DDL = `CREATE TABLE ${ITEMS} (test_id BIGINT, rfr_id INTEGER, rfr_type VARCHAR, dangerous_mark VARCHAR, _brk VARCHAR)`;

/**
 * The MOT files have one test (or item) a line, every field an id, date, number or code (no field of the
 * real excerpts spans lines; docs/mirror.md): a field with a line break is a quote never closed that took in
 * the lines after it (sync/open-quote.ts). Any column, test_id and test_date too (a number or date with a
 * line break after it still parses, and test_date is read by its first 10 characters).
 */
const MOT_CSV: NoBreakFormat = { what: 'DVSA MOT file', why: 'the MOT files have one test or item a line' };
const BREAK_REASON = 'a line break in a field (a quote never closed)';

/** SQL: the raw row of a layout, its fields joined by its delimiter (the text of a row with a line break). */
const rawLine = (l: Layout) => `concat_ws(${lit(l.delim)}, ${l.header.map((h) => `coalesce(${quoteIdent(h)}, '')`).join(', ')})`;

async function loadResults(ctx: LoadContext, path: string, name: string): Promise<{ structural: number }> {
  const { conn } = ctx;
  const l = await layoutOf(path, name, RESULT_COLUMNS);
  const c = (col: string) => `nullif(trim(${quoteIdent(col)}), '')`;
  const unknownFirstUse = motCodes().unknown_first_use_date;
  const before = await count(conn, `SELECT count(*) AS n FROM ${STAGE}`);
  // a row with a line break in any field is rejected with its whole raw line (`_brk`, computed in the SELECT
  // that reads the file), and refuses the file below
  await conn.run(
    `INSERT INTO ${STAGE}
     SELECT test_id, test_date, test_class, test_type, result, mileage, postcode_area, make, model, colour, fuel_code, cc, first_use,
       CASE WHEN _brk IS NOT NULL THEN ${lit(BREAK_REASON)} WHEN test_id IS NULL THEN 'invalid test_id' WHEN test_date IS NULL THEN 'invalid test_date' END AS _reject,
       CASE WHEN _brk IS NOT NULL THEN _brk WHEN test_id IS NULL OR test_date IS NULL THEN concat_ws('|', r_id, r_date, result, make, model) END AS _raw,
       CASE WHEN _brk IS NOT NULL OR test_id IS NULL OR test_date IS NULL THEN ? END AS _file
     FROM (
       SELECT TRY_CAST(${c('test_id')} AS BIGINT) AS test_id, TRY_CAST(left(${c('test_date')}, 10) AS DATE) AS test_date,
         ${c('test_class_id')} AS test_class, upper(${c('test_type')}) AS test_type, upper(${c('test_result')}) AS result,
         CASE WHEN TRY_CAST(${c('test_mileage')} AS INTEGER) > 0 THEN TRY_CAST(${c('test_mileage')} AS INTEGER) END AS mileage,
         upper(${c('postcode_area')}) AS postcode_area, upper(${c('make')}) AS make, upper(${c('model')}) AS model,
         upper(${c('colour')}) AS colour, upper(${c('fuel_type')}) AS fuel_code,
         CASE WHEN TRY_CAST(${c('cylinder_capacity')} AS INTEGER) > 0 THEN TRY_CAST(${c('cylinder_capacity')} AS INTEGER) END AS cc,
         CASE WHEN left(${c('first_use_date')}, 10) = ${lit(unknownFirstUse)} THEN NULL ELSE TRY_CAST(left(${c('first_use_date')}, 10) AS DATE) END AS first_use,
         test_id AS r_id, test_date AS r_date,
         CASE WHEN NOT ${noLineBreak(l.header.map(quoteIdent))} THEN ${rawLine(l)} END AS _brk
       FROM ${readCsv(l)}
       WHERE test_id IS DISTINCT FROM 'test_id'
     )`,
    [name, path],
  );
  await refuseOpenQuote(conn, `SELECT _file AS file, _raw AS text FROM ${STAGE} WHERE _reject = ?`, MOT_CSV, [BREAK_REASON]);
  await refuseOpenQuoteInRejects(conn, MOT_CSV);
  const structural = await storeStructuralRejects(conn);
  ctx.log?.(`${name}: ${(await count(conn, `SELECT count(*) AS n FROM ${STAGE}`)) - before} result rows (${l.delim === '|' ? 'pipe' : 'comma'}, ${l.header.length} columns)`);
  return { structural };
}

async function loadItems(ctx: LoadContext, path: string, name: string): Promise<{ structural: number }> {
  const { conn } = ctx;
  const l = await layoutOf(path, name, ['test_id', 'rfr_id', 'rfr_type_code']);
  const c = (col: string) => (l.header.includes(col) ? `nullif(trim(${quoteIdent(col)}), '')` : 'NULL');
  const before = await count(conn, `SELECT count(*) AS n FROM ${ITEMS}`);
  // Items have no row check (one whose test is not loaded joins nothing), so a quote left open would drop
  // the items it took in with no reject at all: a row with a line break keeps its raw line in `_brk` and
  // refuses the file (ids and codes only: a break cannot be the publisher's).
  await conn.run(
    `INSERT INTO ${ITEMS}
     SELECT TRY_CAST(${c('test_id')} AS BIGINT), TRY_CAST(${c('rfr_id')} AS INTEGER), upper(${c('rfr_type_code')}), upper(${c('dangerous_mark')}),
       CASE WHEN NOT ${noLineBreak(l.header.map(quoteIdent))} THEN ${rawLine(l)} END
     FROM ${readCsv(l)} WHERE test_id IS DISTINCT FROM 'test_id'`,
    [path],
  );
  await refuseOpenQuote(conn, `SELECT ? AS file, _brk AS text FROM ${ITEMS} WHERE _brk IS NOT NULL`, MOT_CSV, [name]);
  await refuseOpenQuoteInRejects(conn, MOT_CSV);
  const structural = await storeStructuralRejects(conn);
  ctx.log?.(`${name}: ${(await count(conn, `SELECT count(*) AS n FROM ${ITEMS}`)) - before} item rows`);
  return { structural };
}

// ---------------------------------------------------------------------------------------------------
// Lookups

async function loadLookups(ctx: LoadContext, work: string): Promise<void> {
  const { conn } = ctx;
  await conn.run(`CREATE TABLE mot_item_detail (rfr_id INTEGER, test_class_id VARCHAR, test_item_id INTEGER, minor_item VARCHAR,
    rfr_deficiency_category VARCHAR, rfr_desc VARCHAR, rfr_loc_marker VARCHAR, rfr_insp_manual_desc VARCHAR, rfr_advisory_text VARCHAR,
    test_item_set_section_id INTEGER)`);
  await conn.run(`CREATE TABLE mot_item_group (test_item_id INTEGER, test_class_id VARCHAR, parent_id INTEGER,
    test_item_set_section_id INTEGER, item_name VARCHAR)`);
  const files: Array<{ path: string; name: string }> = [];
  const lookupDir = join(work, 'lookup');
  for (const f of ctx.files) {
    const k = classifyMotFile(f.name).kind;
    if (k === 'item_detail' || k === 'item_group') files.push(f);
    if (k === 'lookup') {
      for await (const m of extractMembers(f.path, lookupDir, { keep: true, filter: (z) => /^(item_detail|item_group)/i.test(basename(z.name)) })) {
        files.push({ path: m.path, name: basename(m.name) });
      }
    }
  }
  for (const f of files) {
    const detail = classifyMotFile(f.name).kind === 'item_detail';
    const need = detail ? ['rfr_id', 'test_class_id', 'test_item_id', 'rfr_deficiency_category', 'rfr_desc'] : ['test_item_id', 'test_class_id', 'parent_id', 'item_name'];
    const l = await layoutOf(f.path, f.name, need);
    const v = (col: string) => (l.header.includes(col) ? `nullif(trim(${quoteIdent(col)}), '')` : 'NULL');
    if (detail) {
      await conn.run(
        `INSERT INTO mot_item_detail SELECT TRY_CAST(${v('rfr_id')} AS INTEGER), ${v('test_class_id')}, TRY_CAST(${v('test_item_id')} AS INTEGER),
           ${v('minor_item')}, ${v('rfr_deficiency_category')}, ${v('rfr_desc')}, ${v('rfr_loc_marker')}, ${v('rfr_insp_manual_desc')},
           ${v('rfr_advisory_text')}, TRY_CAST(${v('test_item_set_section_id')} AS INTEGER)
         FROM ${readCsv(l)} WHERE rfr_id IS DISTINCT FROM 'rfr_id'`,
        [f.path],
      );
    } else {
      await conn.run(
        `INSERT INTO mot_item_group SELECT TRY_CAST(${v('test_item_id')} AS INTEGER), ${v('test_class_id')}, TRY_CAST(${v('parent_id')} AS INTEGER),
           TRY_CAST(${v('test_item_set_section_id')} AS INTEGER), ${v('item_name')}
         FROM ${readCsv(l)} WHERE test_item_id IS DISTINCT FROM 'test_item_id'`,
        [f.path],
      );
    }
    await storeStructuralRejects(conn);
  }
  // Each item's top-level group (the ancestor just below the root, whose parent is 0): the defect category.
  await conn.run(`CREATE TABLE mot_defect_categories AS
    WITH RECURSIVE g AS (SELECT DISTINCT ON (test_item_id, test_class_id) * FROM mot_item_group ORDER BY test_item_id, test_class_id),
    chain AS (
      SELECT test_item_id AS item_id, test_class_id, test_item_id, parent_id, item_name, 0 AS depth FROM g
      UNION ALL
      SELECT c.item_id, c.test_class_id, p.test_item_id, p.parent_id, p.item_name, c.depth + 1
      FROM chain c JOIN g p ON p.test_item_id = c.parent_id AND p.test_class_id = c.test_class_id
      WHERE c.parent_id <> 0 AND c.depth < 32
    )
    SELECT item_id AS test_item_id, test_class_id, arg_max(item_name, depth) AS defect_category
    FROM chain WHERE parent_id = 0 AND test_item_id <> 0 GROUP BY item_id, test_class_id`);
}

// ---------------------------------------------------------------------------------------------------
// Final tables

async function finish(ctx: LoadContext): Promise<number> {
  const { conn } = ctx;
  const codes = motCodes();
  const typed = await count(conn, `SELECT count(*) AS n FROM ${STAGE} WHERE _reject IS NOT NULL`);
  if (typed > 0) {
    await conn.run(`INSERT INTO rejects (file, line, raw, reason) SELECT _file, NULL, _raw, _reject FROM ${STAGE} WHERE _reject IS NOT NULL LIMIT ${MAX_STORED_REJECTS}`);
  }
  const known = Object.keys(codes.results.codes).map(lit).join(', ');
  await conn.run(`CREATE TABLE mot_tests AS
    SELECT test_id, test_date, CAST(year(test_date) AS SMALLINT) AS test_year, test_class,
      ${caseMap('test_type', codes.test_types.codes, 'lower(test_type)')} AS test_type,
      ${caseMap('result', codes.results.codes, 'NULL')} AS result,
      mileage, postcode_area, make, model, colour,
      ${caseMap('fuel_code', codes.fuel_types.codes, lit(codes.fuel_types.unknown))} AS fuel_type,
      cylinder_capacity_cc, first_use_date, test_type AS test_type_code -- the DVSA code (NT, RT, ...)
    FROM ${STAGE} WHERE _reject IS NULL AND result IN (${known})
    ORDER BY test_year, make, model, test_date, test_id`);
  await conn.run(`CREATE TABLE mot_years AS
    SELECT CAST(year(test_date) AS SMALLINT) AS test_year, count(*) FILTER (WHERE result IN (${known})) AS tests,
      count(*) FILTER (WHERE result NOT IN (${known}) OR result IS NULL) AS excluded_outcomes,
      min(test_date) AS first_test_date, max(test_date) AS last_test_date
    FROM ${STAGE} WHERE _reject IS NULL GROUP BY ALL ORDER BY test_year`);
  await conn.run(`DROP TABLE ${STAGE}`);
  return typed;
}

async function aggregate(ctx: LoadContext): Promise<void> {
  const { conn } = ctx;
  const codes = motCodes();
  let t = Date.now();
  await conn.run(`CREATE TABLE mot_pass_rates AS
    SELECT test_year, make, model, fuel_type, ${firstUseBandSql('first_use_date', 'test_date')} AS first_use_year_band,
      ${ageBandSql('first_use_date', 'test_date')} AS vehicle_age_band,
      count(*) AS tests, count(*) FILTER (WHERE result IN ('passed', 'pass_with_rectification')) AS passes
    FROM mot_tests WHERE test_type_code = 'NT'
    GROUP BY ALL ORDER BY test_year, make, model, fuel_type, first_use_year_band, vehicle_age_band`);
  ctx.log?.(`pass rates aggregated in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  t = Date.now();
  await conn.run(`CREATE TABLE mot_failures AS
    SELECT t.test_year, t.make, t.model,
      ${caseMap('i.rfr_type', codes.rfr_types.codes, lit(codes.rfr_types.unknown))} AS rfr_type,
      c.defect_category, d.rfr_desc AS defect_description,
      coalesce(d.rfr_deficiency_category = 'Dangerous', false) AS dangerous,
      count(*) AS failures, count(DISTINCT i.test_id) AS affected_tests
    FROM ${ITEMS} i
    JOIN mot_tests t ON t.test_id = i.test_id
    LEFT JOIN (SELECT DISTINCT ON (rfr_id, test_class_id) * FROM mot_item_detail ORDER BY rfr_id, test_class_id) d
      ON d.rfr_id = i.rfr_id AND d.test_class_id = t.test_class
    LEFT JOIN mot_defect_categories c ON c.test_item_id = d.test_item_id AND c.test_class_id = d.test_class_id
    GROUP BY ALL ORDER BY t.test_year, t.make, t.model, failures DESC, rfr_type, defect_description`);
  ctx.log?.(`failure reasons aggregated in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await conn.run('ALTER TABLE mot_years ADD COLUMN items BIGINT');
  await conn.run('UPDATE mot_years SET items = (SELECT coalesce(sum(failures), 0) FROM mot_failures f WHERE f.test_year = mot_years.test_year)');
  await conn.run(`DROP TABLE ${ITEMS}`);
}

export default mot;
export { mot };
