/**
 * `publicdata sync crime [--months N] [--from FILE_OR_URL]`: data.police.uk's monthly archive into crime.duckdb.
 *
 * Upstream: https://data.police.uk/data/archive/latest.zip (or `<YYYY-MM>.zip` with --from), a rolling window
 * of months, each `YYYY-MM/YYYY-MM-<force>-street.csv`, `-outcomes.csv`, `-stop-and-search.csv` (not loaded).
 * The newest 12 months carried (`--months N`) are read straight from the zip with the project's zip reader
 * (sync/formats/zip.ts): one month's members are extracted at a time into the sync's scratch directory
 * (the next month's while DuckDB loads this one), read with read_csv into staging tables in a scratch
 * database file beside them (stage.duckdb, deleted when the load ends) and deleted; the archive is never
 * unpacked whole. A lone member CSV given with --from is read as it is.
 *
 * Tables (docs/crime.md):
 * - `street`: one row per row published (identical anti-social-behaviour rows are separate incidents, a
 *   repeated Crime ID is kept on each of its rows); category slug from data/crime/categories.json (a label
 *   the map does not know keeps its label with a null slug and is listed in `unmapped_categories`);
 *   coordinates as DOUBLE, null for "No Location"; empty Crime ID (ASB) null. Ordered by a spatial key
 *   (0.01-degree latitude band, then longitude), so a point-and-radius query, or an LSOA's query through its
 *   bounding box (`lsoa_bbox`), reads few row groups.
 * - `outcomes`: one row per outcome row (Month = month of the outcome), ordered by crime_id's first 8 characters.
 * - `loads` (month, force, source: the file each month of each force came from), `coverage` (month,
 *   street_rows, outcome_rows, sources), `forces`, `lsoa_bbox`, `categories`, `unmapped_categories`.
 * - `sync_changes_keys__street`: the months this sync loaded, for `mirror export --since` (`recordMonths`).
 *
 * Re-issued months: every archive re-issues its window with updated outcomes. What this sync loads replaces
 * the same month of the same force in the live file (street and outcomes rows); the live file's other months
 * and forces are kept (copied from it). An archive carries every force of its months, so it replaces whole
 * months; a lone member CSV given with --from replaces that force's month only. A failed or killed sync
 * leaves the live file answering (the framework's new-file-and-rename).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { recordChangedKeys } from '../../mirror/changes.js';
import { queryOne, query } from '../../mirror/db.js';
import { catalogFields, count, csvHeader, MAX_STORED_REJECTS, storeStructuralRejects } from '../../../sync/common.js';
import { extractMembers, isZipFile, listZip } from '../../../sync/formats/zip.js';
import { noLineBreak, refuseOpenQuote, refuseOpenQuoteInRejects, type NoBreakFormat } from '../../../sync/open-quote.js';
import { withStaging } from '../../../sync/staging.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../sync/types.js';
import {
  type CrimeMember, headerMatches, monthEnd, monthsCarried, newestMonths, OUTCOMES_COLUMNS, OUTCOMES_HEADER,
  parseMemberName, STREET_COLUMNS, STREET_HEADER,
} from './archive.js';
import { CRIME_INFO, CRIME_MONTHS } from './datasets.js';
import { monthRuns } from './months.js';
import { categoryMap, forceList } from './reference.js';

/** Without --months: the declared default (datasets.ts). */
export const DEFAULT_MONTHS = CRIME_MONTHS.default;

/** One month to load: its members and where they are (a zip, or lone CSV files). */
interface MonthPlan {
  month: string;
  source: string;
  zip?: string;
  members: CrimeMember[];
  /** Lone CSVs given with --from: member name -> local path. */
  paths: Map<string, string>;
}

