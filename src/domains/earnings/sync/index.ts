/**
 * `publicdata sync earnings [--years 2021-2025] [--from FILE_OR_URL]`: the ONS ASHE tables 4 (industry),
 * 7 (workplace geography), 8 (residence geography) and 14 (occupation), sub-tables x.1a weekly gross,
 * x.5a hourly excluding overtime and x.7a annual gross, every sheet (sex x working pattern), into
 * earnings.duckdb:
 *  - `earnings`: one row per table, measure, year, population and coded row of the sheet (values as ONS
 *    published them; markers -> NULL, the suppressed fields named in `suppressed`);
 *  - `earnings_sources`: one row per table file loaded (table, measure, year, status, file), read back by
 *    the next sync to fetch only what is new: a (table, year) not loaded yet, or a provisional year whose
 *    revised edition ONS has since published (its rows are replaced, status 'revised').
 * Full loads build a new file; later syncs are `update` files applied to a copy of the live file
 * (sync/framework.ts): a killed sync leaves the last good file answering.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { sha256File } from '../../../../sync/download.js';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { count, catalogFields } from '../../../../sync/common.js';
import { dataFiles } from '../../../../sync/formats/zip.js';
import type { DatasetModule, LoadContext, LoadResult } from '../../../../sync/types.js';
import { query, queryOne } from '../../../mirror/db.js';
import { asOf } from '../records.js';
import { EARNINGS_INFO } from '../datasets.js';
import { discoverEditions, editionOfName, statusOf, type LoadedSource, type Status } from './discover.js';
import { createParsePool, parseThreads, type ParsePool } from './pool.js';
import { VALUE_FIELDS } from './sheet.js';
import { STAGE_CSV_OPTIONS, type StagedFile } from './stage.js';

export const EARNINGS_DDL = `CREATE TABLE earnings (
  family         VARCHAR NOT NULL,  -- geography | industry | occupation
  ons_table      VARCHAR NOT NULL,  -- 4 | 7 | 8 | 14
  year           INTEGER NOT NULL,
  basis          VARCHAR,           -- residence (Table 8) | workplace (Table 7); NULL for industry and occupation
  population     VARCHAR NOT NULL,  -- all | male | female | full_time | ... (one per sheet)
  measure        VARCHAR NOT NULL,  -- annual_gross | weekly_gross | hourly_excluding_overtime
  code           VARCHAR NOT NULL,
  name           VARCHAR NOT NULL,
  level          VARCHAR NOT NULL,
  seq            INTEGER NOT NULL,  -- ONS's row order within the sheet
  ${VALUE_FIELDS.map((f) => `${f} DOUBLE`).join(',\n  ')},
  status         VARCHAR NOT NULL,  -- provisional | revised
  suppressed     VARCHAR NOT NULL,  -- comma-separated value fields ONS suppressed (x, ..)
  markers        VARCHAR NOT NULL,  -- JSON {field: marker} for every NULL a marker explains
  soc_version    VARCHAR,           -- occupation rows: SOC 2020 from 2021, SOC 2010 before
  source_file    VARCHAR NOT NULL
)`;

/** The columns of EARNINGS_DDL in order with their types (the staging CSV's read_csv `columns`). */
const EARNINGS_COLUMNS: Array<[string, string]> = [...EARNINGS_DDL.matchAll(/^\s+(\w+)\s+(VARCHAR|INTEGER|DOUBLE)\b/gm)].map((m) => [m[1]!, m[2]!]);

export const SOURCES_DDL = `CREATE TABLE earnings_sources (
  ons_table VARCHAR NOT NULL, measure VARCHAR NOT NULL, year INTEGER NOT NULL, status VARCHAR NOT NULL,
  file VARCHAR NOT NULL, container VARCHAR NOT NULL, sheets INTEGER NOT NULL, rows INTEGER NOT NULL
)`;

/** Each zip (or workbook) loaded, with its size and hash: a re-issue under the same name is seen by its size (discover.ts). */
export const EDITIONS_DDL = `CREATE TABLE IF NOT EXISTS earnings_editions (
  container VARCHAR PRIMARY KEY, bytes BIGINT NOT NULL, sha256 VARCHAR NOT NULL
)`;

/** ONS estimates tables of the loaded series inside a zip: x.1a, x.5a, x.7a of tables 4, 7, 8, 14 (not the 'b' CV tables). */
export const MEMBER_RE = /Table\s*(4|7|8|14)\.(1|5|7)a\b[^/]*\.xlsx?$/i;

/** A staged table file waiting for the one insert at the end of the load. */
interface Staged {
  path: string;
  key: [string, string, number];
  status: Status;
  member: string;
  container: string;
  sheets: number;
  rows: number;
}

