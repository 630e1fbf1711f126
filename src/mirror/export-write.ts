/**
 * Writing a lake table's partitions: DuckDB COPY into a hidden staging directory inside the table's
 * directory (same file system, so renames are atomic), a split of any partition file far over the target
 * size, then a swap per partition: each staged file renamed over the live file of the same name (a reader
 * opens the old file or the new one, never a partial one), surplus old files removed after.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { quoteIdent } from './db.js';
import { LAYOUT, orderBy, partitionWhere, type ExportFormat, type PartitionKey, type TablePlan } from './export-table.js';

export interface LakeFile {
  name: string;
  bytes: number;
  rows: number | null;
}

/** Data file names the exporter writes (DuckDB's `data_<n>` pattern); nothing else in a table directory is touched. */
export const DATA_FILE = /^data_\d+\.(parquet|csv)$/;

/** Staging directory of this process for a table (hidden: Spark, Hive and Trino skip names starting with '.'). */
export const stagingDir = (tableDir: string) => join(tableDir, `.staging-${process.pid}`);

function copyOptions(plan: TablePlan, format: ExportFormat, partitioned: boolean): string {
  const o = format === 'parquet' ? [`FORMAT parquet`, `COMPRESSION ${LAYOUT.compression}`, `COMPRESSION_LEVEL ${LAYOUT.compressionLevel}`, `ROW_GROUP_SIZE ${LAYOUT.rowGroupRows}`] : ['FORMAT csv', 'HEADER true'];
  if (partitioned) o.push(`PARTITION_BY (${plan.partitionColumns.map((c) => quoteIdent(c.name)).join(', ')})`);
  else o.push(`FILE_SIZE_BYTES ${LAYOUT.targetFileBytes}`);
  if (format === 'parquet') o.push('RETURN_STATS true');
  return o.join(', ');
}

/**
 * A rewrite of at most this many rows (a few price-paid years after a monthly update) runs on one DuckDB
 * thread: less CPU in all (no per-thread partition buffers and merges), more wall time; a bigger rewrite
 * (a full export, an MOT year) keeps every thread (docs/export.md "Incremental").
 */
export const SINGLE_THREAD_ROWS = 4_000_000;

/** Run `fn` with DuckDB on one thread, the previous thread count restored after. */
export async function singleThreaded<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  const r = await conn.runAndReadAll(`SELECT current_setting('threads')::INTEGER AS t`);
  const threads = Number(r.getRowObjectsJson()[0]?.t ?? 1);
  await conn.run('SET threads = 1');
  try {
    return await fn();
  } finally {
    await conn.run(`SET threads = ${threads}`);
  }
}

/** Files under `dir` by partition path ('' for files directly in it), sizes from the file system. */
export function listPartitions(dir: string): Map<string, LakeFile[]> {
  const out = new Map<string, LakeFile[]>();
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (DATA_FILE.test(e.name)) {
        const key = relative(dir, d).split(sep).join('/');
        const list = out.get(key) ?? [];
        list.push({ name: e.name, bytes: statSync(p).size, rows: null });
        out.set(key, list);
      }
    }
  };
  walk(dir);
  for (const l of out.values()) l.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  return out;
}

/**
 * COPY the given partitions (all when `keys` is undefined) into a fresh `staging` directory. Returns the
 * files by partition path with their row counts (from COPY's RETURN_STATS for Parquet).
 */
export async function writeStaged(
  conn: DuckDBConnection,
  plan: TablePlan,
  format: ExportFormat,
  staging: string,
  keys?: readonly PartitionKey[],
): Promise<Map<string, LakeFile[]>> {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(staging), { recursive: true });
  const partitioned = plan.partitionColumns.length > 0;
  const { where, params } = keys ? await partitionWhere(conn, plan, keys, 2) : { where: '', params: [] };
  const sql = `COPY (${plan.select}${where}${orderBy(plan)}) TO $1 (${copyOptions(plan, format, partitioned)})`;
  const reader = await conn.runAndReadAll(sql, [staging, ...params]);
  const rowsByFile = new Map<string, number>();
  if (format === 'parquet') {
    for (const r of reader.getRowObjectsJson()) rowsByFile.set(String(r.filename), Number(r.count));
  }
  const files = listPartitions(staging);
  for (const [path, list] of files) {
    for (const f of list) f.rows = rowsByFile.get(join(staging, path, f.name)) ?? null;
  }
  if (format === 'parquet' && partitioned) await splitLarge(conn, staging, files);
  return files;
}