/** Which months to load from which file: the newest N months carried; a later file wins a month. */
export async function planMonths(files: ReadonlyArray<{ path: string; name: string }>, months: number, forces?: readonly string[]): Promise<MonthPlan[]> {
  const byMonth = new Map<string, MonthPlan>();
  const wanted = forces ? new Set(forces) : undefined;
  const seen = new Set<string>();
  for (const f of files) {
    const zip = isZipFile(f.path);
    const all = zip
      ? (await listZip(f.path)).map((m) => parseMemberName(m.name)).filter((m): m is CrimeMember => !!m)
      : [parseMemberName(f.name)].filter((m): m is CrimeMember => !!m);
    for (const m of all) seen.add(m.force);
    const members = wanted ? all.filter((m) => wanted.has(m.force)) : all;
    if (!all.length) {
      throw new Error(`${f.name} holds no data.police.uk street or outcomes file (expected YYYY-MM/YYYY-MM-<force>-street.csv)`);
    }
    const fileMonths = new Map<string, CrimeMember[]>();
    for (const m of members) fileMonths.set(m.month, [...(fileMonths.get(m.month) ?? []), m]);
    for (const [month, ms] of fileMonths) {
      const prev = byMonth.get(month);
      // two lone CSVs of one month add up; a zip replaces what earlier files gave for its months
      if (!zip && prev && !prev.zip) {
        prev.members.push(...ms);
        for (const m of ms) prev.paths.set(m.name, f.path);
        continue;
      }
      byMonth.set(month, {
        month, source: f.name, members: ms,
        ...(zip ? { zip: f.path } : {}),
        paths: new Map(zip ? [] : ms.map((m) => [m.name, f.path])),
      });
    }
  }
  const missing = [...(wanted ?? [])].filter((x) => !seen.has(x));
  if (missing.length) {
    throw new Error(`--forces: ${missing.join(', ')} not in the files given (forces there: ${[...seen].sort().join(', ')})`);
  }
  const chosen = new Set(newestMonths(monthsCarried([...byMonth.values()].flatMap((p) => p.members)), months));
  return [...byMonth.values()].filter((p) => chosen.has(p.month)).sort((a, b) => (a.month < b.month ? -1 : 1));
}

const varchar = (cols: readonly string[]) => `{${cols.map((c) => `'${c}': 'VARCHAR'`).join(', ')}}`;
const readCsv = (n: number, cols: readonly string[]) =>
  `read_csv([${Array.from({ length: n }, () => '?').join(', ')}], header = true, columns = ${varchar(cols)}, quote = '"', escape = '"',
    filename = true, strict_mode = false, null_padding = true, store_rejects = true)`;

/** Extract one month's members into `dir` (kept until the month is loaded); lone CSVs are used in place. */
async function extractMonth(plan: MonthPlan, dir: string): Promise<Array<{ member: CrimeMember; path: string }>> {
  if (!plan.zip) return plan.members.map((m) => ({ member: m, path: plan.paths.get(m.name)! }));
  const wanted = new Map(plan.members.map((m) => [m.name, m]));
  const out: Array<{ member: CrimeMember; path: string }> = [];
  mkdirSync(dir, { recursive: true });
  for await (const x of extractMembers(plan.zip, dir, { keep: true, filter: (z) => wanted.has(z.name) })) {
    out.push({ member: wanted.get(x.name)!, path: x.path });
  }
  return out;
}

/**
 * Staging tables, typed as the rows are read: coordinates as DOUBLE, the force from the member's name
 * (joined from `stage_files`), and each row's check (`ok`) with its raw text kept only when it fails.
 */
