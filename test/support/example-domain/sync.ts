/**
 * The sync modules of the example domain's datasets (dataset.ts): invented CSV files through the real
 * sync framework (discover on the publisher's index page, download, load into DuckDB, verify, swap,
 * sync_log), as a real dataset's module. Test-only: the tests load them through the registry the example
 * domain is declared into (test/support/example-setup.ts) or, in a child process on dist/, through an
 * injected loader (src/sync-runner.ts createSyncRunner; test/sync/kill-child.mjs).
 *
 * File format (test/fixtures/example/README.md): a header `id,colour,count,recorded_on,title`, one record a
 * line; an update file starts each line with a change code (`change,id,...`: A add, C change, D delete).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { beginChanges, recordChanged } from '../../../src/mirror/changes.js';
import { queryOne } from '../../../src/mirror/db.js';
import { catalogFields, count, MAX_STORED_REJECTS, pageLinks, storeStructuralRejects } from '../../../sync/common.js';
import { DownloadError } from '../../../sync/download.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../sync/types.js';
import { EVENTS_DAYS, EVENTS_INFO, RECORDS_INFO } from './dataset.js';

export const RECORDS_DDL = `CREATE TABLE records (
  id          INTEGER NOT NULL,
  colour      VARCHAR NOT NULL,
  count       INTEGER NOT NULL,
  recorded_on DATE    NOT NULL,
  title       VARCHAR NOT NULL
)`;
const COLUMNS = ['id', 'colour', 'count', 'recorded_on', 'title'] as const;
const OUT = COLUMNS.join(', ');

/** One file's rows typed, with the reason a row is rejected (NULL when fine) and its raw line. */
function typed(param: number, update: boolean): string {
  const cols = [...(update ? ['change'] : []), ...COLUMNS].map((c) => `'${c}': 'VARCHAR'`).join(', ');
  return `SELECT TRY_CAST(id AS INTEGER) AS id, colour, TRY_CAST(count AS INTEGER) AS count,
    TRY_CAST(recorded_on AS DATE) AS recorded_on, title, ${update ? 'change' : `'A'`} AS change, filename AS _file,
    concat_ws(',', ${update ? 'change, ' : ''}${COLUMNS.map((c) => `coalesce(${c}, '')`).join(', ')}) AS _raw,
    CASE
      WHEN TRY_CAST(id AS INTEGER) IS NULL THEN 'invalid id'
      WHEN ${update ? `change IS NULL OR change NOT IN ('A', 'C', 'D')` : 'false'} THEN 'invalid change code'
      WHEN ${update ? `change = 'D'` : 'false'} THEN NULL
      WHEN colour IS NULL OR colour NOT IN ('red', 'green', 'blue') THEN 'invalid colour'
      WHEN TRY_CAST(count AS INTEGER) IS NULL THEN 'invalid count'
      WHEN TRY_CAST(recorded_on AS DATE) IS NULL THEN 'invalid date'
      WHEN title IS NULL THEN 'no title'
    END AS _reject
  FROM read_csv($${param}, columns = {${cols}}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
    store_rejects = true, strict_mode = false)`;
}

const isUpdate = (name: string) => /^records-update/i.test(name);

