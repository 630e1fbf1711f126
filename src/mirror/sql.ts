/** `publicdata sql`: read-only SQL over every synced dataset. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../contract/errors.js';
import { DATASETS } from './catalog.js';
import { jsonConverter, loadDuckDB, STREAM_MEMORY_LIMIT, type Param, type Row } from './db.js';
import { cacheDir, datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from './paths.js';

/** A string literal for DuckDB statements that take no bound parameters (ATTACH): quotes doubled. */
function sqlLiteral(s: string): string {
  if (s.includes('\0')) throw new Error('path contains a NUL byte');
  return `'${s.replace(/'/g, "''")}'`;
}

/** DuckDB memory_limit for `publicdata sql`: PUBLICDATA_SQL_MEMORY (e.g. `2GB`), else 512 MB. */
export function sqlMemoryLimit(env: Env): string {
  const v = env.PUBLICDATA_SQL_MEMORY?.trim();
  if (v === undefined || v === '') return STREAM_MEMORY_LIMIT;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(v)) {
    throw new ApiError(400, 'usage_error', `PUBLICDATA_SQL_MEMORY must be a size such as 512MB or 2GB; got '${v}'.`);
  }
  return v;
}

/**
 * Where DuckDB may spill: `sql-tmp/<pid>` under the cache directory, one per process, since DuckDB names
 * its temporary files by size and number alone and removes them on close (two `sql` runs sharing a
 * directory would overwrite and delete each other's blocks). DuckDB makes the last level, not its parents.
 */
function spillDirectory(env: Env): string | undefined {
  const dir = join(cacheDir(env), 'sql-tmp');
  try {
    mkdirSync(dir, { recursive: true });
    return join(dir, String(process.pid));
  } catch {
    return undefined; // an unwritable cache: no spilling, and a query over the limit says so
  }
}

export interface SqlResult {
  columns: Array<{ name: string; type: string }>;
  rows: Row[];
  /** Datasets attached (schema names). */
  attached: string[];
  /** True when `maxRows` cut the result short. */
  truncated?: boolean;
}

export interface SqlStreamOptions {
  env: Env;
  mirrorDir?: string;
  params?: Param[];
  /** Stop after this many rows (DuckDB computes no more than it must). */
  maxRows?: number;
  /** Called once with the result's columns and the attached datasets, before any rows. */
  onStart?(info: { columns: SqlResult['columns']; attached: string[] }): void | Promise<void>;
  /** Called with each chunk of rows (DuckDB's vector size, 2,048 rows); awaited, so a slow writer slows the query. */
  onRows(rows: Row[]): void | Promise<void>;
}

/**
 * Run user SQL against every synced dataset, each ATTACHed READ_ONLY under its schema name (e.g.
 * `price_paid.price_paid`; unqualified table names resolve through the search path too). After attaching,
 * file system access is disabled and the configuration locked, so a query can neither write a dataset
 * file nor attach or read other files. The result streams: one DuckDB chunk at a time is converted and
 * handed to `onRows`, so memory stays flat however many rows the query returns.
 */
export async function streamSql(sql: string, opts: SqlStreamOptions): Promise<{ rows: number; truncated: boolean }> {
  const env = opts.env;
  const dir = opts.mirrorDir ?? defaultMirrorDir(env);
  const memoryLimit = sqlMemoryLimit(env); // checked before any data access
  const duck = await loadDuckDB();
  const instance = await duck.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const attached: string[] = [];
    for (const [name, info] of Object.entries(DATASETS)) {
      if (!isDatasetPresent(name, dir)) continue;
      await conn.run(`ATTACH ${sqlLiteral(datasetPath(name, dir))} AS "${info.schema}" (READ_ONLY)`);
      attached.push(info.schema);
    }
    if (attached.length) await conn.run(`SET search_path = ${sqlLiteral(attached.map((s) => `${s}.main`).join(','))}`);
    // DuckDB keeps every block a scan has read in its buffer pool, up to memory_limit (80% of RAM by
    // default), so a full-table export grew with the table: 1.5 GB of RSS for 30M price-paid rows. A
    // bounded pool keeps the export flat; operators that need more (a large sort or hash join) spill to a
    // temporary directory under the cache instead of failing. PUBLICDATA_SQL_MEMORY overrides.
    await conn.run(`SET memory_limit = ${sqlLiteral(memoryLimit)}`);
    const tmp = spillDirectory(env);
    if (tmp) await conn.run(`SET temp_directory = ${sqlLiteral(tmp)}`);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
    const result = await conn.stream(sql, (opts.params ?? []) as never);
    const names = result.columnNames();
    const types = result.columnTypes();
    await opts.onStart?.({ columns: result.columnNames().map((n, i) => ({ name: n, type: types[i]!.toString() })), attached });
    const conv = await jsonConverter();
    const max = opts.maxRows ?? Infinity;
    let count = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return { rows: count, truncated: false };
      if (count >= max) return { rows: count, truncated: true };
      const values = chunk.convertRows(conv);
      const take = Math.min(values.length, max - count);
      const rows: Row[] = new Array(take);
      for (let r = 0; r < take; r++) {
        const v = values[r]!;
        const o: Row = {};
        for (let c = 0; c < names.length; c++) o[names[c]!] = v[c];
        rows[r] = o;
      }
      count += take;
      await opts.onRows(rows);
      if (take < values.length) return { rows: count, truncated: true };
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** `streamSql` collected into one result (for small results and tests). */
export async function runSql(sql: string, opts: Omit<SqlStreamOptions, 'onRows' | 'onStart'>): Promise<SqlResult> {
  let columns: SqlResult['columns'] = [];
  let attached: string[] = [];
  const rows: Row[] = [];
  const { truncated } = await streamSql(sql, {
    ...opts,
    onStart: (i) => {
      columns = i.columns;
      attached = i.attached;
    },
    onRows: (chunk) => {
      for (const r of chunk) rows.push(r);
    },
  });
  return { columns, rows, attached, ...(truncated ? { truncated } : {}) };
}