async function createStaging(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE TABLE stage.street_stage (crime_id VARCHAR, month VARCHAR, force VARCHAR, reported_by VARCHAR, falls_within VARCHAR,
       longitude DOUBLE, latitude DOUBLE, location VARCHAR, lsoa_code VARCHAR, lsoa_name VARCHAR, category_label VARCHAR,
       last_outcome VARCHAR, ok BOOLEAN, raw VARCHAR, file VARCHAR)`,
  );
  await conn.run(
    `CREATE TABLE stage.outcomes_stage (crime_id VARCHAR, month VARCHAR, force VARCHAR, reported_by VARCHAR, falls_within VARCHAR,
       longitude DOUBLE, latitude DOUBLE, location VARCHAR, lsoa_code VARCHAR, lsoa_name VARCHAR, outcome VARCHAR, ok BOOLEAN, raw VARCHAR, file VARCHAR)`,
  );
  await conn.run('CREATE TEMP TABLE stage_files (path VARCHAR, force VARCHAR, name VARCHAR)');
  await conn.run('CREATE TEMP TABLE loaded (month VARCHAR, force VARCHAR, source VARCHAR)');
  const cats = categoryMap().categories;
  await conn.run('CREATE TABLE categories (category VARCHAR, label VARCHAR)');
  for (const c of cats) await conn.run('INSERT INTO categories VALUES (?, ?)', [c.category, c.label]);
}

const MONTH_OK = `regexp_full_match(r.month, '\\d{4}-(0[1-9]|1[0-2])')`;
const COORDS_OK = '(r.longitude IS NULL OR TRY_CAST(r.longitude AS DOUBLE) IS NOT NULL) AND (r.latitude IS NULL OR TRY_CAST(r.latitude AS DOUBLE) IS NOT NULL)';
/**
 * No line break in any field: police.uk files have no field over several lines, and a quote never closed
 * takes in the lines after it as one field (DuckDB's lenient reader), up to the next quote or the end of the
 * file, of a row that would otherwise pass (the quote closed by a later row's quoted field, or opened in
 * the last columns) or be one reject. The row fails instead, its raw text is kept, and `openQuote` refuses
 * the file by name.
 */
const noBreak = (cols: readonly string[]) => noLineBreak(cols.map((c) => `r.${c}`));
const POLICE_CSV: NoBreakFormat = { what: 'police.uk CSV', why: 'police.uk files have no field over several lines' };
const STREET_OK = `coalesce(${MONTH_OK} AND ${COORDS_OK} AND r.crime_type IS NOT NULL AND ${noBreak(STREET_COLUMNS)}, false)`;
const OUTCOMES_OK = `coalesce(${MONTH_OK} AND ${COORDS_OK} AND r.crime_id IS NOT NULL AND r.outcome IS NOT NULL AND ${noBreak(OUTCOMES_COLUMNS)}, false)`;
const rawText = (cols: readonly string[]) => `concat_ws(',', ${cols.map((c) => `coalesce(r.${c}, '')`).join(', ')})`;
const COMMON = 'r.crime_id, r.month, f.force, r.reported_by, r.falls_within, TRY_CAST(r.longitude AS DOUBLE), TRY_CAST(r.latitude AS DOUBLE), r.location, r.lsoa_code, r.lsoa_name';
const STAGE_SELECT = {
  street: `SELECT ${COMMON}, r.crime_type, r.last_outcome, ${STREET_OK}, CASE WHEN NOT ${STREET_OK} THEN ${rawText(STREET_COLUMNS)} END, CASE WHEN NOT ${STREET_OK} THEN f.name END`,
  outcomes: `SELECT ${COMMON}, r.outcome, ${OUTCOMES_OK}, CASE WHEN NOT ${OUTCOMES_OK} THEN ${rawText(OUTCOMES_COLUMNS)} END, CASE WHEN NOT ${OUTCOMES_OK} THEN f.name END`,
};

/** Load one month's extracted members into the staging tables (header checked first). */
async function insertMonth(conn: DuckDBConnection, plan: MonthPlan, files: Array<{ member: CrimeMember; path: string }>): Promise<void> {
  for (const kind of ['street', 'outcomes'] as const) {
    const paths = files.filter((f) => f.member.kind === kind);
    const expected = kind === 'street' ? STREET_HEADER : OUTCOMES_HEADER;
    for (const f of paths) {
      if (!headerMatches(csvHeader(f.path), expected)) {
        throw new Error(`${plan.source}: ${f.member.name} does not have the ${kind} CSV header (${expected.join(',')})`);
      }
    }
    if (!paths.length) continue;
    await conn.run('DELETE FROM stage_files');
    for (const f of paths) await conn.run('INSERT INTO stage_files VALUES (?, ?, ?)', [f.path, f.member.force, basename(f.member.name)]);
    const cols = kind === 'street' ? STREET_COLUMNS : OUTCOMES_COLUMNS;
    await conn.run(
      `INSERT INTO stage.${kind}_stage ${STAGE_SELECT[kind]} FROM ${readCsv(paths.length, cols)} r JOIN stage_files f ON f.path = r.filename`,
      paths.map((f) => f.path),
    );
  }
  for (const force of new Set(files.map((f) => f.member.force))) await conn.run('INSERT INTO loaded VALUES (?, ?, ?)', [plan.month, force, plan.source]);
}

/** Extract and load every planned month; month i+1 is extracted while DuckDB reads month i. */
async function loadMonths(ctx: LoadContext, plans: MonthPlan[], scratch: string): Promise<void> {
  const work = join(scratch, 'months');
  const dirOf = (p: MonthPlan) => join(work, p.month);
  let next: Promise<Array<{ member: CrimeMember; path: string }>> | undefined = extractMonth(plans[0]!, dirOf(plans[0]!));
  try {
    for (let i = 0; i < plans.length; i++) {
      const files = await next!;
      next = i + 1 < plans.length ? extractMonth(plans[i + 1]!, dirOf(plans[i + 1]!)) : undefined;
      next?.catch(() => undefined); // awaited in the next round (or in finally)
      ctx.log?.(`crime: loading ${plans[i]!.month} (${files.length} files from ${plans[i]!.source})`);
      await insertMonth(ctx.conn, plans[i]!, files);
      if (plans[i]!.zip) rmSync(dirOf(plans[i]!), { recursive: true, force: true });
      ctx.progress((await count(ctx.conn, 'SELECT count(*) AS n FROM stage.street_stage')) + (await count(ctx.conn, 'SELECT count(*) AS n FROM stage.outcomes_stage')));
    }
  } finally {
    await next?.catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A file with a row that holds a line break (a quote never closed: see noBreak) is refused by name (sync/open-quote.ts), with the
 * lines it took in: one reject would otherwise stand for every row after it (a cut that the 1% reject limit
 * and the per-unit shrink check can both miss near the end of a long file).
 */
async function openQuote(conn: DuckDBConnection): Promise<void> {
  // a row short of fields (the quote opened in an early column): DuckDB's structural rejects, read before
  // storeStructuralRejects empties them
  await refuseOpenQuoteInRejects(conn, POLICE_CSV);
  for (const kind of ['street', 'outcomes'] as const) {
    await refuseOpenQuote(conn, `SELECT file, raw AS text FROM stage.${kind}_stage WHERE NOT ok`, POLICE_CSV);
  }
}

/** Rows that failed their check: counted, the first ones stored in `rejects`. */
async function storeRejects(conn: DuckDBConnection): Promise<number> {
  let n = 0;
  for (const kind of ['street', 'outcomes'] as const) {
    n += await count(conn, `SELECT count(*) AS n FROM stage.${kind}_stage WHERE NOT ok`);
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason)
       SELECT file, NULL, raw, '${kind}: month not YYYY-MM, coordinates not numbers, or no ${kind === 'street' ? 'Crime type' : 'Crime ID or Outcome type'}'
       FROM stage.${kind}_stage WHERE NOT ok LIMIT ${MAX_STORED_REJECTS}`,
    );
  }
  return n;
}

