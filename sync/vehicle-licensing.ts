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
 *   makes(dataset, make, rows)  the distinct makes, for prefix resolution and the `make_prefix_too_broad` rule
 *   coverage(dataset, geography, from_quarter, to_quarter, rows)  for meta.coverage / last_updated
 * Geography comes from the file name (`_GB` / `_UK`). A sync given only some of the four files (e.g.
 * `--from df_VEH0160_UK.csv`) keeps the other tables/geographies of the previous file.
 */
import { basename } from 'node:path';
import { query, queryOne } from '../src/mirror/db.js';
import { catalogFields, count, csvHeader, MAX_STORED_REJECTS, quoteIdent, storeStructuralRejects } from './common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from './types.js';

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

const DDL: Record<Table, string> = {
  licensing: `CREATE TABLE IF NOT EXISTS licensing (
  geography      VARCHAR NOT NULL, -- GB or UK (from the file name)
  quarter        DATE    NOT NULL, -- quarter end ('2026 Q1' -> 2026-03-31)
  licence_status VARCHAR NOT NULL, -- Licensed or SORN
  body_type      VARCHAR NOT NULL,
  make           VARCHAR NOT NULL,
  generic_model  VARCHAR,
  model          VARCHAR,
  fuel           VARCHAR,
  count          BIGINT  NOT NULL  -- vehicles; never 0 (zero, blank and marker cells are not stored)
)`,
  registrations: `CREATE TABLE IF NOT EXISTS registrations (
  geography      VARCHAR NOT NULL,
  quarter        DATE    NOT NULL,
  body_type      VARCHAR NOT NULL,
  make           VARCHAR NOT NULL,
  generic_model  VARCHAR,
  model          VARCHAR,
  fuel           VARCHAR,
  count          BIGINT  NOT NULL  -- first registrations in the quarter (new vehicles and used imports)
)`,
};