/** Split a partition's single file far over the target size into target-sized files (order kept). */
export async function splitLarge(conn: DuckDBConnection, staging: string, files: Map<string, LakeFile[]>): Promise<void> {
  for (const [path, list] of files) {
    if (list.length !== 1 || list[0]!.bytes <= LAYOUT.targetFileBytes * LAYOUT.splitFactor) continue;
    const src = join(staging, path, list[0]!.name);
    const tmp = join(staging, '.split', path);
    mkdirSync(dirname(tmp), { recursive: true });
    const reader = await conn.runAndReadAll(
      `COPY (SELECT * FROM read_parquet(?)) TO ? (FORMAT parquet, COMPRESSION ${LAYOUT.compression}, COMPRESSION_LEVEL ${LAYOUT.compressionLevel}, ROW_GROUP_SIZE ${LAYOUT.rowGroupRows}, FILE_SIZE_BYTES ${LAYOUT.targetFileBytes}, RETURN_STATS true)`,
      [src, tmp],
    );
    rmSync(src);
    const out: LakeFile[] = [];
    for (const r of reader.getRowObjectsJson()) {
      const name = String(r.filename).slice(tmp.length + 1);
      renameSync(join(tmp, name), join(staging, path, name));
      out.push({ name, bytes: Number(r.file_size_bytes), rows: Number(r.count) });
    }
    out.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    files.set(path, out);
  }
  rmSync(join(staging, '.split'), { recursive: true, force: true });
}

/** Copy a partition's files from a previous export (`--since` elsewhere) into staging, to swap in like new ones. */
export function stageCopy(fromTableDir: string, staging: string, path: string): LakeFile[] {
  const src = join(fromTableDir, path);
  const files = listPartitions(src).get('') ?? [];
  mkdirSync(join(staging, path), { recursive: true });
  for (const f of files) cpSync(join(src, f.name), join(staging, path, f.name));
  return files;
}

/**
 * Swap one staged partition into the live table: a new partition directory is renamed into place whole;
 * an existing one gets each staged file renamed over its namesake (atomic per file), then loses the
 * old files the new version does not have.
 */
export function swapIn(staging: string, tableDir: string, path: string, names: readonly string[]): void {
  const from = join(staging, path);
  const live = path ? join(tableDir, path) : tableDir;
  if (path && !existsSync(live)) {
    mkdirSync(dirname(live), { recursive: true });
    renameSync(from, live);
    return;
  }
  mkdirSync(live, { recursive: true });
  for (const n of names) renameSync(join(from, n), join(live, n));
  const keep = new Set(names);
  for (const n of readdirSync(live)) if (DATA_FILE.test(n) && !keep.has(n)) rmSync(join(live, n));
}

/** Remove a partition no longer in the data: renamed out of the table first, so it vanishes whole. */
export function dropPartition(staging: string, tableDir: string, path: string): void {
  const live = path ? join(tableDir, path) : tableDir;
  if (!path) {
    for (const n of readdirSync(live)) if (DATA_FILE.test(n)) rmSync(join(live, n));
    return;
  }
  const gone = join(staging, '.gone', path);
  mkdirSync(dirname(gone), { recursive: true });
  renameSync(live, gone);
  // empty parent directories of a multi-column partition path
  let d = dirname(live);
  while (d.startsWith(tableDir + sep) && readdirSync(d).length === 0) {
    rmSync(d, { recursive: true });
    d = dirname(d);
  }
}