const STREET_SELECT = `SELECT s.crime_id, s.month, s.force, s.reported_by, s.falls_within, s.longitude, s.latitude, s.location, s.lsoa_code,
    s.lsoa_name, c.category, s.category_label, s.last_outcome
  FROM stage.street_stage s LEFT JOIN categories c ON c.label = s.category_label WHERE s.ok`;
const OUTCOMES_SELECT = `SELECT crime_id, month, force, reported_by, falls_within, longitude, latitude, location, lsoa_code, lsoa_name, outcome
  FROM stage.outcomes_stage WHERE ok`;
/**
 * The spatial key of the street table: 0.01-degree latitude band (about 1.1 km), then longitude to 0.001
 * degree, as one BIGINT (one sort key sorts faster than several); rows without a point last.
 */
const SPATIAL_KEY = `CASE WHEN latitude IS NULL OR longitude IS NULL THEN NULL
  ELSE floor(latitude * 100)::BIGINT * 1000000 + floor((longitude + 180) * 1000)::BIGINT END`;
const STREET_OUT = 'crime_id, month, force, reported_by, falls_within, longitude, latitude, location, lsoa_code, lsoa_name, category, category_label, last_outcome';
const OUTCOMES_OUT = 'crime_id, month, force, reported_by, falls_within, longitude, latitude, location, lsoa_code, lsoa_name, outcome';

/** True when the live file can give its months (an older or foreign file without our tables gives none). */
async function attachPrevious(conn: DuckDBConnection, path: string | undefined): Promise<boolean> {
  if (!path) return false;
  await conn.run(`ATTACH '${path.replace(/'/g, "''")}' AS prev (READ_ONLY)`);
  const n = await count(
    conn,
    "SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'prev' AND table_name IN ('street', 'outcomes', 'loads')",
  );
  return n === 3;
}

/**
 * Timing spans of the load's phases, reported as log messages (`crime: <phase> done in N.N s`): where a
 * sync's time goes, for `--verbose` and the bench (docs/performance.md, "Crime load").
 */
