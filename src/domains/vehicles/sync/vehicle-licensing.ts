/**
 * `publicdata sync vehicle-licensing`: DfT vehicle licensing statistics into vehicle_licensing.duckdb.
 *
 * Upstream: the machine-readable data files of
 * https://www.gov.uk/government/statistical-data-sets/vehicle-licensing-statistics-data-files, found through
 * the gov.uk content API (`/api/content/government/statistical-data-sets/vehicle-licensing-statistics-data-files`,
 * `details.attachments[].url`), because the asset ids in the URLs
 * (`https://assets.publishing.service.gov.uk/media/<24-hex>/df_VEH0120_GB.csv`) change with every release:
 *   df_VEH0120_GB.csv, df_VEH0120_UK.csv  licensed vehicles: BodyType,Make,GenModel,Model,Fuel,LicenceStatus,<quarters>
 *   df_VEH0160_GB.csv, df_VEH0160_UK.csv  first registrations: BodyType,Make,GenModel,Model,Fuel,<quarters>
 * Quarter columns are named `YYYY Qn` (with a space), newest first. Cells are integers, blank, zero or one of
 * the markers `[c]` `[x]` `[z]` `[low]`.
 *
 * Loading: read_csv with every column VARCHAR, UNPIVOT of the quarter columns into long rows with the
 * quarter-end date (`2026 Q1` -> 2026-03-31); blank, zero and marker cells are dropped (the API omits zero
 * counts). A wide row with a cell that is none of these (or no make) is rejected whole. Tables:
 *   licensing(geography, quarter, licence_status, body_type, make, generic_model, model, fuel, count)
 *   registrations(geography, quarter, body_type, make, generic_model, model, fuel, count)
 * (views over <table>_series, one row per wide row, and <table>_counts(series_id, quarter, count))
 *   makes(dataset, make, series)  the distinct makes, for prefix resolution and the `make_prefix_too_broad` rule
 *   coverage(dataset, geography, from_quarter, to_quarter, rows)  for meta.coverage / last_updated
 * Geography comes from the file name (`_GB` / `_UK`). A sync given only some of the four files (e.g.
 * `--from df_VEH0160_UK.csv`) keeps the other tables/geographies of the previous file.
 */
import { basename } from 'node:path';
import { query, queryOne } from '../../../mirror/db.js';
import { catalogFields, count, csvHeader, MAX_STORED_REJECTS, quoteIdent, storeStructuralRejects } from '../../../../sync/common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { VEHICLE_LICENSING_INFO } from '../datasets.js';

export const CONTENT_API_PATH = '/api/content/government/statistical-data-sets/vehicle-licensing-statistics-data-files';
export const VEH_FILES = ['df_VEH0120_GB.csv', 'df_VEH0120_UK.csv', 'df_VEH0160_GB.csv', 'df_VEH0160_UK.csv'] as const;
const FILE_RE = /^df_VEH01(20|60)_(GB|UK)\.csv$/i;
export const MARKERS = ['[c]', '[x]', '[z]', '[low]'] as const;
const QUARTER_RE = /^(\d{4}) Q([1-4])$/;

type Table = 'licensing' | 'registrations';
const DESCRIPTIVE: Record<Table, ReadonlyArray<readonly [csv: string, column: string]>> = {
  licensing: [
    ['BodyType', 'body_type'], ['Make', 'make'], ['GenModel', 'generic_model'], ['Model', 'model'], ['Fuel', 'fuel'],
    ['LicenceStatus', 'licence_status'],
  ],
  registrations: [['BodyType', 'body_type'], ['Make', 'make'], ['GenModel', 'generic_model'], ['Model', 'model'], ['Fuel', 'fuel']],
};

/**
 * Each table is stored as its series (one row per wide row: the descriptive columns once) and its counts
 * (series id, quarter, count), with a view of the long form under the table's name. Writing the descriptive
 * strings once per series instead of once per quarter makes the load about twice as fast.
 */
