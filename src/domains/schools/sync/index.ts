/**
 * `publicdata sync schools`: two sources into one dataset file, schools.duckdb:
 *  - `schools`: DfE Get Information about Schools (GIAS) "all establishment data", every status (one row per
 *    URN; Windows-1252 decoded; dates dd-mm-yyyy; grid references converted to WGS84 with proj4, osgb.ts);
 *  - `inspections`: Ofsted's monthly management information on state-funded schools (one row per URN, either
 *    layout, columns.ts; dates dd/mm/yyyy; `NULL` and blank cells NULL; grades kept as published), with
 *    `latest_framework` (report_card, graded or ungraded: the inspection with the latest start date);
 *  - `sources` (the file, sha256, date, layout, encoding and row count behind each table), `phases` and
 *    `statuses` (data/schools/reference.json).
 * Files are recognised by their header, so `--from` takes either file or both, named anyhow. A table whose
 * file is not given, or whose file has the same sha256 as the one loaded last time, is copied from the live
 * file instead of being read again (docs/schools.md); a first sync needs both files.
 */
import { basename, join } from 'node:path';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { DuckDBConnection } from '@duckdb/node-api';
import { catalogFields, csvHeader } from '../../../../sync/common.js';
import { refuseOpenQuote, type NoBreakFormat } from '../../../../sync/open-quote.js';
import type { DatasetModule, LoadContext, LoadResult } from '../../../../sync/types.js';
import { query, queryOne } from '../../../mirror/db.js';
import { loadJsonFile } from '../../../data.js';
import { GIAS_COLUMNS, INSPECTION_COLUMNS, MI_COLUMNS, recognise, type MiLayout, type SourceKind } from './columns.js';
import { discoverSchools, GIAS_NAME_RE, GOVUK_BASE, MI_NAME_RE, publishedFromName } from './discover.js';
import { SCHOOLS_INFO } from '../datasets.js';
import { asUtf8 } from './encoding.js';
import { gridToWgs84 } from './osgb.js';
import { fileSelect, rejectSelect, sqlString } from './sql.js';

interface Reference {
  phases: { codes: Array<{ code: string; name: string; slug: string }> };
  statuses: { codes: Array<{ code: string; name: string; slug: string }> };
}

interface Given {
  kind: SourceKind;
  layout?: MiLayout;
  file: LoadContext['files'][number];
}

const TABLE: Record<SourceKind, string> = { gias: 'schools', mi: 'inspections' };

/**
 * The units a schools file replaces: the whole register (GIAS) or the whole inspections table (Ofsted's
 * management information). A file of any name or date that would leave one with far fewer rows than the
 * live file held (3 of 7 schools, a file cut at a line end) fails the sync unless --allow-shrink.
 */
const UNIT: Record<SourceKind, string> = { gias: 'register', mi: 'inspections' };
export const SCHOOLS_UNITS = {
  what: 'table',
  counts: (db: string) => `SELECT 'register' AS unit, count(*) AS n FROM ${db}schools UNION ALL SELECT 'inspections', count(*) FROM ${db}inspections`,
};

/** Which source each file is, by its header; two files of one source, or an unknown header, fail the sync. */
function classify(files: LoadContext['files']): Map<SourceKind, Given> {
  const out = new Map<SourceKind, Given>();
  for (const file of files) {
    const r = recognise(csvHeader(file.path));
    if (!r) {
      throw new Error(`schools: ${file.name} is neither a GIAS 'all establishment data' CSV nor an Ofsted management-information CSV (header not recognised)`);
    }
    if (out.has(r.kind)) throw new Error(`schools: two ${r.kind === 'gias' ? 'GIAS' : 'management-information'} files given (${out.get(r.kind)!.file.name}, ${file.name})`);
    out.set(r.kind, { kind: r.kind, ...(r.kind === 'mi' ? { layout: r.layout } : {}), file });
  }
  return out;
}

