/**
 * Writing a lake table's partitions: DuckDB COPY into a hidden staging directory inside the table's
 * directory (same file system, so renames are atomic), a split of any partition file far over the target
 * size, then a swap per partition: the staged partition directory renamed into place whole, the old one
 * set aside (hidden) first, so a reader listing the table sees the whole old partition or the whole new
 * one (a one-file partition replaced by one file of the same name: that file renamed over its namesake).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { quoteIdent } from './db.js';
import { LAYOUT, orderBy, partitionWhere, type ExportFormat, type PartitionKey, type PartitionPrint, type TablePlan } from './export-table.js';

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
 * Partitions one partitioned COPY writes at most (counting a partition smaller than a row group as the
 * share of one it fills). DuckDB's partitioned write keeps a row group's buffer per open partition; a
 * table stored in another order than its partitions (price paid: postcode) has every partition open
 * at once, and at 30M rows the 31 years' buffers outgrew the memory limit: evicted and re-read, the
 * write took 2.2x the CPU of DuckDB's own unlimited COPY. Written eight years at a time (one COPY each,
 * filtered to them), it stays within the limit (docs/export.md "Memory and progress").
 */
export const OPEN_PARTITIONS = 8;

/** The changed partitions in groups (in order) that one COPY each writes: `OPEN_PARTITIONS` row groups' worth of partitions at most. */
export function writeGroups<T extends PartitionPrint>(change: readonly T[]): T[][] {
  const groups: T[][] = [];
  let cur: T[] = [];
  let load = 0;
  for (const p of change) {
    const w = Math.min(p.rows, LAYOUT.rowGroupRows);
    if (cur.length && load + w > OPEN_PARTITIONS * LAYOUT.rowGroupRows) {
      groups.push(cur);
      [cur, load] = [[], 0];
    }
    cur.push(p);
    load += w;
  }
  if (cur.length) groups.push(cur);
  return groups;
}

/** One COPY of the partitions `keys` names (all when undefined) into `dir`: files by partition path, with row counts (Parquet). */
async function copyTo(conn: DuckDBConnection, plan: TablePlan, format: ExportFormat, dir: string, keys?: readonly PartitionKey[]): Promise<Map<string, LakeFile[]>> {
  const partitioned = plan.partitionColumns.length > 0;
  const { where, params } = keys ? await partitionWhere(conn, plan, keys, 2) : { where: '', params: [] };
  const sql = `COPY (${plan.select}${where}${orderBy(plan)}) TO $1 (${copyOptions(plan, format, partitioned)})`;
  const reader = await conn.runAndReadAll(sql, [dir, ...params]);
  const rowsByFile = new Map<string, number>();
  if (format === 'parquet') {
    for (const r of reader.getRowObjectsJson()) rowsByFile.set(String(r.filename), Number(r.count));
  }
  const files = listPartitions(dir);
  for (const [path, list] of files) {
    for (const f of list) f.rows = rowsByFile.get(join(dir, path, f.name)) ?? null;
  }
  return files;
}

/**
 * COPY the changed partitions (`partial`: some of the table's; else all of them) into a fresh `staging`
 * directory. Returns the files by partition path with their row counts (from COPY's RETURN_STATS for
 * Parquet). More partitions than `OPEN_PARTITIONS` are written a group at a time on one DuckDB thread
 * (`writeGroups`: one COPY each into a hidden directory of staging, its partitions then moved up).
 */
export async function writeStaged(
  conn: DuckDBConnection,
  plan: TablePlan,
  format: ExportFormat,
  staging: string,
  change: readonly PartitionPrint[],
  partial: boolean,
): Promise<Map<string, LakeFile[]>> {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(staging), { recursive: true });
  const partitioned = plan.partitionColumns.length > 0;
  const groups = partitioned ? writeGroups(change) : [change];
  let files: Map<string, LakeFile[]>;
  if (groups.length === 1) files = await copyTo(conn, plan, format, staging, partial ? change : undefined);
  else {
    files = new Map();
    mkdirSync(staging, { recursive: true });
    await singleThreaded(conn, async () => {
      for (const [i, group] of groups.entries()) {
        const dir = join(staging, `.group-${i}`);
        for (const [path, list] of await copyTo(conn, plan, format, dir, group)) {
          mkdirSync(dirname(join(staging, path)), { recursive: true });
          renameSync(join(dir, path), join(staging, path));
          files.set(path, list);
        }
        rmSync(dir, { recursive: true, force: true });
      }
    });
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
      // numbered: DuckDB binds a COPY's `TO ?` before the query's own `?`
      `COPY (SELECT * FROM read_parquet($1)) TO $2 (FORMAT parquet, COMPRESSION ${LAYOUT.compression}, COMPRESSION_LEVEL ${LAYOUT.compressionLevel}, ROW_GROUP_SIZE ${LAYOUT.rowGroupRows}, FILE_SIZE_BYTES ${LAYOUT.targetFileBytes}, RETURN_STATS true)`,
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

/** A step of a partition's swap, for an observer (`ExportOptions.onSwap`: tests list the lake at each step). */
export interface SwapEvent {
  /** `<dataset>/<table>`. */
  table: string;
  /** The partition's Hive path ('' for an unpartitioned table, or for `staged`: the whole table). */
  path: string;
  /**
   * `staged`: every changed partition of the table is written and checked, nothing swapped yet;
   * `retired`: the old partition was renamed aside (hidden), the new one not yet in place;
   * `placed`: the new partition is in place; `dropped`: a partition no longer in the data was renamed aside.
   */
  step: 'staged' | 'retired' | 'placed' | 'dropped';
}
export type SwapHook = (e: SwapEvent) => void | Promise<void>;

/** Where this process puts a partition it swaps out, until its replacement is in place (hidden). */
export const retiredDir = (tableDir: string, pid = process.pid) => join(tableDir, `.old-${pid}`);

/** An unpartitioned table's directory swaps whole: the new one is assembled, the old one set aside, beside it. */
export const tableAside = (tableDir: string, kind: 'old' | 'new', pid = process.pid) => join(dirname(tableDir), `.${kind}-${pid}-${basename(tableDir)}`);

const dataFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => DATA_FILE.test(n)) : []);

