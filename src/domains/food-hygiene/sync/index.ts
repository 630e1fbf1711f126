/**
 * `publicdata sync food-hygiene [--authorities CODE,...] [--from FILE_OR_URL]`: the Food Standards
 * Agency's food hygiene ratings (FHRS: England, Wales, Northern Ireland; FHIS: Scotland) into
 * food_hygiene.duckdb, tables `establishments` (one row per establishment, sorted by grid cell: src/mirror/geo.ts gridCell),
 * `authorities` (one row per authority loaded: what the list said, what its file's header said, how many
 * establishments the mirror holds from it), `listed_authorities` (every authority of the list, loaded or
 * not: an answer about one not loaded names the sync that loads it) and `scope` (the `--authorities` of
 * the sync).
 *
 * Discovery: the FSA API's authorities list, `GET https://api.ratings.food.gov.uk/Authorities` with
 * `x-api-version: 2` (each authority's FileName, EstablishmentCount and LastPublishedDate). The list is the
 * one file the framework downloads; the per-authority XML files are fetched here by a small pool
 * (sync-files.ts). A later sync is incremental: the framework hands over a copy of the live file, and only
 * the files whose LastPublishedDate changed are fetched, replacing that authority's rows; an authority no
 * longer listed (or outside `--authorities`) is removed. An unchanged list is "up to date".
 * `--from` takes FHRS{code}en-GB.xml files or a folder of them (a full load of exactly those), the
 * authorities list JSON, or a URL prefix serving `Authorities`.
 *
 * A file that is not well-formed XML, or cannot be downloaded, is a reject naming its authority (in
 * `rejects`), never the end of the sync: its previous rows, if any, stay, with their previous list date,
 * so the next sync tries it again. The sync fails (keeping the previous data) only when the rejected
 * establishments are more than half of those held plus rejected (REJECTED_SHARE).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { query, queryOne } from '../../../mirror/db.js';
import { catalogFields } from '../../../../sync/common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { FOOD_HYGIENE_INFO } from '../datasets.js';
import { COLUMNS } from './normalise.js';
import { ParseSlots } from './parse-slots.js';
import { codeOfFileName, fetchAndStage, FILE_NAME_RE, type FileFailure, type FileSuccess, type PlannedFile } from './sync-files.js';

const LIST_NAME = 'authorities.json';
/** The sync fails (keeping the previous data) when rejects are more than this share of the establishments held plus rejected. */
export const REJECTED_SHARE = 0.5;
const API_HEADERS = { 'x-api-version': '2', accept: 'application/json' };

/** `scope.authorities`: '*' for every listed authority, else the sorted codes. */
export function scopeOf(codes: readonly string[] | undefined): string {
  return codes?.length ? [...new Set(codes.map((c) => String(Number(c))))].sort((a, b) => Number(a) - Number(b)).join(',') : '*';
}

interface ListedAuthority {
  LocalAuthorityIdCode?: string | number;
  Name?: string;
  RegionName?: string;
  FileName?: string;
  EstablishmentCount?: number;
  LastPublishedDate?: string;
  SchemeType?: number;
}

/**
 * The direct form of an authority file's URL: the list's `FileName` (`…/OpenDataFiles/FHRS314en-GB.xml`) goes
 * through a redirect the FSA rate-limits; `…/api/open-data-files/FHRS314en-GB.xml` is served directly
 * (docs/food-hygiene.md). Other URLs are kept as they are.
 */
export function directFileUrl(url: string): string {
  const u = new URL(url);
  const m = /^(.*\/)OpenDataFiles\/([^/]+)$/i.exec(u.pathname);
  if (!m) return url;
  u.pathname = `${m[1]}api/open-data-files/${m[2]}`;
  return u.toString();
}