function ddl(t: Table): string[] {
  const status = t === 'licensing' ? '\n  licence_status VARCHAR NOT NULL, -- Licensed or SORN' : '';
  return [
    `CREATE TABLE IF NOT EXISTS ${t}_series (
  series_id      INTEGER NOT NULL,
  geography      VARCHAR NOT NULL, -- GB or UK (from the file name)${status}
  body_type      VARCHAR NOT NULL,
  make           VARCHAR NOT NULL,
  generic_model  VARCHAR,
  model          VARCHAR,
  fuel           VARCHAR
)`,
    `CREATE TABLE IF NOT EXISTS ${t}_counts (
  series_id      INTEGER NOT NULL,
  quarter        DATE    NOT NULL, -- quarter end ('2026 Q1' -> 2026-03-31)
  count          BIGINT  NOT NULL  -- ${t === 'licensing' ? 'vehicles licensed or SORN at the quarter end' : 'first registrations in the quarter (new vehicles and used imports)'}; never 0
)`,
    `CREATE OR REPLACE VIEW ${t} AS
  SELECT s.geography, c.quarter,${t === 'licensing' ? ' s.licence_status,' : ''} s.body_type, s.make, s.generic_model, s.model, s.fuel, c.count
  FROM ${t}_counts c JOIN ${t}_series s USING (series_id)`,
  ];
}

/** Which table and geography a publisher's file name holds, or undefined for another name. */
export function classifyVehFile(name: string): { table: Table; geography: 'GB' | 'UK' } | undefined {
  const m = FILE_RE.exec(basename(name));
  if (!m) return undefined;
  return { table: m[1] === '20' ? 'licensing' : 'registrations', geography: m[2]!.toUpperCase() as 'GB' | 'UK' };
}

/** Quarter-end date of a `YYYY Qn` label: the last day of the quarter's third month. */
export function quarterEnd(label: string): string {
  const m = QUARTER_RE.exec(label.trim());
  if (!m) throw new Error(`not a quarter label: '${label}'`);
  const month = Number(m[2]) * 3;
  return `${m[1]}-${String(month).padStart(2, '0')}-${month === 3 || month === 12 ? 31 : 30}`;
}
const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** Every attachment URL of a gov.uk content API document whose file name is one of the data files. */
export function attachmentLinks(json: string, pageUrl: string): { files: UpstreamFile[]; published?: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    return { files: [] };
  }
  const found = new Map<string, string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'url' && typeof x === 'string') {
          const name = basename(x.split('?')[0]!);
          if (FILE_RE.test(name) && !found.has(name.toLowerCase())) {
            try {
              found.set(name.toLowerCase(), new URL(x, pageUrl).toString());
            } catch {
              /* not a URL */
            }
          }
        } else walk(x);
      }
    }
  };
  walk(doc);
  const d = doc as { public_updated_at?: unknown; first_published_at?: unknown } | undefined;
  const stamp = typeof d?.public_updated_at === 'string' ? d.public_updated_at : undefined;
  const files = VEH_FILES.filter((n) => found.has(n.toLowerCase())).map((n) => ({
    url: found.get(n.toLowerCase())!,
    name: n,
    kind: 'full' as const,
    ...(stamp && /^\d{4}-\d{2}-\d{2}/.test(stamp) ? { published: stamp.slice(0, 10) } : {}),
  }));
  return { files, ...(stamp ? { published: stamp.slice(0, 10) } : {}) };
}

const DEFAULT_BASE_URL = 'https://www.gov.uk';

