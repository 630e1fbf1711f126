/**
 * `companies`: Companies House's monthly "Free Company Data Product" (BasicCompanyData), the live register.
 *
 * Upstream: https://download.companieshouse.gov.uk/en_output.html links `BasicCompanyDataAsOneFile-YYYY-MM-01.zip`
 * (one CSV) and `BasicCompanyData-YYYY-MM-01-partN_M.zip` (M = 7 lately). Discovery takes the newest month
 * the page lists (this month's file is often not out on the 1st, so the previous month's is used), the
 * one-file zip when listed, else every part. `--from` takes a zip or CSV, a folder of parts or a URL
 * prefix listing them.
 *
 * Format (docs/companies.md "BasicCompanyData"): 55 columns, unquoted header with leading spaces in 14
 * names, every value quoted, DD/MM/YYYY dates, company numbers with letters and leading zeros (read with
 * explicit all-VARCHAR columns so no sniffer makes them integers), `"NNNNN - Description"` SIC fields
 * (also SIC 2003 4-digit codes and "None Supplied"); `Returns.*` are frozen legacy dates (ConfStmt* used).
 *
 * Tables: `companies` (typed, sorted on company_number for lookups) and `departed` (companies that were in
 * an earlier synced snapshot and are not in this one, carried from sync to sync; they come back out when
 * they reappear).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne } from '../../../mirror/db.js';
import { NAME_INDEX, NAME_INDEX_COLUMNS, NAME_INDEX_SELECT, normNameSql, sqlLiteral, statusSql, typeSql } from '../register-values.js';
import { count, csvHeader, quoteIdent, snapshotDataset, storeStructuralRejects, MAX_STORED_REJECTS } from '../../../../sync/common.js';
import { dataFiles, isZipFile, listZip } from '../../../../sync/formats/zip.js';
import { noLineBreak, refuseOpenQuote, refuseOpenQuoteInRejects, type NoBreakFormat } from '../../../../sync/open-quote.js';
import { STAGE_DB, withStaging } from '../../../../sync/staging.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { COMPANIES_INFO } from '../datasets.js';
import { pickSnapshotFiles } from './snapshot.js';

export const DEFAULT_BASE_URL = 'https://download.companieshouse.gov.uk';
const PAGE = 'en_output.html';

/** The 55 columns of BasicCompanyData, header names trimmed. */
export const CSV_COLUMNS = [
  'CompanyName', 'CompanyNumber', 'RegAddress.CareOf', 'RegAddress.POBox', 'RegAddress.AddressLine1', 'RegAddress.AddressLine2',
  'RegAddress.PostTown', 'RegAddress.County', 'RegAddress.Country', 'RegAddress.PostCode', 'CompanyCategory', 'CompanyStatus',
  'CountryOfOrigin', 'DissolutionDate', 'IncorporationDate', 'Accounts.AccountRefDay', 'Accounts.AccountRefMonth',
  'Accounts.NextDueDate', 'Accounts.LastMadeUpDate', 'Accounts.AccountCategory', 'Returns.NextDueDate', 'Returns.LastMadeUpDate',
  'Mortgages.NumMortCharges', 'Mortgages.NumMortOutstanding', 'Mortgages.NumMortPartSatisfied', 'Mortgages.NumMortSatisfied',
  'SICCode.SicText_1', 'SICCode.SicText_2', 'SICCode.SicText_3', 'SICCode.SicText_4', 'LimitedPartnerships.NumGenPartners',
  'LimitedPartnerships.NumLimPartners', 'URI',
  ...Array.from({ length: 10 }, (_, i) => [`PreviousName_${i + 1}.CONDATE`, `PreviousName_${i + 1}.CompanyName`]).flat(),
  'ConfStmtNextDueDate', 'ConfStmtLastMadeUpDate',
] as const;

/** File names: one-file zip, part zips, and their CSV members. */
export const FILE_RE = /^BasicCompanyData(AsOneFile)?-(\d{4}-\d{2}-\d{2})(-part(\d+)_(\d+))?\.(zip|csv)$/i;

function snapshotDate(name: string): string | undefined {
  return FILE_RE.exec(name)?.[2];
}