/** Stage the files (rows in file order: the last row per id wins), store the rejects; returns the count rejected. */
async function stage(ctx: LoadContext): Promise<number> {
  const union = ctx.files.map((f, i) => typed(i + 1, isUpdate(f.name))).join('\nUNION ALL\n');
  await ctx.conn.run(`CREATE TEMP TABLE _staged AS ${union}`, ctx.files.map((f) => f.path));
  const structural = await storeStructuralRejects(ctx.conn);
  const bad = await count(ctx.conn, 'SELECT count(*) AS n FROM _staged WHERE _reject IS NOT NULL');
  await ctx.conn.run(`INSERT INTO rejects (file, line, raw, reason) SELECT _file, NULL, _raw, _reject FROM _staged WHERE _reject IS NOT NULL LIMIT ${MAX_STORED_REJECTS}`);
  // the rows kept: `--colours`, then `--months` counted back from the newest month of the files
  const colours = ctx.options.lists?.colours;
  const months = ctx.options.months;
  await ctx.conn.run(
    `CREATE TEMP TABLE _apply AS SELECT * EXCLUDE (rn) FROM (
       SELECT *, row_number() OVER (PARTITION BY id ORDER BY rowid DESC) AS rn FROM _staged WHERE _reject IS NULL
         ${colours ? `AND colour IN (${colours.map(() => '?').join(', ')})` : ''}
         ${months ? `AND recorded_on >= (SELECT date_trunc('month', max(recorded_on)) FROM _staged WHERE _reject IS NULL) - INTERVAL ${Number(months) - 1} MONTH` : ''}
     ) WHERE rn = 1`,
    colours ? [...colours] : [],
  );
  return structural + bad;
}

async function asOf(conn: DuckDBConnection): Promise<string | undefined> {
  return (await queryOne<{ d: string | null }>(conn, 'SELECT max(recorded_on) AS d FROM records'))?.d ?? undefined;
}

interface Flavour {
  /** The unit a file replaces, from its name (a year, a day), or undefined (the complete and update files). */
  unitOf(name: string): string | undefined;
  /** SQL giving a row's unit. */
  unitSql: string;
}

async function load(ctx: LoadContext, flavour: Flavour): Promise<LoadResult> {
  const { conn } = ctx;
  const rejected = await stage(ctx);
  const replaced = ctx.files.flatMap((f) => {
    const unit = flavour.unitOf(f.name);
    return unit ? [{ unit, file: f.name }] : [];
  });
  let rows: number;
  if (ctx.mode !== 'incremental') {
    await conn.run(RECORDS_DDL);
    await conn.run(`INSERT INTO records SELECT ${OUT} FROM _apply WHERE change <> 'D' ORDER BY id`);
    rows = await count(conn, 'SELECT count(*) AS n FROM records');
  } else {
    // a file of a unit replaces that unit's rows; then every change applies by id. The old and new versions
    // of the rows are recorded for `mirror export --since` (src/mirror/changes.ts).
    const units = replaced.map((r) => r.unit);
    const gone = `${units.length ? `${flavour.unitSql} IN (${units.map((u) => `'${u.replace(/'/g, "''")}'`).join(', ')}) OR ` : ''}id IN (SELECT id FROM _apply)`;
    await beginChanges(conn, 'records');
    await recordChanged(conn, 'records', 'removed', `SELECT * FROM records WHERE ${gone}`);
    await conn.run(`DELETE FROM records WHERE ${gone}`);
    const added = `SELECT ${OUT} FROM _apply WHERE change IN ('A', 'C')`;
    await conn.run(`INSERT INTO records ${added} ORDER BY id`);
    await recordChanged(conn, 'records', 'added', added, OUT);
    rows = await count(conn, 'SELECT count(*) AS n FROM _apply');
  }
  await conn.run('DROP TABLE _apply');
  await conn.run('DROP TABLE _staged');
  ctx.progress(rows);
  const a = await asOf(conn);
  return { rows, rejected, mode: ctx.mode ?? 'full', ...(a ? { asOf: a } : {}), ...(replaced.length ? { replaced } : {}) };
}

async function verify(conn: DuckDBConnection): Promise<void> {
  if ((await count(conn, 'SELECT count(*) AS n FROM records')) === 0) throw new Error('records is empty');
  const ids = await count(conn, 'SELECT count(*) - count(DISTINCT id) AS n FROM records');
  if (ids > 0) throw new Error(`${ids} record ids held twice`);
}

/** The index page at the base URL: its links matching `re` and the publication date it states. */
async function indexOf(ctx: DiscoverContext, re: RegExp): Promise<{ links: Map<string, string>; published?: string; page: string }> {
  const page = `${ctx.baseUrl}/`;
  let html = '';
  try {
    html = await ctx.fetchText(page);
  } catch (e) {
    if (e instanceof DownloadError && e.kind === 'connect') throw e;
  }
  const published = /"dateModified"\s*:\s*"(\d{4}-\d{2}-\d{2})/.exec(html)?.[1];
  return { links: pageLinks(html, page, re), page, ...(published ? { published } : {}) };
}