/**
 * Insert every staged file's rows with one read_csv, replacing what was loaded before for the same table,
 * measure and year (a provisional edition, or an earlier file), and record each file in earnings_sources.
 */
async function insertStaged(conn: DuckDBConnection, staged: readonly Staged[]): Promise<void> {
  for (const s of staged) {
    await conn.run('DELETE FROM earnings WHERE ons_table = ? AND measure = ? AND year = ?', s.key);
    await conn.run('DELETE FROM earnings_sources WHERE ons_table = ? AND measure = ? AND year = ?', s.key);
  }
  const files = staged.map((s) => `'${s.path.replace(/'/g, "''")}'`).join(', ');
  const columns = `{${EARNINGS_COLUMNS.map(([n, t]) => `'${n}': '${t}'`).join(', ')}}`;
  await conn.run(`INSERT INTO earnings SELECT * FROM read_csv([${files}], ${STAGE_CSV_OPTIONS}, columns = ${columns})`);
  for (const s of staged) {
    await conn.run('INSERT INTO earnings_sources VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [...s.key, s.status, s.member, s.container, s.sheets, s.rows]);
  }
}

async function storeRejects(conn: DuckDBConnection, f: StagedFile, member: string): Promise<void> {
  for (const j of f.rejects.slice(0, 1000)) {
    await conn.run('INSERT INTO rejects (file, line, raw, reason) VALUES (?, ?, ?, ?)', [`${member} [${j.sheet}]`, j.line, j.raw, j.reason]);
  }
}

/** Provisional files first, so that a revised edition given in the same sync replaces its provisional one. */
function loadOrder<T extends { name: string }>(files: readonly T[]): T[] {
  const rank = (n: string) => (statusOf(n) === 'provisional' ? 0 : 1);
  return [...files].sort((a, b) => rank(a.name) - rank(b.name));
}

type Parsed = { file: StagedFile; member: string; from: string; status: Status; edition: ReturnType<typeof editionOfName> };

/**
 * The table files of the given zips (or bare workbooks), parsed and staged on the worker pool, in load
 * order. Each member is extracted once and its bytes read once (handed to a worker); at most two files per
 * worker are in flight, so memory stays flat in the number of files.
 */
async function* parsedFiles(ctx: LoadContext, pool: ParsePool): AsyncGenerator<Parsed> {
  const queue: Array<Promise<Parsed>> = [];
  const limit = Math.max(2, pool.threads * 2);
  for (const file of loadOrder(ctx.files)) {
    const edition = editionOfName(file.name);
    for await (const m of dataFiles([file], ctx.workDir ?? `${file.path}.extract`, (z) => MEMBER_RE.test(basename(z.name)))) {
      const status = statusOf(file.name, m.name);
      const p = pool.parse(readFileSync(m.path), m.name, status).then((f) => ({ file: f, member: m.name, from: file.name, status, edition }));
      p.catch(() => {}); // awaited in order below; a failure is thrown there
      queue.push(p);
      while (queue.length >= limit) yield await queue.shift()!;
    }
  }
  while (queue.length) yield await queue.shift()!;
}

async function load(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  if (ctx.mode !== 'incremental') {
    await conn.run(EARNINGS_DDL);
    await conn.run(SOURCES_DDL);
  }
  let rows = 0;
  let rejected = 0;
  let uncoded = 0;
  // one staged file per table, measure and year: a later file (a revised edition) replaces an earlier one
  const staged = new Map<string, Staged>();
  let written = 0;
  const replaced: Array<{ unit: string; file: string }> = [];
  const base = ctx.workDir ?? tmpdir();
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'stage-'));
  const pool = createParsePool(parseThreads(ctx.env ?? process.env, ctx.files.length * 3));
  try {
    for await (const { file: f, member, from, status, edition } of parsedFiles(ctx, pool)) {
      if (edition && edition.table !== f.table.table) throw new Error(`${member} in ${from} is Table ${f.table.table}, not Table ${edition.table}`);
      if (edition && edition.year !== f.year) throw new Error(`${member} in ${from} is for ${f.year}, not ${edition.year}`);
      if (f.rowCount === 0) throw new Error(`${member}: no coded rows in any sheet`);
      const key: Staged['key'] = [f.table.table, f.measure, f.year];
      const path = join(dir, `${++written}-${key.join('-')}.csv`);
      writeFileSync(path, f.csv);
      const before = staged.get(key.join('|'));
      if (before) rows -= before.rows;
      staged.set(key.join('|'), { path, key, status, member, container: from, sheets: f.sheets.length, rows: f.rowCount });
      await storeRejects(conn, f, member);
      rows += f.rowCount;
      rejected += f.rejects.length;
      uncoded += f.uncoded;
      ctx.progress(rows);
      ctx.log?.(`${member}: ${f.year} ${f.measure}, ${f.sheets.length} sheets, ${f.rowCount} rows`);
    }
    if (staged.size === 0) throw new Error('no ASHE estimates table (Table 4, 7, 8 or 14, x.1a/x.5a/x.7a) in the files given');
    await insertStaged(conn, [...staged.values()]);
    await conn.run(EDITIONS_DDL);
    for (const f of ctx.files) {
      const sha = (f as { sha256?: string }).sha256 || (await sha256File(f.path));
      await conn.run('INSERT OR REPLACE INTO earnings_editions VALUES (?, ?, ?)', [f.name, statSync(f.path).size, sha]);
    }
    // the file named in a shrink error: the table file, and the zip it came in (a bare workbook is its own)
    for (const s of staged.values()) {
      replaced.push({ unit: `Table ${s.key[0]} ${s.key[1]} ${s.key[2]}`, file: s.member === s.container ? s.member : `${s.member} (${s.container})` });
    }
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (uncoded) ctx.log?.(`${uncoded} rows without a code (Not Classified, All employees) left out`);
  const notes = ctx.files.map((f) => f.note).filter((n): n is string => !!n);
  // the data's date (sync_log.as_of, from which `mirror status` counts a --from load's age): the reference
  // period of the newest edition the file now holds, the month the answers' meta.as_of names (asOf), as
  // its first day (the column is a DATE); an update that adds an older year leaves it at the newest
  const newest = (await queryOne<{ y: number | null }>(conn, 'SELECT max(year) AS y FROM earnings'))?.y;
  const dataDate = newest === null || newest === undefined ? undefined : `${asOf(Number(newest))}-01`;
  return { rows, rejected, mode: ctx.mode ?? 'full', replaced, ...(notes.length ? { note: notes.join('; ') } : {}), ...(dataDate ? { asOf: dataDate } : {}) };
}