function spans(ctx: Pick<LoadContext, 'log'>): (phase: string) => void {
  let t = performance.now();
  return (phase) => {
    const now = performance.now();
    ctx.log?.(`crime: ${phase} done in ${((now - t) / 1000).toFixed(1)} s`);
    t = now;
  };
}

/** The final tables: this sync's months, plus the live file's months it does not replace, sorted. */
async function buildTables(conn: DuckDBConnection, keepPrevious: boolean, span: (phase: string) => void = () => undefined): Promise<void> {
  const kept = (t: string, cols: string) =>
    keepPrevious ? `UNION ALL SELECT ${cols} FROM prev.${t} p ANTI JOIN loaded l ON p.month = l.month AND p.force = l.force` : '';
  // the spatial key: 0.01-degree latitude bands (about 1.1 km), longitude within a band; no location last
  await conn.run(
    `CREATE TABLE street AS SELECT ${STREET_OUT} FROM (${STREET_SELECT} ${kept('street', STREET_OUT)})
     ORDER BY ${SPATIAL_KEY} NULLS LAST`,
  );
  span('street table (category join, spatial sort)');
  // ordered by the first 8 characters of crime_id, not the whole 64: DuckDB's string zone maps keep an
  // 8-byte prefix of a row group's min and max, so a lookup by crime_id skips the same row groups, and the
  // sort compares inlined 8-byte strings instead of 64-byte ones (docs/performance.md, "Crime load")
  await conn.run(`CREATE TABLE outcomes AS SELECT ${OUTCOMES_OUT} FROM (${OUTCOMES_SELECT} ${kept('outcomes', OUTCOMES_OUT)}) ORDER BY left(crime_id, 8)`);
  span('outcomes table (sort by crime_id prefix)');
  await conn.run(
    `CREATE TABLE loads AS SELECT * FROM (SELECT month, force, source FROM loaded
       ${keepPrevious ? 'UNION ALL SELECT p.month, p.force, p.source FROM prev.loads p ANTI JOIN loaded l ON p.month = l.month AND p.force = l.force' : ''})
     ORDER BY month, force`,
  );
  await conn.run(
    `CREATE TABLE coverage AS
     WITH m AS (SELECT month, string_agg(DISTINCT source, ' ' ORDER BY source) AS sources FROM loads GROUP BY month),
     s AS (SELECT month, count(*) AS n FROM street GROUP BY month),
     o AS (SELECT month, count(*) AS n FROM outcomes GROUP BY month)
     SELECT m.month, coalesce(s.n, 0) AS street_rows, coalesce(o.n, 0) AS outcome_rows, m.sources
     FROM m LEFT JOIN s USING (month) LEFT JOIN o USING (month) ORDER BY m.month`,
  );
  // the months each force's street file is held (handlers: a month a force never loaded is not a 0)
  await conn.run('CREATE TABLE force_months AS SELECT month, force, count(*) AS street_rows FROM street GROUP BY month, force ORDER BY month, force');
  await conn.run(
    `CREATE TABLE lsoa_bbox AS SELECT lsoa_code, min(latitude) AS min_lat, max(latitude) AS max_lat, min(longitude) AS min_lng,
       max(longitude) AS max_lng, count(*) FILTER (WHERE latitude IS NULL OR longitude IS NULL) AS no_location
     FROM street WHERE lsoa_code IS NOT NULL GROUP BY lsoa_code ORDER BY lsoa_code`,
  );
  await conn.run('CREATE TEMP TABLE force_names (force VARCHAR, name VARCHAR)');
  for (const f of forceList().forces) await conn.run('INSERT INTO force_names VALUES (?, ?)', [f.force, f.name]);
  await conn.run(
    `CREATE TABLE forces AS SELECT s.force, coalesce(any_value(n.name), mode(s.reported_by)) AS name, min(s.month) AS month_from,
       max(s.month) AS month_to, count(*) AS street_count
     FROM street s LEFT JOIN force_names n USING (force) GROUP BY s.force ORDER BY s.force`,
  );
  await conn.run(
    `CREATE TABLE unmapped_categories AS SELECT category_label AS label, count(*) AS rows, min(month) AS month_from, max(month) AS month_to
     FROM street WHERE category IS NULL GROUP BY category_label ORDER BY category_label`,
  );
  span('summary tables (loads, coverage, force_months, lsoa_bbox, forces, unmapped_categories)');
}