async function referenceTables(conn: DuckDBConnection): Promise<void> {
  const ref = loadJsonFile<Reference>('schools/reference.json');
  for (const [table, list] of [['phases', ref.phases.codes], ['statuses', ref.statuses.codes]] as const) {
    await conn.run(`CREATE TABLE ${table} (code INTEGER, name VARCHAR, slug VARCHAR)`);
    for (const c of list) await conn.run(`INSERT INTO ${table} VALUES (?, ?, ?)`, [Number(c.code), c.name, c.slug]);
  }
}

/**
 * Both files have one school a line (no field of the real excerpts spans lines; docs/mirror.md): a row with
 * a line break fails its check (sql.ts), and one among the rejected rows refuses the file (sync/open-quote.ts).
 */
const NO_BREAK: Record<SourceKind, NoBreakFormat> = {
  gias: { what: "GIAS 'all establishment data' CSV", why: 'GIAS files have one establishment a line' },
  mi: { what: 'Ofsted management-information CSV', why: 'the management information has one school a line' },
};

/** Rejected rows into `rejects` (a file with a line break in one refused); returns how many rows were good and bad. */
async function countAndReject(ctx: LoadContext, stage: string, selectRejects: string, path: string, g: Given): Promise<{ good: number; bad: number }> {
  const name = g.file.name;
  const r = (await queryOne<{ good: number; bad: number }>(
    ctx.conn, `SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad FROM ${stage}`,
  ))!;
  if (r.bad > 0) {
    await refuseOpenQuote(ctx.conn, `SELECT ? AS file, raw AS text FROM (${selectRejects})`, NO_BREAK[g.kind], [name, path]);
    await ctx.conn.run(
      `INSERT INTO rejects SELECT ${sqlString(name)}, line, raw, 'no integer URN, or a number or date that does not parse' FROM (${selectRejects})`,
      [path],
    );
  }
  return r;
}

async function loadGias(ctx: LoadContext, g: Given, workDir: string): Promise<{ good: number; bad: number; encoding: string }> {
  // the UTF-8 copy keeps the file's name, so a DuckDB error reading it names the file given (sync/load-error.ts)
  const u = await asUtf8(g.file.path, join(workDir, basename(g.file.path)));
  const header = csvHeader(u.path);
  await ctx.conn.run(`CREATE TEMP TABLE gias_stage AS ${fileSelect(header, GIAS_COLUMNS, GIAS_COLUMNS)}`, [u.path]);
  const counts = await countAndReject(ctx, 'gias_stage', rejectSelect(header, GIAS_COLUMNS, GIAS_COLUMNS), u.path, g);
  ctx.progress(counts.good);
  // grid references -> WGS84 in JS (proj4), appended to a table joined in below
  await ctx.conn.run('CREATE TEMP TABLE coords (urn INTEGER, latitude DOUBLE, longitude DOUBLE)');
  // read chunk by chunk (DuckDB's vector size), so memory does not grow with the register
  const grid = await ctx.conn.stream('SELECT urn, easting, northing FROM gias_stage WHERE ok AND easting IS NOT NULL AND northing IS NOT NULL');
  const app = await ctx.conn.createAppender('coords');
  for (;;) {
    const chunk = await grid.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const [urn, e, n] of chunk.getRows() as Array<[number, number, number]>) {
      const p = gridToWgs84(Number(e), Number(n));
      if (!p) continue;
      app.appendInteger(Number(urn));
      app.appendDouble(p.latitude);
      app.appendDouble(p.longitude);
      app.endRow();
    }
  }
  app.closeSync();
  await ctx.conn.run(
    `CREATE TABLE schools AS
     SELECT s.* EXCLUDE (ok), p.slug AS phase, st.slug AS status,
            upper(replace(s.postcode, ' ', '')) AS postcode_key, c.latitude, c.longitude
     FROM gias_stage s
     LEFT JOIN phases p ON p.code = TRY_CAST(s.phase_code AS INTEGER)
     LEFT JOIN statuses st ON st.code = TRY_CAST(s.status_code AS INTEGER)
     LEFT JOIN coords c ON c.urn = s.urn
     WHERE s.ok ORDER BY s.urn`,
  );
  await ctx.conn.run('DROP TABLE gias_stage');
  await ctx.conn.run('DROP TABLE coords');
  if (u.path !== g.file.path) rmSync(u.path, { force: true });
  return { ...counts, encoding: u.encoding };
}