/**
 * Swap one staged partition into the live table, so that a reader listing the table sees the whole old
 * partition or the whole new one, never a mixture (docs/export.md "Atomic swap"):
 * - a new partition directory is renamed into place whole;
 * - a partition of one file replaced by one file of the same name: the file is renamed over its namesake
 *   (rename(2) replaces atomically: no moment without the partition);
 * - otherwise the whole directory swaps: the old one is renamed aside to a hidden name (`.old-<pid>/`),
 *   the staged one renamed into place, the old one deleted. Between those two renames the partition is
 *   absent from a listing (POSIX has no exchange of two directories; Linux's renameat2 RENAME_EXCHANGE
 *   is not reachable from Node). An unpartitioned table swaps its directory the same way, beside it.
 * A failure or kill between the two renames is undone by `restoreRetired` (this run's `finally`, or the
 * next export's sweep).
 */
export async function swapIn(staging: string, tableDir: string, path: string, names: readonly string[], hook?: (step: SwapEvent['step']) => void | Promise<void>): Promise<void> {
  const from = join(staging, path);
  const live = path ? join(tableDir, path) : tableDir;
  if (path && !existsSync(live)) {
    mkdirSync(dirname(live), { recursive: true });
    renameSync(from, live);
    await hook?.('placed');
    return;
  }
  const current = dataFiles(live);
  if (names.length === 1 && current.length <= 1 && (current.length === 0 || current[0] === names[0])) {
    mkdirSync(live, { recursive: true });
    renameSync(join(from, names[0]!), join(live, names[0]!));
    await hook?.('placed');
    return;
  }
  if (path) {
    const aside = join(retiredDir(tableDir), path);
    mkdirSync(dirname(aside), { recursive: true });
    renameSync(live, aside);
    await hook?.('retired');
    renameSync(from, live);
    await hook?.('placed');
    rmSync(aside, { recursive: true, force: true });
    return;
  }
  // unpartitioned: assemble the new directory beside the table (hidden), with the table's other entries
  // (anything not a data file, bar this run's own staging), then swap the directories
  const fresh = tableAside(tableDir, 'new');
  const old = tableAside(tableDir, 'old');
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  for (const n of names) renameSync(join(from, n), join(fresh, n));
  for (const n of existsSync(tableDir) ? readdirSync(tableDir) : []) {
    if (!DATA_FILE.test(n) && join(tableDir, n) !== staging && join(tableDir, n) !== retiredDir(tableDir)) renameSync(join(tableDir, n), join(fresh, n));
  }
  renameSync(tableDir, old);
  await hook?.('retired');
  renameSync(fresh, tableDir);
  await hook?.('placed');
  rmSync(old, { recursive: true, force: true });
}

/**
 * Put back what a swap of process `pid` set aside and never replaced (it failed or was killed between
 * its two renames): a retired partition whose place is empty, an unpartitioned table's old directory
 * when the table directory is missing. Whatever else it left aside goes.
 */
export function restoreRetired(tableDir: string, pid: number): void {
  const dir = retiredDir(tableDir, pid);
  if (existsSync(dir)) {
    for (const path of listPartitions(dir).keys()) {
      const live = join(tableDir, path);
      if (path && !existsSync(live)) {
        mkdirSync(dirname(live), { recursive: true });
        renameSync(join(dir, path), live);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const old = tableAside(tableDir, 'old', pid);
  if (existsSync(old)) {
    if (!existsSync(tableDir)) renameSync(old, tableDir);
    else rmSync(old, { recursive: true, force: true });
  }
  // An unpartitioned swap stopped before its first rename: the table's own non-data entries it had moved
  // into the new directory go back; the new data files (this run's, never placed) go.
  const fresh = tableAside(tableDir, 'new', pid);
  if (existsSync(fresh) && existsSync(tableDir)) {
    for (const n of readdirSync(fresh)) if (!DATA_FILE.test(n) && !existsSync(join(tableDir, n))) renameSync(join(fresh, n), join(tableDir, n));
  }
  rmSync(fresh, { recursive: true, force: true });
}

/** Remove a partition no longer in the data: renamed aside (hidden) first, so it vanishes whole. */
export async function dropPartition(tableDir: string, path: string, hook?: (step: SwapEvent['step']) => void | Promise<void>): Promise<void> {
  const live = path ? join(tableDir, path) : tableDir;
  if (!path) {
    for (const n of dataFiles(live)) rmSync(join(live, n));
    return;
  }
  const gone = join(retiredDir(tableDir), path);
  mkdirSync(dirname(gone), { recursive: true });
  renameSync(live, gone);
  await hook?.('dropped');
  rmSync(gone, { recursive: true, force: true });
  // empty parent directories of a multi-column partition path
  let d = dirname(live);
  while (d.startsWith(tableDir + sep) && readdirSync(d).length === 0) {
    rmSync(d, { recursive: true });
    d = dirname(d);
  }
}