/**
 * The record of the months this sync may have changed, for `mirror export --since` (src/mirror/changes.ts):
 * the months it loaded (their rows of those forces replaced the live file's) and the months of the rows it
 * inserted (a street file's Month column, normally its folder's); every other month's rows were copied
 * from the live file unchanged. Its base is the live file's last sync. Only when the live file gave its
 * other months (with no previous file every month is new) and has a sync_log.
 */
async function recordMonths(conn: DuckDBConnection): Promise<void> {
  const log = await count(conn, "SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'prev' AND table_name = 'sync_log'");
  if (!log) return;
  await recordChangedKeys(conn, 'street', ['month'], 'SELECT month FROM loaded UNION SELECT month FROM stage.street_stage WHERE ok', 'prev.sync_log');
}

/** What load returns: `kept` = rows copied from the live file (its months and forces this sync did not load). */
interface CrimeLoadResult extends LoadResult {
  kept: number;
}

/** Rows of the live file (`prev`) kept in the new tables: those of a month and force this sync did not load. */
async function keptRows(conn: DuckDBConnection): Promise<number> {
  let n = 0;
  for (const t of ['street', 'outcomes']) {
    n += await count(conn, `SELECT count(*) AS n FROM prev.${t} p ANTI JOIN loaded l ON p.month = l.month AND p.force = l.force`);
  }
  return n;
}

/** The report's words for a merge: which months and forces this sync loaded, and how many rows were kept. */
async function mergeNote(conn: DuckDBConnection, rows: number, kept: number): Promise<string> {
  const l = await query<{ month: string; force: string }>(conn, 'SELECT DISTINCT month, force FROM loaded ORDER BY month, force');
  const months = [...new Set(l.map((r) => r.month))];
  const forces = [...new Set(l.map((r) => r.force))].sort();
  const which = forces.length <= 3 ? forces.join(', ') : `${forces.length} forces`;
  return `merged: ${rows} rows loaded for ${monthRuns(months)} of ${which}; ${kept} rows of the other months and forces already there kept`;
}

/**
 * The units a crime file replaces: one force's street (or outcomes) file of one month, `<force> <month>
 * <kind>`; the framework refuses a load that would leave one with far fewer rows than the live file held
 * (a street CSV cut at a line end, or only its header), whatever the file is called.
 */
export const CRIME_UNITS = {
  what: 'force-month',
  counts: (db: string) =>
    `SELECT force || ' ' || month || ' street' AS unit, count(*) AS n FROM ${db}street GROUP BY ALL
     UNION ALL SELECT force || ' ' || month || ' outcomes' AS unit, count(*) AS n FROM ${db}outcomes GROUP BY ALL`,
};

/** The force-months each planned member replaces, named by the member (and its archive). */
function replacedUnits(plans: readonly MonthPlan[]): Array<{ unit: string; file: string }> {
  return plans.flatMap((p) =>
    p.members.map((m) => ({ unit: `${m.force} ${p.month} ${m.kind}`, file: p.zip ? `${p.source} (${m.name})` : basename(m.name) })),
  );
}

/** The load proper, with the scratch database attached as `stage`. */
async function loadStaged(ctx: LoadContext, plans: MonthPlan[], scratch: string, span: (phase: string) => void): Promise<LoadResult> {
  const conn = ctx.conn;
  await createStaging(conn);
  await loadMonths(ctx, plans, scratch);
  span('reading the members into the staging tables (zip, read_csv, checks)');
  await openQuote(conn);
  const structural = await storeStructuralRejects(conn);
  const rejected = structural + (await storeRejects(conn));
  span('rejects');
  const keepPrevious = await attachPrevious(conn, ctx.previousPath);
  await buildTables(conn, keepPrevious, span);
  const kept = keepPrevious ? await keptRows(conn) : 0;
  if (keepPrevious) {
    await recordMonths(conn);
    await conn.run('DETACH prev');
  }
  for (const u of await query<{ label: string; rows: number }>(conn, 'SELECT label, rows FROM unmapped_categories')) {
    ctx.log?.(`crime: ${u.rows} rows with Crime type '${u.label}', which data/crime/categories.json does not map: kept with category null`);
  }
  // the rows this sync loaded (not the table's): the framework checks them against the tables for a full
  // load; a merge (rows of the live file kept) is reported as an update and checked in verify
  const rows = (await count(conn, 'SELECT count(*) AS n FROM stage.street_stage WHERE ok')) + (await count(conn, 'SELECT count(*) AS n FROM stage.outcomes_stage WHERE ok'));
  ctx.progress(rows);
  const newest = await queryOne<{ m: string | null }>(conn, 'SELECT max(month) AS m FROM coverage');
  span('counts for the report');
  const result: CrimeLoadResult = {
    rows, rejected, kept, mode: kept > 0 ? 'incremental' : 'full', replaced: replacedUnits(plans),
    ...(kept > 0 ? { note: await mergeNote(conn, rows, kept) } : {}),
    ...(newest?.m ? { asOf: monthEnd(newest.m) } : {}),
  };
  return result;
}