const col = (c: string) => quoteIdent(c);
const text = (c: string) => `nullif(trim(${col(c)}), '')`;
const date = (c: string) => `try_strptime(nullif(trim(${col(c)}), ''), '%d/%m/%Y')::DATE`;
const int = (c: string) => `try_cast(nullif(trim(${col(c)}), '') AS INTEGER)`;
const sicTexts = [1, 2, 3, 4].map((i) => text(`SICCode.SicText_${i}`));

/** Postcode upper case with one space before the inward code when it is a well-formed full postcode. */
const POSTCODE = `(CASE WHEN regexp_full_match(_pc, '[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}') THEN substr(_pc, 1, length(_pc) - 3) || ' ' || right(_pc, 3)
  ELSE nullif(upper(trim(regexp_replace(${col('RegAddress.PostCode')}, '\\s+', ' ', 'g'))), '') END)`;

/** Typed columns of the `companies` table from one CSV (alias `_pc` = the compact postcode). */
function typedSelect(): string {
  return `
    trim(${col('CompanyNumber')}) AS company_number,
    trim(${col('CompanyName')}) AS company_name,
    ${normNameSql(`${col('CompanyName')}`)} AS name_norm,
    ${text('CompanyStatus')} AS status_text,
    ${statusSql(col('CompanyStatus'))} AS company_status,
    ${text('CompanyCategory')} AS category_text,
    ${typeSql(col('CompanyCategory'))} AS company_type,
    ${text('CountryOfOrigin')} AS country_of_origin,
    ${date('IncorporationDate')} AS incorporation_date,
    ${date('DissolutionDate')} AS dissolution_date,
    ${text('RegAddress.CareOf')} AS care_of,
    ${text('RegAddress.POBox')} AS po_box,
    ${text('RegAddress.AddressLine1')} AS address_line_1,
    ${text('RegAddress.AddressLine2')} AS address_line_2,
    ${text('RegAddress.PostTown')} AS post_town,
    ${text('RegAddress.County')} AS county,
    ${text('RegAddress.Country')} AS country,
    ${POSTCODE} AS postcode,
    list_filter([${sicTexts.map((t) => `regexp_extract(${t}, '^([0-9]{4,5}) - ', 1)`).join(', ')}], x -> x IS NOT NULL AND x <> '') AS sic_codes,
    list_filter([${sicTexts.join(', ')}], x -> x IS NOT NULL) AS sic_texts,
    ${int('Accounts.AccountRefDay')} AS account_ref_day,
    ${int('Accounts.AccountRefMonth')} AS account_ref_month,
    ${date('Accounts.NextDueDate')} AS accounts_next_due,
    ${date('Accounts.LastMadeUpDate')} AS accounts_last_made_up_to,
    ${text('Accounts.AccountCategory')} AS accounts_category,
    ${date('ConfStmtNextDueDate')} AS confirmation_next_due,
    ${date('ConfStmtLastMadeUpDate')} AS confirmation_last_made_up_to,
    ${int('Mortgages.NumMortCharges')} AS mortgage_charges,
    ${int('Mortgages.NumMortOutstanding')} AS mortgages_outstanding`;
}

/** read_csv of one BasicCompanyData CSV with explicit all-VARCHAR columns (no sniffing). */
function readCsv(): string {
  const columns = `{${CSV_COLUMNS.map((c) => `'${c}': 'VARCHAR'`).join(', ')}}`;
  return `read_csv(?, header = true, columns = ${columns}, delim = ',', quote = '"', escape = '"', auto_detect = false,
    strict_mode = false, null_padding = false, store_rejects = true, max_line_size = 1048576)`;
}

/**
 * A BasicCompanyData row is one line (no field of the real excerpts spans lines; docs/mirror.md): a field
 * with a line break is a quote never closed that took in the lines after it (sync/open-quote.ts). No check
 * of the load reads every field (dates and counts that do not parse are NULL, not rejects), so all 55 are
 * looked at. `_break` holds the row's fields only for such a row, in the SELECT that reads the file; the
 * load refuses the file when one is set, then drops the column.
 */
const BREAK_COLUMN = '_break';
const BREAK = `CASE WHEN NOT ${noLineBreak(CSV_COLUMNS.map(col))} THEN concat_ws(',', ${CSV_COLUMNS.map(col).join(', ')}) END AS ${BREAK_COLUMN}`;
const CH_CSV: NoBreakFormat = { what: 'BasicCompanyData CSV', why: 'BasicCompanyData files have one company a line' };