const vehicleLicensing: DatasetModule = {
  ...catalogFields(VEHICLE_LICENSING_INFO),
  defaultBaseUrl: DEFAULT_BASE_URL,
  tables: ['licensing_counts', 'registrations_counts'],
  fromNames: FILE_RE,
  rejectThreshold: 0.01,

  /**
   * The content API of the statistical data set page lists the four files. A base URL other than gov.uk's
   * (PUBLICDATA_UPSTREAM_VEHICLE_LICENSING, PUBLICDATA_UPSTREAM_BASE, a `--from` prefix) may serve that same
   * document, or simply the four files under the publisher's names.
   */
  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const page = `${ctx.baseUrl}${CONTENT_API_PATH}`;
    let reason: string;
    try {
      const { files } = attachmentLinks(await ctx.fetchText(page), page);
      if (files.length) return files;
      reason = 'it lists no df_VEH0120_*.csv / df_VEH0160_*.csv attachment';
    } catch (e) {
      reason = (e as Error).message;
    }
    if (ctx.baseUrl.replace(/\/+$/, '') !== DEFAULT_BASE_URL) {
      return VEH_FILES.map((n) => ({ url: `${ctx.baseUrl}/${n}`, name: n, kind: 'full' as const }));
    }
    throw new Error(
      `Could not find the vehicle licensing data files through ${page} (${reason}). ` +
        `Use 'publicdata sync vehicle-licensing --from <df_VEH0120_GB.csv file or URL>' (repeatable, or a folder).`,
    );
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const { conn } = ctx;
    for (const t of ['licensing', 'registrations'] as const) for (const q of ddl(t)) await conn.run(q);
    const loaded = new Set<string>();
    let rows = 0;
    let rejected = 0;
    for (const f of ctx.files) {
      const kind = classifyVehFile(f.name);
      if (!kind) {
        throw new Error(
          `${f.name}: not a vehicle licensing data file name (expected ${VEH_FILES.join(', ')}; the geography comes from the name)`,
        );
      }
      const key = `${kind.table}/${kind.geography}`;
      if (loaded.has(key)) throw new Error(`${f.name}: two files for ${kind.table} ${kind.geography}`);
      loaded.add(key);
      ctx.log?.(`${f.name}: ${kind.table}, ${kind.geography}`);
      const r = await loadWide(ctx, f, kind.table, kind.geography);
      rows += r.rows;
      rejected += r.rejected;
      ctx.progress(rows);
    }
    // Tables/geographies not in this sync keep the previous file's rows (`--from df_VEH0160_UK.csv` adds registrations).
    if (ctx.previousPath) rows += await keepPrevious(ctx, loaded);
    for (const t of ['licensing', 'registrations'] as const) await orderByMake(ctx, t);
    await conn.run(`CREATE TABLE makes AS
      SELECT 'licensing' AS dataset, make, count(*) AS series FROM licensing_series GROUP BY make
      UNION ALL
      SELECT 'registrations', make, count(*) FROM registrations_series GROUP BY make
      ORDER BY dataset, make`);
    await conn.run(`CREATE TABLE coverage AS
      SELECT 'licensing' AS dataset, geography, min(quarter) AS from_quarter, max(quarter) AS to_quarter, count(*) AS rows FROM licensing GROUP BY geography
      UNION ALL
      SELECT 'registrations', geography, min(quarter), max(quarter), count(*) FROM registrations GROUP BY geography
      ORDER BY dataset, geography`);
    const a = await queryOne<{ d: string | null }>(
      conn,
      'SELECT greatest((SELECT max(quarter) FROM licensing), (SELECT max(quarter) FROM registrations)) AS d',
    );
    return { rows, rejected, mode: 'full', ...(a?.d ? { asOf: a.d } : {}) };
  },

  async verify(conn): Promise<void> {
    const n = await count(conn, 'SELECT (SELECT count(*) FROM licensing_counts) + (SELECT count(*) FROM registrations_counts) AS n');
    if (n === 0) throw new Error('vehicle-licensing: the files held no non-zero counts');
    const bad = await count(conn, 'SELECT count(*) AS n FROM licensing_series WHERE licence_status NOT IN (\'Licensed\', \'SORN\')');
    if (bad > 0) throw new Error(`vehicle-licensing: ${bad} rows with a LicenceStatus other than Licensed/SORN`);
  },
};