/** Which table and geography a publisher's file name holds, or undefined for another name. */
export function classifyVehFile(name: string): { table: Table; geography: 'GB' | 'UK' } | undefined {
  const m = FILE_RE.exec(basename(name));
  if (!m) return undefined;
  return { table: m[1] === '20' ? 'licensing' : 'registrations', geography: m[2]!.toUpperCase() as 'GB' | 'UK' };
}

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
  ...catalogFields('vehicle-licensing'),
  defaultBaseUrl: DEFAULT_BASE_URL,
  tables: ['licensing', 'registrations'],
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
    for (const t of ['licensing', 'registrations'] as const) await conn.run(DDL[t]);
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
    await conn.run(`CREATE TABLE makes AS
      SELECT 'licensing' AS dataset, make, count(*) AS rows FROM licensing GROUP BY make
      UNION ALL
      SELECT 'registrations', make, count(*) FROM registrations GROUP BY make
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
    const n = await count(conn, 'SELECT (SELECT count(*) FROM licensing) + (SELECT count(*) FROM registrations) AS n');
    if (n === 0) throw new Error('vehicle-licensing: the files held no non-zero counts');
    const bad = await count(conn, 'SELECT count(*) AS n FROM licensing WHERE licence_status NOT IN (\'Licensed\', \'SORN\')');
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
  // One pass over the file: the quarter cells as long rows (UNPIVOT drops blank cells), with the line number.
  // (Checking the cells in the wide form instead makes one expression over ~85 columns, which DuckDB's
  // optimiser takes seconds over; in the long form it is one small expression.)
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE veh_long AS
     UNPIVOT (SELECT row_number() OVER () + 1 AS _line, * FROM read_csv(?, header = true, auto_detect = false,
       columns = ${columns}, delim = ',', quote = '"', escape = '"', store_rejects = true, strict_mode = false, null_padding = true))
     ON ${quarters.map(quoteIdent).join(', ')} INTO NAME period VALUE v`,
    [f.path],
  );
  const structural = await storeStructuralRejects(conn);
  // A cell is good when blank, a marker or a whole number (thousands separators tolerated); a wide row with
  // any other cell, or without make or body type (or a licence status other than Licensed/SORN), is rejected.
  const markers = MARKERS.map((m) => `'${m}'`).join(', ');
  const reason = `CASE WHEN nullif(trim("Make"), '') IS NULL OR nullif(trim("BodyType"), '') IS NULL THEN 'no make or body type'
    ${table === 'licensing' ? `WHEN coalesce(trim("LicenceStatus"), '') NOT IN ('Licensed', 'SORN') THEN 'LicenceStatus not Licensed or SORN'` : ''}
    WHEN NOT coalesce(lower(trim(v)) IN ('', ${markers}) OR TRY_CAST(replace(v, ',', '') AS BIGINT) >= 0, false)
      THEN 'a count that is not a whole number, blank or one of ${MARKERS.join(' ')}' END`;
  const descRaw = desc.map(([csv]) => `coalesce(${quoteIdent(csv)}, '')`).join(', ');
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE veh_bad AS
     SELECT _line, arg_min(reason, period) AS reason, arg_min(concat_ws(',', ${descRaw}) || ' | ' || period || ': ' || coalesce(v, ''), period) AS raw
     FROM (SELECT *, ${reason} AS reason FROM veh_long) WHERE reason IS NOT NULL GROUP BY _line`,
  );
  const bad = await count(conn, 'SELECT count(*) AS n FROM veh_bad');
  if (bad > 0) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason) SELECT ?, _line, raw, reason FROM veh_bad ORDER BY _line LIMIT ${MAX_STORED_REJECTS}`,
      [f.name],
    );
  }
  const cols = desc.map(([csv, col]) => `nullif(trim(${quoteIdent(csv)}), '') AS ${col}`).join(', ');
  // 'YYYY Qn' -> last day of the quarter's third month (the labels were checked against QUARTER_RE above)
  const qEnd = `last_day(make_date(CAST(period[1:4] AS INTEGER), CAST(period[7:7] AS INTEGER) * 3, 1))`;
  const outCols = ['geography', 'quarter', ...desc.map(([, c]) => c).filter((c) => c === 'licence_status'), 'body_type', 'make', 'generic_model', 'model', 'fuel', 'count'];
  const before = await count(conn, `SELECT count(*) AS n FROM ${table}`);
  await conn.run(
    `INSERT INTO ${table} (${outCols.join(', ')})
     SELECT ?, ${qEnd}, ${outCols.slice(2, -1).join(', ')}, n FROM (
       SELECT ${cols}, period, TRY_CAST(replace(trim(v), ',', '') AS BIGINT) AS n
       FROM veh_long ${bad > 0 ? 'WHERE _line NOT IN (SELECT _line FROM veh_bad)' : ''}
     ) WHERE n > 0`,
    [geography],
  );
  await conn.run('DROP TABLE veh_long');
  await conn.run('DROP TABLE veh_bad');
  const after = await count(conn, `SELECT count(*) AS n FROM ${table}`);
  ctx.log?.(`${f.name}: ${after - before} non-zero counts from ${quarters.length} quarters (${quarters[quarters.length - 1]} to ${quarters[0]})`);
  return { rows: after - before, rejected: bad + structural };
}

/** Copy the previous file's rows of every table/geography this sync did not load; returns the rows copied. */
async function keepPrevious(ctx: LoadContext, loaded: Set<string>): Promise<number> {
  const { conn } = ctx;
  await conn.run(`ATTACH '${ctx.previousPath!.replace(/'/g, "''")}' AS prev (READ_ONLY)`);
  let copied = 0;
  try {
    for (const table of ['licensing', 'registrations'] as const) {
      const has = await count(
        conn,
        "SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'prev' AND schema_name = 'main' AND table_name = ?",
        [table],
      );
      if (!has) continue;
      const geos = (await query<{ geography: string }>(conn, `SELECT DISTINCT geography FROM prev.main.${table}`)).map((r) => r.geography);
      for (const g of geos) {
        if (loaded.has(`${table}/${g}`)) continue;
        const before = await count(conn, `SELECT count(*) AS n FROM ${table}`);
        await conn.run(`INSERT INTO ${table} SELECT * FROM prev.main.${table} WHERE geography = ?`, [g]);
        const n = (await count(conn, `SELECT count(*) AS n FROM ${table}`)) - before;
        ctx.log?.(`kept ${n} ${table} rows for ${g} from the previous sync`);
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