/** The framework of the latest inspection: the one with the latest start date (report card, then graded, on a tie). */
const LATEST_FRAMEWORK = `CASE
  WHEN rc_number IS NOT NULL AND coalesce(rc_start, DATE '9999-12-31') >= coalesce(g_start, DATE '0001-01-01')
       AND coalesce(rc_start, DATE '9999-12-31') >= coalesce(u_start, DATE '0001-01-01') THEN 'report_card'
  WHEN g_number IS NOT NULL AND coalesce(g_start, DATE '9999-12-31') >= coalesce(u_start, DATE '0001-01-01') THEN 'graded'
  WHEN u_number IS NOT NULL THEN 'ungraded'
  END`;

async function loadMi(ctx: LoadContext, g: Given, workDir: string): Promise<{ good: number; bad: number; encoding: string }> {
  const u = await asUtf8(g.file.path, join(workDir, basename(g.file.path)));
  const header = csvHeader(u.path);
  const cols = MI_COLUMNS[g.layout!];
  await ctx.conn.run(`CREATE TEMP TABLE mi_stage AS ${fileSelect(header, cols, INSPECTION_COLUMNS)}`, [u.path]);
  const counts = await countAndReject(ctx, 'mi_stage', rejectSelect(header, cols, INSPECTION_COLUMNS), u.path, g);
  await ctx.conn.run(
    `CREATE TABLE inspections AS SELECT * EXCLUDE (ok), ${sqlString(g.layout!)} AS mi_layout, ${LATEST_FRAMEWORK} AS latest_framework
     FROM mi_stage WHERE ok ORDER BY urn`,
  );
  await ctx.conn.run('DROP TABLE mi_stage');
  if (u.path !== g.file.path) rmSync(u.path, { force: true });
  return { ...counts, encoding: u.encoding };
}

interface PreviousSource { source: SourceKind; sha256: string | null }

async function previousSources(ctx: LoadContext): Promise<PreviousSource[] | undefined> {
  if (!ctx.previousPath || !existsSync(ctx.previousPath)) return undefined;
  await ctx.conn.run(`ATTACH ${sqlString(ctx.previousPath)} AS prev (READ_ONLY)`);
  try {
    return await query<PreviousSource & Record<string, unknown>>(ctx.conn, 'SELECT source, sha256 FROM prev.sources');
  } catch {
    return [];
  }
}

async function copyPrevious(conn: DuckDBConnection, kind: SourceKind): Promise<void> {
  await conn.run(`CREATE TABLE ${TABLE[kind]} AS SELECT * FROM prev.${TABLE[kind]}`);
  await conn.run(`INSERT INTO sources SELECT * FROM prev.sources WHERE source = ?`, [kind]);
}

/**
 * The data's date (LoadResult.asOf, sync_log.as_of; `mirror status` counts a `--from` load's age from it):
 * each table's date is its file's, in `sources.published`: the register's extract date (edubasealldata<YYYYMMDD>)
 * and the management information's "as at" date (…_as_at_<D>_<Mon>_<YYYY>), from the URL or the name of a
 * `--from` file (a table kept from the previous sync keeps its date). When both are known the OLDER wins: the
 * file is no newer than its oldest table, so a register extracted today beside outcomes months old (or the
 * reverse) is as old as the older of them. A live sync loads today's register, so its date stays the
 * management information's, as the answers' meta.as_of (handlers.ts; meta.register_as_of gives the other).
 * A file named without its date adds none; when neither states one the sync records no date.
 */