const RECORDS_FILES = /^records-(complete|update|\d{4})\.csv$/i;
const YEAR_FILE = /^records-(\d{4})\.csv$/i;

export const recordsModule: DatasetModule = {
  ...catalogFields(RECORDS_INFO),
  defaultBaseUrl: 'https://publisher.example/records',
  rejectThreshold: 0.01,
  tables: ['records'],
  fromNames: RECORDS_FILES,
  classifyFrom: (name) => (isUpdate(name) ? { kind: 'update' } : { kind: 'full' }),
  // `--from records-YYYY.csv` adds that year (replacing the year's rows) to the data there
  fromAdds: (name) => YEAR_FILE.test(name),
  units: { what: 'year', counts: (db) => `SELECT CAST(year(recorded_on) AS VARCHAR) AS unit, count(*) AS n FROM ${db}records GROUP BY 1` },

  /** The complete file (or the yearly files of --years) when there is no data or with --force; else the update. */
  async discover(ctx) {
    const { links, published } = await indexOf(ctx, RECORDS_FILES);
    const file = (name: string, kind: 'full' | 'update'): UpstreamFile => ({ url: links.get(name) ?? `${ctx.baseUrl}/${name}`, name, kind, ...(published ? { published } : {}) });
    const years = ctx.options.years;
    if (years) {
      const out: UpstreamFile[] = [];
      for (let y = years.from; y <= Math.min(years.to, ctx.now().getUTCFullYear()); y++) out.push(file(`records-${y}.csv`, 'full'));
      return out;
    }
    if (!ctx.previous || ctx.options.force) return [file('records-complete.csv', 'full')];
    return [file('records-update.csv', 'update')];
  },
  load: (ctx) => load(ctx, { unitOf: (n) => YEAR_FILE.exec(n)?.[1], unitSql: 'CAST(year(recorded_on) AS VARCHAR)' }),
  verify,
};

const DAY_FILE = /^events-(\d{4}-\d{2}-\d{2})\.csv$/i;

export const eventsModule: DatasetModule = {
  ...catalogFields(EVENTS_INFO),
  defaultBaseUrl: 'https://publisher.example/events',
  rejectThreshold: 0.01,
  tables: ['records'],
  fromNames: DAY_FILE,
  fromAdds: (name) => DAY_FILE.test(name),
  units: { what: 'day', counts: (db) => `SELECT strftime(recorded_on, '%Y-%m-%d') AS unit, count(*) AS n FROM ${db}records GROUP BY 1` },

  /**
   * The daily files of the newest `--days` days (default 7) the index page links, each one the day it
   * replaces: a full load into an empty mirror (or with --force), else added to the days there (an update).
   */
  async discover(ctx) {
    const { links, published, page } = await indexOf(ctx, DAY_FILE);
    const days = ctx.options.days ?? EVENTS_DAYS.default;
    const since = new Date(ctx.now().getTime() - days * 86_400_000).toISOString().slice(0, 10);
    const files = [...links].filter(([name]) => DAY_FILE.exec(name)![1]! > since).sort(([a], [b]) => a.localeCompare(b));
    if (!files.length) throw new Error(`no daily file of the newest ${days} days on ${page}. Use 'publicdata sync example-events --from <file or folder>'.`);
    const kind = ctx.previous && !ctx.options.force ? ('update' as const) : ('full' as const);
    return files.map(([name, url]) => ({ url, name, kind, published: published ?? DAY_FILE.exec(name)![1]! }));
  },
  load: (ctx) => load(ctx, { unitOf: (n) => DAY_FILE.exec(n)?.[1], unitSql: `strftime(recorded_on, '%Y-%m-%d')` }),
  verify,
};