/** Load one wide file: UNPIVOT the quarter columns, drop blank/zero/marker cells, reject rows with other cells. */
async function loadWide(
  ctx: LoadContext,
  f: { path: string; name: string },
  table: Table,
  geography: 'GB' | 'UK',
): Promise<{ rows: number; rejected: number }> {
  const { conn } = ctx;
  const header = csvHeader(f.path);
  const desc = DESCRIPTIVE[table];
  const missing = desc.filter(([csv]) => !header.includes(csv)).map(([csv]) => csv);
  if (missing.length) {
    throw new Error(`${f.name}: header lacks ${missing.join(', ')} (expected ${desc.map(([c]) => c).join(',')},<quarters>)`);
  }
  const quarters = header.filter((h) => QUARTER_RE.test(h));
  if (!quarters.length) throw new Error(`${f.name}: no 'YYYY Qn' quarter columns in the header`);
  const unknown = header.filter((h) => !QUARTER_RE.test(h) && !desc.some(([csv]) => csv === h));
  if (unknown.length) ctx.log?.(`${f.name}: ignoring columns ${unknown.join(', ')}`);
  const columns = `{${header.map((h) => `'${h.replace(/'/g, "''")}': 'VARCHAR'`).join(', ')}}`;
  // The wide rows once into a temp table, descriptive columns trimmed (its rowid is the file order:
  // line = rowid + 2). The long form is never materialised: streaming UNPIVOTs read it, one for bad cells,
  // one for the counts. (Checking the cells in the wide form instead makes one expression over ~85 columns
  // that DuckDB's optimiser takes seconds over.)
  const qcols = quarters.map(quoteIdent).join(', ');
  const trimmed = desc.map(([csv]) => `nullif(trim(${quoteIdent(csv)}), '') AS ${quoteIdent(csv)}`).join(', ');
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE veh_raw AS SELECT ${trimmed}, ${qcols} FROM read_csv(?, header = true, auto_detect = false,
       columns = ${columns}, delim = ',', quote = '"', escape = '"', store_rejects = true, strict_mode = false, null_padding = true)`,
    [f.path],
  );
  const structural = await storeStructuralRejects(conn);
  // A cell is good when blank, a marker or a whole number (thousands separators tolerated); a wide row with
  // any other cell, or without make or body type (or a licence status other than Licensed/SORN), is rejected.
  const markers = MARKERS.map((m) => `'${m}'`).join(', ');
  const rowReason = `CASE WHEN "Make" IS NULL OR "BodyType" IS NULL THEN 'no make or body type'
    ${table === 'licensing' ? `WHEN coalesce("LicenceStatus", '') NOT IN ('Licensed', 'SORN') THEN 'LicenceStatus not Licensed or SORN'` : ''} END`;
  const descRaw = desc.map(([csv]) => `coalesce(${quoteIdent(csv)}, '')`).join(', ');
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE veh_bad AS
     SELECT _line, arg_min(reason, k) AS reason, arg_min(raw, k) AS raw FROM (
       SELECT rowid + 2 AS _line, 0 AS k, ${rowReason} AS reason, concat_ws(',', ${descRaw}) AS raw FROM veh_raw WHERE ${rowReason} IS NOT NULL
       UNION ALL
       SELECT c._line, 1, 'a count that is not a whole number, blank or one of ${MARKERS.join(' ')}', concat_ws(',', ${descRaw}) || ' | ' || c.period || ': ' || c.v
       FROM (SELECT * FROM (UNPIVOT (SELECT rowid + 2 AS _line, ${qcols} FROM veh_raw) ON ${qcols} INTO NAME period VALUE v)
             WHERE NOT coalesce(lower(trim(v)) IN ('', ${markers}) OR TRY_CAST(replace(v, ',', '') AS BIGINT) >= 0, false)) c
       JOIN (SELECT rowid + 2 AS _line, * FROM veh_raw) w USING (_line)
     ) GROUP BY _line`,
  );
  const bad = await count(conn, 'SELECT count(*) AS n FROM veh_bad');
  if (bad > 0) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason) SELECT ?, _line, raw, reason FROM veh_bad ORDER BY _line LIMIT ${MAX_STORED_REJECTS}`,
      [f.name],
    );
  }
  // Series ids continue after the ones already in the table (another geography's file).
  const offset = await count(conn, `SELECT coalesce(max(series_id), 0) AS n FROM ${table}_series`);
  const good = bad > 0 ? 'WHERE rowid + 2 NOT IN (SELECT _line FROM veh_bad)' : '';
  const descCols = desc.map(([, col]) => col).join(', ');
  await conn.run(
    `INSERT INTO ${table}_series (series_id, geography, ${descCols})
     SELECT CAST(rowid + 1 + ? AS INTEGER), ?, ${desc.map(([csv]) => quoteIdent(csv)).join(', ')} FROM veh_raw ${good}`,
    [offset, geography],
  );
  // Quarter-end dates through a small mapping (cheaper than parsing the label of every cell).
  const qmap = quarters.map((q) => `(${lit(q)}, DATE ${lit(quarterEnd(q))})`).join(', ');
  const before = await count(conn, `SELECT count(*) AS n FROM ${table}_counts`);
  await conn.run(
    `INSERT INTO ${table}_counts (series_id, quarter, count)
     SELECT u.series_id, m.quarter, u.n FROM (
       SELECT series_id, period, TRY_CAST(replace(trim(v), ',', '') AS BIGINT) AS n
       FROM (UNPIVOT (SELECT CAST(rowid + 1 + ? AS INTEGER) AS series_id, ${qcols} FROM veh_raw ${good}) ON ${qcols} INTO NAME period VALUE v)
       WHERE v NOT IN (${markers})
     ) u JOIN (VALUES ${qmap}) m(period, quarter) USING (period)
     WHERE u.n > 0`,
    [offset],
  );
  await conn.run('DROP TABLE veh_raw');
  await conn.run('DROP TABLE veh_bad');
  const after = await count(conn, `SELECT count(*) AS n FROM ${table}_counts`);
  ctx.log?.(`${f.name}: ${after - before} non-zero counts from ${quarters.length} quarters (${quarters[quarters.length - 1]} to ${quarters[0]})`);
  return { rows: after - before, rejected: bad + structural };
}

/**
 * Renumber the series in make order (then geography and the other descriptive columns) and store the
 * counts sorted by series and quarter. Files list their rows by body type, so a make's series were spread
 * over the whole id range; now they are one range, and a query for a make reads only the row groups of
 * `<table>_counts` that hold it (the join's key range is pushed into the scan of the counts and skips the
 * others by their min/max). `vehicles licensing --make FO` read 8.7M counts for 12k rows before.
 */
async function orderByMake(ctx: LoadContext, table: Table): Promise<void> {
  const { conn } = ctx;
  const keys = ['make', 'geography', ...DESCRIPTIVE[table].map(([, col]) => col).filter((c) => c !== 'make'), 'series_id'].join(', ');
  await conn.run(`ALTER TABLE ${table}_series RENAME TO ${table}_series_old`);
  await conn.run(`ALTER TABLE ${table}_counts RENAME TO ${table}_counts_old`);
  for (const sql of ddl(table)) await conn.run(sql);
  await conn.run(
    `CREATE TEMP TABLE veh_order AS SELECT series_id AS old_id, CAST(row_number() OVER (ORDER BY ${keys}) AS INTEGER) AS new_id FROM ${table}_series_old`,
  );
  await conn.run(
    `INSERT INTO ${table}_series SELECT s.* REPLACE (o.new_id AS series_id) FROM ${table}_series_old s JOIN veh_order o ON s.series_id = o.old_id ORDER BY o.new_id`,
  );
  await conn.run(
    `INSERT INTO ${table}_counts SELECT o.new_id, c.quarter, c.count FROM ${table}_counts_old c JOIN veh_order o ON c.series_id = o.old_id ORDER BY o.new_id, c.quarter`,
  );
  for (const t of ['veh_order', `${table}_counts_old`, `${table}_series_old`]) await conn.run(`DROP TABLE ${t}`);
}

/** Copy the previous file's series and counts of every table/geography this sync did not load; returns the counts copied. */
async function keepPrevious(ctx: LoadContext, loaded: Set<string>): Promise<number> {
  const { conn } = ctx;
  await conn.run(`ATTACH ${lit(ctx.previousPath!)} AS prev (READ_ONLY)`);
  let copied = 0;
  try {
    for (const table of ['licensing', 'registrations'] as const) {
      const has = await count(
        conn,
        "SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'prev' AND schema_name = 'main' AND table_name = ?",
        [`${table}_series`],
      );
      if (!has) continue;
      const geos = (await query<{ geography: string }>(conn, `SELECT DISTINCT geography FROM prev.main.${table}_series`)).map((r) => r.geography);
      for (const g of geos) {
        if (loaded.has(`${table}/${g}`)) continue;
        const offset = await count(conn, `SELECT coalesce(max(series_id), 0) AS n FROM ${table}_series`);
        await conn.run(`INSERT INTO ${table}_series SELECT * REPLACE (series_id + ? AS series_id) FROM prev.main.${table}_series WHERE geography = ?`, [offset, g]);
        const before = await count(conn, `SELECT count(*) AS n FROM ${table}_counts`);
        await conn.run(
          `INSERT INTO ${table}_counts SELECT c.series_id + ?, c.quarter, c.count FROM prev.main.${table}_counts c
           JOIN prev.main.${table}_series s USING (series_id) WHERE s.geography = ?`,
          [offset, g],
        );
        const n = (await count(conn, `SELECT count(*) AS n FROM ${table}_counts`)) - before;
        ctx.log?.(`kept ${n} ${table} counts for ${g} from the previous sync`);
        copied += n;
      }
    }
  } finally {
    await conn.run('DETACH prev');
  }
  return copied;
}

export default vehicleLicensing;
export { vehicleLicensing };