/** A file URL's last path segment, %-decoded (as a file given beside the list is named). */
function fileNameOf(url: string): string {
  const name = basename(new URL(url).pathname);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The path of a file: URL, or undefined for one that names no local file (file://host/…). */
function localFile(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

/** What a list's FileNames resolve against: the list's URL, or a list given as a local file (`--from`) its file URL. */
function baseOf(listUrl: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(listUrl) ? listUrl : pathToFileURL(listUrl).href;
}

/** The authorities list (API v2 JSON) as planned files, narrowed to `selected`; unknown codes are an error. */
export function planFromList(text: string, listUrl: string, selected: readonly string[] | undefined): PlannedFile[] {
  return narrow(listedFiles(text, listUrl), selected, 'the authorities list');
}

/** Every authority of the list (API v2 JSON) as a planned file. */
function listedFiles(text: string, listUrl: string): PlannedFile[] {
  let doc: { authorities?: ListedAuthority[] };
  try {
    doc = JSON.parse(text) as { authorities?: ListedAuthority[] };
  } catch (e) {
    throw new Error(`the authorities list is not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(doc?.authorities)) throw new Error('the authorities list has no "authorities" array');
  const plans: PlannedFile[] = [];
  for (const a of doc.authorities) {
    const code = a.LocalAuthorityIdCode === undefined ? '' : String(a.LocalAuthorityIdCode).trim();
    if (!/^\d{1,4}$/.test(code) || typeof a.FileName !== 'string' || !a.FileName) {
      throw new Error(`the authorities list has an entry without a code or FileName: ${JSON.stringify(a).slice(0, 200)}`);
    }
    const url = directFileUrl(new URL(a.FileName, baseOf(listUrl)).toString());
    plans.push({
      code: String(Number(code)),
      name: a.Name ?? null,
      region: a.RegionName ?? null,
      scheme: a.SchemeType === 2 ? 'fhis' : a.SchemeType === 1 ? 'fhrs' : null,
      url,
      fileName: fileNameOf(url),
      lastPublished: typeof a.LastPublishedDate === 'string' ? a.LastPublishedDate : null,
      listedCount: typeof a.EstablishmentCount === 'number' ? a.EstablishmentCount : null,
    });
  }
  return plans;
}

function narrow(plans: PlannedFile[], selected: readonly string[] | undefined, where: string): PlannedFile[] {
  if (!selected?.length) return plans;
  const want = new Set(selected.map((c) => String(Number(c))));
  const unknown = [...want].filter((c) => !plans.some((p) => p.code === c));
  if (unknown.length) throw new Error(`--authorities: ${unknown.join(', ')} not in ${where} (codes such as 314 for Waverley; see 'publicdata food-hygiene authorities')`);
  return plans.filter((p) => want.has(p.code));
}

/** `--from` XML files as planned files (authority code from the file name). */
function planFromFiles(files: LoadContext['files'], selected: readonly string[] | undefined): PlannedFile[] {
  const plans = files.map((f): PlannedFile => {
    const code = codeOfFileName(f.name);
    if (!code) throw new Error(`${f.name} is not named like an FSA authority file (FHRS314en-GB.xml)`);
    return { code: String(Number(code)), name: null, region: null, scheme: null, url: f.url, fileName: f.name, lastPublished: f.published ?? null, listedCount: null, localPath: f.path };
  });
  return narrow(plans, selected, 'the --from files');
}

interface PreviousAuthority {
  code: string;
  last_published: string | null;
}

const AUTHORITIES_DDL = `CREATE TABLE IF NOT EXISTS authorities (
  code VARCHAR PRIMARY KEY, name VARCHAR, region VARCHAR, scheme VARCHAR, file_url VARCHAR, file_name VARCHAR,
  last_published VARCHAR, listed_count INTEGER, extract_date DATE, item_count INTEGER, establishments INTEGER,
  sha256 VARCHAR, bytes BIGINT)`;

/** Every authority of the FSA's list the sync read (its code, name, region and file), loaded or not. */
const LISTED_DDL = 'CREATE TABLE IF NOT EXISTS listed_authorities (code VARCHAR PRIMARY KEY, name VARCHAR, region VARCHAR, file_name VARCHAR)';

/** One authority's row of `authorities` (AUTHORITIES_DDL's columns but `establishments`, set after the build). */
function authorityRow(r: FileSuccess): unknown[] {
  const p = r.plan;
  const itemCount = r.header.itemCount && /^\d+$/.test(r.header.itemCount.trim()) ? Number(r.header.itemCount) : null;
  const extract = r.header.extractDate && /^\d{4}-\d{2}-\d{2}/.test(r.header.extractDate) ? r.header.extractDate.slice(0, 10) : null;
  return [p.code, p.name ?? r.fileName, p.region, r.fileScheme ?? p.scheme, p.url, p.fileName, p.lastPublished, p.listedCount, extract, itemCount, r.sha256 || null, r.bytes];
}

/**
 * `INSERT INTO table VALUES (...), (...)` of `rows` (each `placeholders` long), 100 rows a statement:
 * one statement per row was 1.3 s of a 400-file sync (800 statements for `authorities` alone).
 */
async function insertRows(conn: DuckDBConnection, table: string, placeholders: string, rows: readonly unknown[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    await conn.run(`INSERT INTO ${table} VALUES ${chunk.map(() => placeholders).join(', ')}`, chunk.flat() as DuckDBValue[]);
  }
}

async function storeRejects(ctx: LoadContext, ok: FileSuccess[], failed: FileFailure[]): Promise<number> {
  let n = 0;
  for (const f of failed) {
    const who = `authority ${f.plan.code}${f.plan.name ? ` (${f.plan.name})` : ''}`;
    await ctx.conn.run('INSERT INTO rejects VALUES (?, ?, ?, ?)', [f.plan.fileName, f.line, who, `${who}: ${f.reason}; its previous rows, if any, are kept`]);
    ctx.log?.(`rejected ${f.plan.fileName}, ${who}: ${f.reason}`);
    n += f.weight;
  }
  for (const r of ok) {
    for (const x of r.rowRejects) {
      await ctx.conn.run('INSERT INTO rejects VALUES (?, NULL, ?, ?)', [r.plan.fileName, x.raw, `authority ${r.plan.code}, establishment ${x.index + 1}: ${x.reason}`]);
    }
    n += r.rowRejectCount;
    for (const [v, count] of r.unknownRatings) ctx.log?.(`${r.plan.fileName}: rating value '${v}' (${count}) is not one the FSA documents; kept as published`);
    if (r.header.itemCount && Number(r.header.itemCount) !== r.rows + r.rowRejectCount) {
      ctx.log?.(`${r.plan.fileName}: the header says ${r.header.itemCount} establishments, the file holds ${r.rows + r.rowRejectCount}`);
    }
  }
  return n;
}

const COLUMN_SPEC = `{${COLUMNS.map(([c, t]) => `'${c}': '${t}'`).join(', ')}}`;

/**
 * DuckDB's memory_limit for the load (issue 22, docs/food-hygiene.md "Peak memory"): a buffer pool this
 * small makes the sorted build spill to `<file>.tmp` instead of holding the whole table (DuckDB's default,
 * 80% of RAM, held ~450 MB at 500,000 establishments, ~150 MB at 125,000). 128 MB is enough for 2 to 4
 * threads; each thread pins its own sort and CSV blocks (8 threads ran out of memory at 128 MB and passed
 * at 192 MB), so 24 MB a thread above that, on DuckDB's default of one thread per core.
 */
export function buildMemoryLimit(threads = availableParallelism()): string {
  return `${Math.max(128, 24 * threads)}MB`;
}

/** read_csv's buffer: 8 MiB, not its default 16 x max_line_size (32 MiB, one block per thread out of the small pool above). */
const CSV_BUFFER = 8 * 1024 * 1024;

/**
 * `CREATE TABLE establishments` sorted by cell (NULL cells last), then fhrs_id, from the staged CSV and
 * (incremental) the kept previous rows. The previous rows come first in the UNION ALL: with the CSV first,
 * an incremental build at 128 MB ran out of memory at once (500,000 previous rows, two threads), table
 * first it passed, also with 500,000 new rows. Should DuckDB still run out of its memory_limit, the build
 * is tried once more with four times the limit (said in the log) rather than failing the sync.
 */
async function sortedBuild(conn: DuckDBConnection, staged: readonly string[], incremental: boolean, log?: (m: string) => void): Promise<void> {
  const read = `SELECT * FROM read_csv([${staged.map(() => '?').join(', ')}], columns = ${COLUMN_SPEC}, header = false, quote = '"', escape = '"', auto_detect = false, allow_quoted_nulls = false, buffer_size = ${CSV_BUFFER})`;
  const rows = incremental ? `SELECT * FROM establishments_prev WHERE source_code NOT IN (SELECT code FROM drop_codes) UNION ALL ${read}` : read;
  const sql = `CREATE TABLE establishments AS SELECT * FROM (${rows}) ORDER BY cell NULLS LAST, fhrs_id`;
  // freed memory goes back to the system as the sort moves on (settings of DuckDB's bundled allocator)
  for (const set of [`SET allocator_flush_threshold = '16MB'`, 'SET allocator_background_threads = true']) await conn.run(set).catch(() => undefined);
  // one thread for the sort: under the small memory_limit two threads took 3.0-4.9 s at 500,000 rows
  // (each sorting half the memory, more runs to merge) against 2.9-3.1 s for one, at the same peak RSS
  const threads = (await queryOne<{ t: number }>(conn, `SELECT current_setting('threads') AS t`))?.t;
  await conn.run('SET threads = 1');
  try {
    await build(conn, sql, staged, log);
  } finally {
    if (threads) await conn.run(`SET threads = ${Number(threads)}`);
  }
}

/** Run the sorted build; out of memory_limit, once more with 4x the limit (unless the limit is already that large). */
async function build(conn: DuckDBConnection, sql: string, staged: readonly string[], log?: (m: string) => void): Promise<void> {
  try {
    await conn.run(sql, [...staged]);
  } catch (e) {
    if (!/Out of Memory/i.test((e as Error).message)) throw e;
    const limit = (await queryOne<{ m: string }>(conn, `SELECT current_setting('memory_limit') AS m`))?.m ?? '';
    const more = `${4 * Number.parseInt(buildMemoryLimit(), 10)}MB`;
    if (mebibytes(limit) >= Number.parseInt(more, 10)) throw e; // a limit of the user's at least that large
    log?.(`DuckDB ran out of its memory_limit (${limit}) sorting the establishments; building again with ${more}`);
    await conn.run(`SET memory_limit = '${more}'`);
    await conn.run(sql, [...staged]);
  }
}

/** DuckDB's `current_setting('memory_limit')` ('122.0 MiB', '18.8 GiB') in MiB; NaN if not of that form. */
export function mebibytes(setting: string): number {
  const m = /^([\d.]+)\s*([KMGT])i?B$/i.exec(setting.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * { K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 }[m[2]!.toUpperCase() as 'K' | 'M' | 'G' | 'T'];
}

/**
 * Build `establishments` from the staged rows and (incremental) the previous rows of authorities not
 * replaced or removed, sorted by grid cell on disk, in one statement (under the module's memory_limit the
 * sort spills: memory bounded whatever the number of rows). An FHRSID twice (an establishment
 * listed by two authorities' files, rare) keeps the newly loaded copy, else the newer rating; the others
 * are deleted (the order of the rest stays) and go to `rejects`.
 */
async function buildTable(
  conn: DuckDBConnection, staged: readonly string[], incremental: boolean, fresh: readonly string[], drop: readonly string[], log?: (m: string) => void,
): Promise<number> {
  await conn.run('CREATE TEMP TABLE drop_codes (code VARCHAR)');
  await conn.run('CREATE TEMP TABLE fresh_codes (code VARCHAR)');
  await insertRows(conn, 'drop_codes', '(?)', drop.map((c) => [c]));
  await insertRows(conn, 'fresh_codes', '(?)', fresh.map((c) => [c]));
  if (incremental) await conn.run('ALTER TABLE establishments RENAME TO establishments_prev');
  await sortedBuild(conn, staged, incremental, log);
  if (incremental) await conn.run('DROP TABLE establishments_prev');
  const dups = (await queryOne<{ n: number }>(conn, 'SELECT count(*) - count(DISTINCT fhrs_id) AS n FROM establishments'))!.n;
  if (dups === 0) return 0;
  await conn.run(
    `CREATE TEMP TABLE dup_rows AS SELECT rowid AS rid, fhrs_id, source_code, row_number() OVER (
       PARTITION BY fhrs_id ORDER BY CASE WHEN source_code IN (SELECT code FROM fresh_codes) THEN 0 ELSE 1 END, rating_date DESC NULLS LAST, source_code) AS rn
     FROM establishments WHERE fhrs_id IN (SELECT fhrs_id FROM establishments GROUP BY fhrs_id HAVING count(*) > 1)`,
  );
  await conn.run(
    `INSERT INTO rejects SELECT 'authority ' || d.source_code, NULL, CAST(d.fhrs_id AS VARCHAR),
       'FHRSID ' || d.fhrs_id || ' is also in the file of authority ' || k.source_code || ', whose copy is kept'
     FROM dup_rows d JOIN dup_rows k ON k.fhrs_id = d.fhrs_id AND k.rn = 1 WHERE d.rn > 1`,
  );
  await conn.run('DELETE FROM establishments WHERE rowid IN (SELECT rid FROM dup_rows WHERE rn > 1)');
  await conn.run('DROP TABLE dup_rows');
  return dups;
}

/**
 * A full load's rejected authorities (`codes`) keep what the live file at `previousPath` held for them: its
 * establishments as the `establishments` table the build merges (as an incremental build merges the live
 * rows), and its `authorities` rows. Returns the codes whose rows were kept; none without a live file, or
 * when the live file is not of this layout (then the reject stands, as it says).
 */
async function keepRejected(conn: DuckDBConnection, previousPath: string | undefined, codes: readonly string[], log?: (m: string) => void): Promise<string[]> {
  if (!previousPath || !codes.length) return [];
  await conn.run(`ATTACH '${previousPath.replace(/'/g, "''")}' AS fh_prev (READ_ONLY)`);
  try {
    await conn.run('CREATE TEMP TABLE keep_codes (code VARCHAR)');
    await insertRows(conn, 'keep_codes', '(?)', codes.map((c) => [c]));
    const held = await query<{ code: string }>(conn, 'SELECT DISTINCT code FROM fh_prev.authorities WHERE code IN (SELECT code FROM keep_codes) ORDER BY code');
    if (!held.length) return [];
    await conn.run('CREATE TABLE establishments AS SELECT * FROM fh_prev.establishments WHERE source_code IN (SELECT code FROM keep_codes)');
    await conn.run('INSERT INTO authorities SELECT * FROM fh_prev.authorities WHERE code IN (SELECT code FROM keep_codes)');
    log?.(`kept the previous rows of ${held.length} authorit${held.length === 1 ? 'y' : 'ies'} whose file was rejected (${held.map((h) => h.code).join(', ')})`);
    return held.map((h) => h.code);
  } catch (e) {
    log?.(`the previous rows of the rejected authorities could not be kept (${(e as Error).message.split('\n')[0]})`);
    await conn.run('DROP TABLE IF EXISTS establishments');
    await conn.run('DELETE FROM authorities');
    return [];
  } finally {
    await conn.run('DROP TABLE IF EXISTS keep_codes');
    await conn.run('DETACH fh_prev');
  }
}

interface LoadPlan {
  /** The files this sync holds: every selected one. */
  plans: PlannedFile[];
  /** Those to fetch: every plan (full), or those whose list date changed (incremental). */
  fetch: PlannedFile[];
  /** Authorities held before and no longer listed (or outside --authorities). */
  removed: string[];
  /** Every authority of the FSA's list, selected or not (none when the sync had no list: XML files alone). */
  listed: PlannedFile[];
}

/** The plan of this sync: every selected file (full), or those whose list date changed (incremental). */
async function planLoad(ctx: LoadContext, incremental: boolean): Promise<LoadPlan> {
  const list = ctx.files.find((f) => f.name === LIST_NAME || f.name.toLowerCase().endsWith('.json'));
  const xml = ctx.files.filter((f) => FILE_NAME_RE.test(f.name));
  const selected = ctx.options.lists?.authorities;
  // a list given with --from: its files given beside it (same name) are read there, not downloaded. A
  // FileName naming a local file is read only from a list given as a local file, and only in that list's
  // folder; any other (a list from the network naming file:///dev/zero) is left to the downloader, which
  // refuses it: a reject naming the authority, no local read
  const given = new Map(xml.map((f) => [f.name, f]));
  const folder = list && !/^[a-z][a-z0-9+.-]*:\/\//i.test(list.url) ? dirname(resolve(list.path)) : undefined;
  const listed = (list ? listedFiles(readFileSync(list.path, 'utf8'), list.url) : []).map((p): PlannedFile => {
    const f = given.get(p.fileName);
    if (f) return { ...p, url: f.url, localPath: f.path };
    const local = folder !== undefined && p.url.startsWith('file:') ? localFile(p.url) : undefined;
    return local !== undefined && dirname(local) === folder ? { ...p, localPath: local } : p;
  });
  const plans = list ? narrow(listed, selected, 'the authorities list') : planFromFiles(xml, selected);
  if (!incremental) return { plans, fetch: plans, removed: [], listed };
  const prev = await query<PreviousAuthority & Record<string, unknown>>(ctx.conn, 'SELECT code, last_published FROM authorities');
  const before = new Map(prev.map((p) => [p.code, p.last_published]));
  const fetch = plans.filter((p) => !before.has(p.code) || before.get(p.code) !== p.lastPublished || p.lastPublished === null);
  const held = new Set(plans.map((p) => p.code));
  return { plans, fetch, removed: prev.map((p) => p.code).filter((c) => !held.has(c)), listed };
}

const foodHygiene: DatasetModule = {
  ...catalogFields(FOOD_HYGIENE_INFO),
  defaultBaseUrl: 'https://api.ratings.food.gov.uk',
  tables: ['establishments'],
  // an authority's file replaces its rows: it may not lose more than the threshold (sync/integrity.ts)
  units: { what: 'authority', counts: (db: string) => `SELECT source_code AS unit, count(*) AS n FROM ${db}establishments GROUP BY ALL` },
  // the share that fails a sync is checked in load, against the whole mirror (REJECTED_SHARE); a
  // file's rejected establishments are not rows of this sync's files alone
  rejectThreshold: 1,
  memoryLimit: buildMemoryLimit(),
  fromNames: /^(FHRS\d{1,4}(en|cy)-GB\.xml|authorities\.json)$/i,

  async readPrevious(conn): Promise<unknown> {
    return (await queryOne<{ authorities: string }>(conn, 'SELECT authorities FROM scope'))?.authorities;
  },

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const prevScope = ctx.previous?.module;
    const incremental = !!ctx.previous?.lastSync && !ctx.options.force && typeof prevScope === 'string';
    return [{
      url: `${ctx.baseUrl}/Authorities`, name: LIST_NAME, headers: API_HEADERS,
      kind: incremental ? 'update' : 'full',
      ...(prevScope !== scopeOf(ctx.options.lists?.authorities) ? { reload: true } : {}),
    }];
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const conn = ctx.conn;
    const incremental = ctx.mode === 'incremental';
    await conn.run(AUTHORITIES_DDL);
    const { plans, fetch, removed, listed } = await planLoad(ctx, incremental);
    // every authority the FSA lists, loaded or not: an answer about one not loaded says so and names the
    // sync that loads it, instead of 404 (shape.ts knownAuthority); empty when the sync had no list
    await conn.run(LISTED_DDL);
    await conn.run('DELETE FROM listed_authorities');
    await insertRows(conn, 'listed_authorities', '(?, ?, ?, ?)', listed.map((p) => [p.code, p.name, p.region, p.fileName]));
    ctx.log?.(`${plans.length} authorities; ${fetch.length} file${fetch.length === 1 ? '' : 's'} to fetch${removed.length ? `, ${removed.length} removed` : ''}`);
    const dir = ctx.workDir ? join(ctx.workDir, 'food-hygiene-xml') : join(tmpdir(), `publicdata-food-hygiene-${process.pid}`);
    // what a killed sync left (a staging CSV can be as big as the XML): the sync's lock says none is running
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const slots = new ParseSlots(join(dir, `staged-${process.pid}`), fetch.length, ctx.env);
    if (fetch.length) ctx.log?.(`parsing ${slots.workers ? `in ${slots.workers} worker thread${slots.workers === 1 ? '' : 's'}` : 'on the main thread'}`);
    try {
      const results = await fetchAndStage(fetch, { dir, slots, ...(ctx.sleep ? { sleep: ctx.sleep } : {}), ...(ctx.log ? { log: ctx.log } : {}), ...(ctx.status ? { status: ctx.status } : {}) });
      const ok = results.filter((r): r is FileSuccess => r.ok);
      const failed = results.filter((r): r is FileFailure => !r.ok);
      let rejected = await storeRejects(ctx, ok, failed);
      const drop = [...ok.map((r) => r.plan.code), ...removed];
      // a full load: a rejected file's authority keeps the rows the live file held for it (an incremental
      // load keeps them already: it starts from a copy of the live file and drops only what it replaces)
      const keptFrom = incremental ? [] : await keepRejected(conn, ctx.previousPath, failed.map((f) => f.plan.code), ctx.log);
      const dups = await buildTable(conn, slots.stagingPaths, incremental || keptFrom.length > 0, ok.map((r) => r.plan.code), drop, ctx.log);
      rejected += dups;
      await conn.run('DELETE FROM authorities WHERE code IN (SELECT code FROM drop_codes)');
      await insertRows(conn, 'authorities', '(?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS DATE), ?, 0, ?, ?)', ok.map(authorityRow));
      await conn.run(
        `UPDATE authorities SET establishments = coalesce((SELECT count(*) FROM establishments e WHERE e.source_code = authorities.code), 0)`,
      );
      await conn.run('CREATE OR REPLACE TABLE scope AS SELECT ? AS authorities', [scopeOf(ctx.options.lists?.authorities)]);
      const staged = ok.reduce((n, r) => n + r.rows, 0);
      const total = (await queryOne<{ n: number }>(conn, 'SELECT count(*) AS n FROM establishments'))!.n;
      if (rejected > 0 && rejected / (total + rejected) > REJECTED_SHARE) {
        throw new Error(
          `${failed.length} of ${fetch.length} authority files and ${rejected} establishments rejected against ${total} held (more than ${REJECTED_SHARE * 100}%): upstream looks broken`,
        );
      }
      const asOf = (await queryOne<{ d: string | null }>(conn, `SELECT strftime(max(extract_date), '%Y-%m-%d') AS d FROM authorities`))?.d;
      const note = failed.length
        ? `${failed.length} authority file${failed.length === 1 ? '' : 's'} rejected (${failed.slice(0, 5).map((f) => f.plan.fileName).join(', ')}${failed.length > 5 ? ', …' : ''}): ${
            keptFrom.length ? `the previous rows of ${keptFrom.length} of them kept` : 'no previous rows of them to keep'}`
        : undefined;
      return {
        rows: incremental ? staged - dups : total, rejected, mode: incremental ? 'incremental' : 'full',
        replaced: ok.map((r) => ({ unit: r.plan.code, file: r.plan.fileName })),
        badFiles: failed.map((f) => f.plan.fileName),
        ...(note ? { note } : {}),
        ...(asOf ? { asOf } : {}),
      };
    } finally {
      for (const p of slots.stagingPaths) rmSync(p, { force: true });
    }
  },

  async verify(conn): Promise<void> {
    const r = (await queryOne<{ n: number; ids: number; held: number; orphans: number }>(
      conn,
      `SELECT (SELECT count(*) FROM establishments) AS n, (SELECT count(DISTINCT fhrs_id) FROM establishments) AS ids,
              (SELECT coalesce(sum(establishments), 0) FROM authorities) AS held,
              (SELECT count(*) FROM establishments WHERE source_code NOT IN (SELECT code FROM authorities)) AS orphans`,
    ))!;
    if (r.n === 0) throw new Error('food-hygiene: no establishments were loaded');
    if (r.ids !== r.n) throw new Error(`food-hygiene: ${r.n - r.ids} FHRSIDs appear twice`);
    if (r.held !== r.n || r.orphans) throw new Error(`food-hygiene: the authorities hold ${r.held} establishments, the table ${r.n} (${r.orphans} without their authority)`);
  },
};

export default foodHygiene;
export { foodHygiene };