async function load(ctx: LoadContext): Promise<LoadResult> {
  const given = classify(ctx.files);
  // the framework gives a scratch folder in the cache; never write beside a user's --from file
  const workDir = ctx.workDir ?? mkdtempSync(join(tmpdir(), 'publicdata-schools-'));
  mkdirSync(workDir, { recursive: true });
  const prev = await previousSources(ctx);
  await referenceTables(ctx.conn);
  await ctx.conn.run(
    `CREATE TABLE sources (source VARCHAR, file VARCHAR, url VARCHAR, sha256 VARCHAR, published DATE, layout VARCHAR,
       encoding VARCHAR, rows INTEGER, loaded_at TIMESTAMP)`,
  );
  let rejected = 0;
  let loaded = 0;
  const replaced: Array<{ unit: string; file: string }> = [];
  for (const kind of ['gias', 'mi'] as const) {
    const g = given.get(kind);
    const before = prev?.find((p) => p.source === kind);
    const sha = (g?.file as { sha256?: string } | undefined)?.sha256;
    if (!g || (before && sha && before.sha256 === sha && !ctx.options.force)) {
      if (!before) {
        throw new Error(`schools: a first sync needs both files; no ${kind === 'gias' ? 'GIAS all-establishment' : 'Ofsted management-information'} CSV was given`);
      }
      ctx.log?.(`${TABLE[kind]}: ${g ? 'file unchanged' : 'no file given'}; kept from the previous sync`);
      await copyPrevious(ctx.conn, kind);
      continue;
    }
    const r = kind === 'gias' ? await loadGias(ctx, g, workDir) : await loadMi(ctx, g, workDir);
    rejected += r.bad;
    loaded += r.good;
    replaced.push({ unit: UNIT[kind], file: g.file.name });
    await ctx.conn.run(
      'INSERT INTO sources VALUES (?, ?, ?, ?, CAST(? AS DATE), ?, ?, ?, current_timestamp)',
      [kind, g.file.name, g.file.url, sha ?? null, g.file.published ?? publishedFromName(g.file.name) ?? null, g.layout ?? null, r.encoding, r.good],
    );
  }
  if (prev) await ctx.conn.run('DETACH prev');
  ctx.progress(loaded);
  const rows = (await queryOne<{ n: number }>(ctx.conn, 'SELECT (SELECT count(*) FROM schools) + (SELECT count(*) FROM inspections) AS n'))!.n;
  const asOf = await queryOne<{ d: string | null }>(ctx.conn, "SELECT strftime(min(published), '%Y-%m-%d') AS d FROM sources");
  const notes = ctx.files.map((f) => f.note).filter((n): n is string => !!n);
  // inspections of a URN the register does not hold are kept and answered from their own columns; said here
  const unmatched = Number((await queryOne<{ n: number }>(ctx.conn, 'SELECT count(*) AS n FROM inspections i WHERE NOT EXISTS (SELECT 1 FROM schools s WHERE s.urn = i.urn)'))!.n);
  if (unmatched) {
    notes.push(`${unmatched} inspection${unmatched === 1 ? '' : 's'} of schools not in the register (answered from the management information's name, postcode and authority, in_register false)`);
  }
  return { rows, rejected, mode: 'full', replaced, ...(notes.length ? { note: notes.join('; ') } : {}), ...(asOf?.d ? { asOf: asOf.d } : {}) };
}

async function verify(conn: DuckDBConnection): Promise<void> {
  for (const t of ['schools', 'inspections']) {
    const r = (await queryOne<{ n: number; d: number }>(conn, `SELECT count(*) AS n, count(DISTINCT urn) AS d FROM ${t}`))!;
    if (r.n === 0) throw new Error(`schools: table ${t} is empty`);
    if (r.d !== r.n) throw new Error(`schools: ${r.n - r.d} URNs appear twice in ${t}`);
  }
}

export const schools: DatasetModule = {
  ...catalogFields(SCHOOLS_INFO),
  defaultBaseUrl: GOVUK_BASE,
  tables: ['schools', 'inspections'],
  units: SCHOOLS_UNITS,
  rejectThreshold: 0.01,
  fromNames: new RegExp(`${GIAS_NAME_RE.source}|${MI_NAME_RE.source}`, 'i'),
  classifyFrom(name: string) {
    const published = publishedFromName(name);
    return { kind: 'full', ...(published ? { published } : {}) };
  },
  discover: discoverSchools,
  load,
  verify,
};

export default schools;