export const crime: DatasetModule = {
  ...catalogFields(CRIME_INFO),
  defaultBaseUrl: 'https://data.police.uk/data/archive',
  tables: ['street', 'outcomes'],
  units: CRIME_UNITS,
  rejectThreshold: 0.01,
  // 1 GB, not 'auto' (up to 3 GB): with 3 GB the street table's spatial sort took the process to 2.4 GB and
  // the outcomes sort to 2.7 GB at a year of every force; at 1 GB the sorts spill to the temp folder and
  // the process stayed near 1.1 GB (docs/performance.md, "Crime load"). PUBLICDATA_SYNC_MEMORY overrides.
  memoryLimit: '1GB',
  fromNames: /^(\d{4}-\d{2}|latest)\.zip$|^\d{4}-\d{2}-[a-z0-9-]+-(street|outcomes)\.csv$/,

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    // latest.zip is the newest archive (data.police.uk/about); <YYYY-MM>.zip names a past one (--from).
    // data.police.uk prints no size for it and it runs to gigabytes: the server is asked, so the sync can
    // say how much it is about to download before it starts.
    const url = `${ctx.baseUrl}/latest.zip`;
    const size = await ctx.sizeOf?.(url);
    return [{ url, name: 'latest.zip', kind: 'full', ...(size !== undefined ? { approxBytes: size } : {}) }];
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const conn = ctx.conn;
    const months = ctx.options.months ?? DEFAULT_MONTHS;
    const plans = await planMonths(ctx.files, months, ctx.options.lists?.forces);
    if (!plans.length) throw new Error('no month with a street file in the archive');
    ctx.log?.(`crime: months ${plans[0]!.month} to ${plans.at(-1)!.month} (${plans.length}) from ${[...new Set(plans.map((p) => p.source))].join(', ')}`);
    const span = spans(ctx);
    // the staging tables live in the load's staging database (sync/staging.ts: a scratch file beside the
    // extracted months, attached as `stage`, its tables dropped before it is detached and deleted): its row
    // groups are written compressed as they fill, so the 9 million staged rows of a year do not sit in
    // memory uncompressed as TEMP tables did (docs/performance.md, "Crime load")
    try {
      return await withStaging(ctx, 'crime', (scratch) => loadStaged(ctx, plans, scratch, span));
    } finally {
      span('dropping the staging file');
    }
  },


  async verify(conn, result): Promise<void> {
    const kept = (result as CrimeLoadResult).kept ?? 0;
    if (kept > 0) {
      // a merge: the tables hold exactly the rows loaded plus the rows kept from the live file
      const total = (await count(conn, 'SELECT count(*) AS n FROM street')) + (await count(conn, 'SELECT count(*) AS n FROM outcomes'));
      if (total !== result.rows + kept) throw new Error(`crime: ${total} rows in street and outcomes, ${result.rows} loaded + ${kept} kept`);
    }
    const r = (await queryOne<{ n: number; months: number; empty: number; stray: number }>(
      conn,
      `SELECT (SELECT count(*) FROM street) AS n, (SELECT count(*) FROM coverage) AS months,
         (SELECT count(*) FROM coverage WHERE street_rows = 0) AS empty,
         (SELECT count(*) FROM street WHERE month NOT IN (SELECT month FROM coverage)) AS stray`,
    ))!;
    if (r.n === 0) throw new Error('crime: no street rows were loaded');
    if (r.empty > 0) throw new Error(`crime: ${r.empty} month(s) of the coverage have no street rows`);
    if (r.stray > 0) throw new Error(`crime: ${r.stray} street rows have a month outside the coverage (a street file whose Month differs from its folder?)`);
  },
};

export default crime;