async function verify(conn: DuckDBConnection): Promise<void> {
  const dup = await count(
    conn,
    `SELECT count(*) AS n FROM (SELECT 1 FROM earnings GROUP BY ons_table, measure, year, population, code HAVING count(*) > 1)`,
  );
  if (dup > 0) throw new Error(`${dup} codes appear twice in one sheet; refusing to replace the data`);
  const orphans = await count(
    conn,
    `SELECT count(*) AS n FROM earnings_sources s WHERE rows <> (SELECT count(*) FROM earnings e
       WHERE e.ons_table = s.ons_table AND e.measure = s.measure AND e.year = s.year)`,
  );
  if (orphans > 0) throw new Error('the rows of a loaded table file do not match its count; refusing to replace the data');
  const geoNoUk = await query<{ ons_table: string; year: number; measure: string }>(
    conn,
    `SELECT ons_table, year, measure FROM earnings_sources s WHERE ons_table IN ('7', '8') AND NOT EXISTS
       (SELECT 1 FROM earnings e WHERE e.ons_table = s.ons_table AND e.year = s.year AND e.measure = s.measure AND e.code = 'K02000001')`,
  );
  if (geoNoUk.length) throw new Error(`Table ${geoNoUk[0]!.ons_table} ${geoNoUk[0]!.year} has no United Kingdom row; refusing to replace the data`);
}

export const earnings: DatasetModule = {
  ...catalogFields(EARNINGS_INFO),
  defaultBaseUrl: 'https://www.ons.gov.uk',
  tables: ['earnings'],
  // an edition (ONS table, measure and year) a file replaces may not lose rows beyond the threshold
  units: {
    what: 'edition',
    counts: (db: string) => `SELECT 'Table ' || ons_table || ' ' || measure || ' ' || year AS unit, count(*) AS n FROM ${db}earnings GROUP BY ALL`,
  },
  rejectThreshold: 0.01,
  fromNames: /(?:\.zip|Table\s*(?:4|7|8|14)\.(?:1|5|7)a\b.*\.xlsx?)$/i,
  async readPrevious(conn): Promise<LoadedSource[]> {
    const sources = await query<LoadedSource & Record<string, unknown>>(conn, 'SELECT DISTINCT ons_table, year, status, container FROM earnings_sources');
    // files from before earnings_editions existed: no sizes (a re-issue is then seen only by the next full sync)
    const sizes = await query<{ container: string; bytes: number }>(conn, 'SELECT container, bytes::DOUBLE AS bytes FROM earnings_editions').catch(() => []);
    const bytesOf = new Map(sizes.map((x) => [x.container, x.bytes]));
    return sources.map((x) => ({ ...x, bytes: bytesOf.get(String(x.container)) ?? null }));
  },
  discover: discoverEditions,
  load,
  verify,
};

export default earnings;