/** Refuse the file just read into `table` when a structural reject or a row holds a line break. */
async function openQuote(conn: DuckDBConnection, table: string, name: string): Promise<void> {
  await refuseOpenQuoteInRejects(conn, CH_CSV);
  await refuseOpenQuote(conn, `SELECT ? AS file, ${BREAK_COLUMN} AS text FROM ${table} WHERE ${BREAK_COLUMN} IS NOT NULL`, CH_CSV, [name]);
}

/** Check a CSV's header against the 55 expected names (trimmed); throws naming the first difference. */
export function checkHeader(path: string, name: string): void {
  const got = csvHeader(path);
  for (let i = 0; i < CSV_COLUMNS.length; i++) {
    if (got[i] !== CSV_COLUMNS[i]) {
      throw new Error(
        `${name} is not a BasicCompanyData CSV: column ${i + 1} is '${got[i] ?? '(missing)'}', expected '${CSV_COLUMNS[i]}'`,
      );
    }
  }
  if (got.length !== CSV_COLUMNS.length) throw new Error(`${name} has ${got.length} columns, expected ${CSV_COLUMNS.length}`);
}

/**
 * The staged rows, in the load's staging database (sync/staging.ts: a scratch file, not a TEMP table held
 * uncompressed in memory beside the sort that follows; docs/performance.md, "Staging in a scratch file").
 */
const STAGE = `${STAGE_DB}._companies_stage`;

/** How many CSVs the downloaded files hold (zips are counted from their central directory). */
async function countCsvs(files: LoadContext['files']): Promise<number> {
  let n = 0;
  for (const f of files) n += isZipFile(f.path) ? (await listZip(f.path)).filter((m) => /\.csv$/i.test(m.name)).length : 1;
  return n;
}

async function loadCompanies(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  const workDir = ctx.workDir ?? `${ctx.files[0]!.path}.extract`;
  let structural = 0;
  let first = true;
  // One CSV (the one-file zip): read, type and sort in one statement. Parts: typed into a staging table, then sorted.
  const single = (await countCsvs(ctx.files)) === 1;
  const isCsv = (m: { name: string }) => /\.csv$/i.test(m.name);
  const names: string[] = [];
  let t = Date.now();
  for await (const f of dataFiles(ctx.files, workDir, isCsv)) {
    checkHeader(f.path, f.name);
    names.push(f.name);
    const select = `SELECT ${typedSelect()}, ${BREAK}
      FROM (SELECT *, upper(regexp_replace(${col('RegAddress.PostCode')}, '\\s', '', 'g')) AS _pc FROM ${readCsv()})`;
    if (single) await conn.run(`CREATE TABLE companies AS ${select} ORDER BY company_number`, [f.path]);
    else await conn.run(first ? `CREATE TABLE ${STAGE} AS ${select}` : `INSERT INTO ${STAGE} ${select}`, [f.path]);
    first = false;
    // earlier files were checked: a row with a break is this file's
    await openQuote(conn, single ? 'companies' : STAGE, f.name);
    structural += await storeStructuralRejects(conn);
    const n = await count(conn, `SELECT count(*) AS n FROM ${single ? 'companies' : STAGE}`);
    ctx.progress(n);
    ctx.log?.(`${f.name}: read${single ? ', typed and sorted' : ' and typed'} in ${((Date.now() - t) / 1000).toFixed(1)} s (${n} rows so far)`);
    t = Date.now();
  }
  if (first) throw new Error('no BasicCompanyData CSV found in the downloaded files');
  if (!single) {
    await conn.run(`CREATE TABLE companies AS SELECT * EXCLUDE (${BREAK_COLUMN}) FROM ${STAGE} ORDER BY company_number`);
    await conn.run(`DROP TABLE ${STAGE}`);
    ctx.log?.(`sorted on company number in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else await conn.run(`ALTER TABLE companies DROP COLUMN ${BREAK_COLUMN}`);
  const file = names.join(' ');

  // Rows without a company number or name cannot be served: rejects (raw = number and name only).
  const bad = `company_number IS NULL OR company_number = '' OR company_name IS NULL OR company_name = ''`;
  const typedRejects = await count(conn, `SELECT count(*) AS n FROM companies WHERE ${bad}`);
  if (typedRejects) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason) SELECT ?, NULL, concat_ws(',', company_number, company_name), 'no company number or name' FROM companies WHERE ${bad} LIMIT ${MAX_STORED_REJECTS}`,
      [file],
    );
    await conn.run(`DELETE FROM companies WHERE ${bad}`);
  }
  // Duplicated numbers (the same company in two parts; not seen upstream): keep one row, the others are rejects.
  const duplicates = (await orderCheck(conn)).duplicates;
  if (duplicates) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason)
       SELECT ?, NULL, concat_ws(',', company_number, company_name), 'duplicate company number' FROM companies
       QUALIFY row_number() OVER (PARTITION BY company_number ORDER BY company_name) > 1 LIMIT ${MAX_STORED_REJECTS}`,
      [file],
    );
    await conn.run(`CREATE TABLE _companies_dedup AS SELECT * FROM companies QUALIFY row_number() OVER (PARTITION BY company_number ORDER BY company_name) = 1 ORDER BY company_number`);
    await conn.run('DROP TABLE companies');
    await conn.run('ALTER TABLE _companies_dedup RENAME TO companies');
    ctx.log?.(`${duplicates} duplicate company numbers dropped`);
  }
  t = Date.now();
  await buildNameIndex(conn);
  ctx.log?.(`name search index built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const rows = await count(conn, 'SELECT count(*) AS n FROM companies');
  const asOf = ctx.files.map((f) => f.published ?? snapshotDate(f.name)).filter((d): d is string => !!d).sort().pop();
  await buildDeparted(conn, ctx, asOf);
  ctx.progress(rows);
  return { rows, rejected: structural + typedRejects + duplicates, mode: 'full', ...(asOf ? { asOf } : {}) };
}

/**
 * The name search index (read by src/domains/companies/search.ts): one row per distinct word of each
 * company's normalised name, sorted on the word, carrying the normalised name and the columns of a search
 * answer. Sorted, the row groups' min/max word (zonemaps) let a word or word-prefix lookup read only the
 * few row groups that hold it, and the matches of a search lie together instead of being spread over the
 * whole register (docs/companies.md "Search index").
 */
async function buildNameIndex(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE TABLE ${NAME_INDEX} AS SELECT word, ${NAME_INDEX_COLUMNS}
     FROM (SELECT unnest(list_distinct(string_split(name_norm, ' '))) AS word, ${NAME_INDEX_SELECT} FROM companies)
     ORDER BY word`,
  );
}

/**
 * Duplicated and out-of-order company numbers of `companies`, which the load sorts on the number: each row
 * is compared with the next by position (a streaming scan; a count(DISTINCT) hashed all 5.7M numbers, ~4x
 * the CPU). In a sorted table every duplicate is next to its twin.
 */
async function orderCheck(conn: DuckDBConnection): Promise<{ duplicates: number; unsorted: number }> {
  const r = await queryOne<{ duplicates: number; unsorted: number }>(
    conn,
    `SELECT count(*) FILTER (WHERE a = b) AS duplicates, count(*) FILTER (WHERE a > b) AS unsorted
     FROM (SELECT company_number AS a FROM companies) POSITIONAL JOIN (SELECT company_number AS b FROM companies OFFSET 1)`,
  );
  return { duplicates: Number(r?.duplicates ?? 0), unsorted: Number(r?.unsorted ?? 0) };
}

/** Columns kept for a company that left the register (what a later lookup can still say). */
const DEPARTED_COLUMNS = `company_number, company_name, name_norm, status_text, company_status AS last_status, category_text, company_type,
  country_of_origin, incorporation_date, dissolution_date, address_line_1, post_town, country, postcode, sic_codes, sic_texts,
  accounts_next_due, accounts_last_made_up_to, confirmation_next_due`;

/**
 * `departed`: companies in the previous synced snapshot that are not in this one (last_seen = the previous
 * snapshot date, gone_by = this one), plus those departed earlier that are still absent.
 */
async function buildDeparted(conn: DuckDBConnection, ctx: LoadContext, asOf: string | undefined): Promise<void> {
  await conn.run(
    `CREATE TABLE departed AS SELECT ${DEPARTED_COLUMNS}, NULL::DATE AS last_seen, NULL::DATE AS gone_by FROM companies WHERE false`,
  );
  if (!ctx.previousPath) return;
  await conn.run(`ATTACH ${sqlLiteral(ctx.previousPath)} AS prev (READ_ONLY)`);
  try {
    const hasTable = async (t: string) =>
      (await count(conn, `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'prev' AND table_name = ?`, [t])) > 0;
    if (!(await hasTable('companies'))) return;
    const prevAsOf = (await queryOne<{ d: string | null }>(conn, 'SELECT max(as_of)::VARCHAR AS d FROM prev.sync_log'))?.d ?? null;
    if (prevAsOf && asOf && prevAsOf >= asOf) {
      ctx.log?.(`the previous data is of ${prevAsOf}, not older than ${asOf}: departed companies not recomputed`);
    }
    if (await hasTable('departed')) {
      await conn.run(`INSERT INTO departed SELECT d.* FROM prev.departed d ANTI JOIN companies c USING (company_number)`);
    }
    await conn.run(
      `INSERT INTO departed
       SELECT ${DEPARTED_COLUMNS.replace(/\b(company_number|company_name|name_norm|status_text|company_status|category_text|company_type|country_of_origin|incorporation_date|dissolution_date|address_line_1|post_town|country|postcode|sic_codes|sic_texts|accounts_next_due|accounts_last_made_up_to|confirmation_next_due)\b/g, 'p.$1')},
         CAST(? AS DATE), CAST(? AS DATE)
       FROM prev.companies p ANTI JOIN companies c USING (company_number)
       ANTI JOIN departed d USING (company_number)`,
      [prevAsOf, asOf ?? null],
    );
    const n = await count(conn, 'SELECT count(*) AS n FROM departed WHERE gone_by IS NOT DISTINCT FROM CAST(? AS DATE)', [asOf ?? null]);
    ctx.log?.(`${n} companies left the register since the previous snapshot`);
  } finally {
    await conn.run('DETACH prev');
  }
  await conn.run('CREATE TABLE _departed_sorted AS SELECT * FROM departed ORDER BY company_number');
  await conn.run('DROP TABLE departed');
  await conn.run('ALTER TABLE _departed_sorted RENAME TO departed');
}

/** The files of one snapshot on the download page: the one-file zip when listed, else all parts (not dated after this month). */
export function pickSnapshot(links: Map<string, string>, now: Date): UpstreamFile[] | string {
  return pickSnapshotFiles(
    links,
    (name) => {
      const m = FILE_RE.exec(name);
      if (!m || m[6]!.toLowerCase() !== 'zip') return undefined;
      if (m[1]) return { date: m[2]!, one: true };
      return m[3] ? { date: m[2]!, part: { k: Number(m[4]), n: Number(m[5]) } } : undefined;
    },
    { what: 'BasicCompanyData', notAfter: `${now.toISOString().slice(0, 7)}-31` },
  );
}

const companies: DatasetModule = {
  ...snapshotDataset({
    info: COMPANIES_INFO,
    baseUrl: DEFAULT_BASE_URL,
    page: PAGE,
    pageTitle: 'Companies House download page',
    fileRe: FILE_RE,
    snapshotDate,
    pick: (links, now) => pickSnapshot(links, now),
    fromHint: 'BasicCompanyDataAsOneFile-YYYY-MM-01.zip, a folder of the part files, or a URL',
  }),
  rejectThreshold: 0.001,
  tables: ['companies'],

  load: (ctx) => withStaging(ctx, 'companies', () => loadCompanies(ctx)),

  async verify(conn: DuckDBConnection): Promise<void> {
    const total = await count(conn, 'SELECT count(*) AS n FROM companies');
    if (total === 0) throw new Error('companies is empty');
    // Unique and sorted on the number (lookups rely on the order: one row group per number).
    const { duplicates, unsorted } = await orderCheck(conn);
    if (duplicates) throw new Error(`${duplicates} duplicate company numbers`);
    if (unsorted) throw new Error(`companies is not sorted on company_number (${unsorted} rows out of order)`);
    // Numbers stay 8-character strings (a sniffer would have made 00445790 the integer 445790).
    const short = await count(conn, 'SELECT count(*) AS n FROM companies WHERE length(company_number) <> 8');
    if (short > total * 0.001) throw new Error(`${short} company numbers are not 8 characters`);
  },
};

export default companies;
export { companies };
