/**
 * One lake table of an export run: plan, fingerprint (from the sync's record of changed rows when it
 * covers the step since the earlier export, else by a scan), decide which partitions to write (all, or
 * with an earlier export only those whose fingerprint changed), write them to staging, check the row counts
 * COPY reports against the fingerprints, swap each partition in, drop partitions that left the data.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestDataset, ManifestPartition, ManifestTable } from './export-manifest.js';
import { parquetLogicalType } from './export-manifest.js';
import type { ExportEvent } from './export-progress.js';
import type { ExportTableSpec } from './export-spec.js';
import { recordedKeys, recordedPartitions } from './changes.js';
import { fingerprints, planTable, type ExportFormat, type PartitionKey, type PartitionPrint, type TablePlan } from './export-table.js';
import { patchable, writePatched } from './export-patch.js';
import {
  dropPartition, listPartitions, restoreRetired, singleThreaded, SINGLE_THREAD_ROWS, stageCopy, stagingDir, swapIn, writeStaged, type LakeFile, type SwapHook,
} from './export-write.js';

export interface TableRun {
  conn: DuckDBConnection;
  format: ExportFormat;
  outDir: string;
  dataset: string;
  schema: string;
  /** The dataset in the earlier export's manifest (`since`), if any. */
  prev: ManifestDataset | undefined;
  /** Root of the earlier export, where unchanged partitions are (may be outDir itself). */
  sinceRoot: string | undefined;
  progress: ((e: ExportEvent) => void) | undefined;
  /** Observer of each swap step (tests: a reader listing the lake between the renames). */
  onSwap?: SwapHook | undefined;
}

/** The earlier export's files of a partition are all there, at the sizes it recorded. */
function present(dir: string, p: ManifestPartition): boolean {
  return p.files.every((f) => {
    const file = join(dir, p.path, f.name);
    return existsSync(file) && statSync(file).size === f.bytes;
  });
}

function tableEntry(run: TableRun, plan: TablePlan, partitions: ManifestPartition[]): ManifestTable {
  const spec = plan.spec;
  const files = partitions.flatMap((p) => p.files);
  const col = (c: { name: string; type: string }) => ({ name: c.name, type: c.type, logical_type: parquetLogicalType(c.type) });
  return {
    name: spec.name,
    sql_name: `${run.schema}.${spec.name}`,
    description: spec.description,
    path: `${run.dataset}/${spec.name}`,
    columns: plan.columns.map(col),
    partition_columns: plan.partitionColumns.map((c, i) => ({ ...col(c), expr: spec.partitionBy![i]!.expr })),
    sort_columns: [...(spec.sortBy ?? [])],
    order: !spec.sortBy?.length ? 'none' : spec.stored && plan.partitionColumns.length ? 'clustered' : 'sorted',
    rows: partitions.reduce((s, p) => s + p.rows, 0),
    files: files.length,
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    layout_hash: plan.layoutHash,
    partitions,
  };
}

/** Rows COPY wrote for a partition must be the rows fingerprinted (CSV: COPY reports none; the count stands). */
function checkWritten(run: TableRun, name: string, p: PartitionPrint, files: LakeFile[]): LakeFile[] {
  if (p.rows > 0 && files.length === 0) {
    throw new Error(`export of ${run.dataset}/${name}: partition ${p.path} was not written where expected`);
  }
  if (run.format === 'parquet') {
    const got = files.reduce((s, f) => s + (f.rows ?? 0), 0);
    if (got !== p.rows) throw new Error(`export of ${run.dataset}/${name} ${p.path || '(table)'}: wrote ${got} rows, the mirror has ${p.rows}`);
    return files;
  }
  return files.map((f) => ({ ...f, rows: files.length === 1 ? p.rows : null }));
}

/** Partition values in DuckDB's ORDER BY order (NULL last), as `fingerprints` lists them. */
function comparePartitions(a: PartitionKey, b: PartitionKey): number {
  for (const k of Object.keys(a.values)) {
    const [x, y] = [a.values[k] ?? null, b.values[k] ?? null];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** How `--since` found a table's changed partitions: the sync's record of rows, or of partitions (keys), or a scan. */
export type ChangesFrom = 'sync-rows' | 'sync-partitions' | 'scan';

/** Fingerprints from a record, and which kind of record gave them. */
interface Recorded {
  prints: PartitionPrint[];
  from: Exclude<ChangesFrom, 'scan'>;
}

const oldPrint = (o: ManifestPartition): PartitionPrint => ({ values: o.values, path: o.path, rows: o.rows, fingerprint: o.fingerprint });

/**
 * The fingerprints of every partition without scanning the whole table, when the last sync recorded what
 * it changed since the earlier export's sync (src/mirror/changes.ts). A record of rows: a fingerprint is a
 * row count and a sum of row hashes, so a touched partition's new one is the earlier export's plus the
 * record's change. A record of keys (crime's months): those partitions are fingerprinted (one scan
 * filtered to them). Untouched partitions keep the earlier export's; partitions whose files are missing
 * are fingerprinted. Undefined when there is no usable record, or it does not add up (a count below
 * zero): the caller fingerprints every partition.
 */
async function printsFromRecord(run: TableRun, plan: TablePlan, fromDir: string, old: ReadonlyMap<string, ManifestPartition>): Promise<Recorded | undefined> {
  const touched = await recordedPartitions(run.conn, plan, run.prev?.synced_at);
  if (!touched) return printsFromKeys(run, plan, fromDir, old);
  const out = new Map<string, PartitionPrint>();
  for (const o of old.values()) out.set(o.path, oldPrint(o));
  for (const t of touched) {
    const o = old.get(t.path);
    const [n, h] = o ? [o.rows, BigInt(o.fingerprint.slice(o.fingerprint.indexOf(':') + 1))] : [0, 0n];
    const rows = n + t.rows;
    if (rows < 0) return undefined;
    if (rows === 0) out.delete(t.path);
    else out.set(t.path, { values: t.values, path: t.path, rows, fingerprint: `${rows}:${h + t.hashSum}` });
  }
  const missing = [...out.values()].filter((p) => {
    const o = old.get(p.path);
    return o && o.fingerprint === p.fingerprint && !present(fromDir, o);
  });
  if (missing.length) for (const p of await fingerprints(run.conn, plan, missing)) out.set(p.path, p);
  return { prints: [...out.values()].sort(comparePartitions), from: 'sync-rows' };
}

/** `printsFromRecord` from a record by key: the recorded partitions (and any whose files are missing) fingerprinted, the rest kept. */
async function printsFromKeys(run: TableRun, plan: TablePlan, fromDir: string, old: ReadonlyMap<string, ManifestPartition>): Promise<Recorded | undefined> {
  const keys = await recordedKeys(run.conn, plan, run.prev?.synced_at);
  if (!keys) return undefined;
  const scan = new Map<string, PartitionKey>(keys.map((k) => [k.path, k]));
  for (const o of old.values()) if (!present(fromDir, o)) scan.set(o.path, o);
  const out = new Map<string, PartitionPrint>();
  for (const o of old.values()) if (!scan.has(o.path)) out.set(o.path, oldPrint(o));
  // a scanned partition without rows now is gone (fingerprints leaves it out)
  if (scan.size) for (const p of await fingerprints(run.conn, plan, [...scan.values()])) out.set(p.path, p);
  return { prints: [...out.values()].sort(comparePartitions), from: 'sync-partitions' };
}

/**
 * Write the changed partitions to staging. With a usable record (`patch`), a touched partition whose
 * earlier files are there (or that is new) is derived from them and the record (export-patch.ts); the
 * rest are copied from the mirror. A partial write of few rows runs on one DuckDB thread.
 */
async function writeChanged(
  run: TableRun,
  plan: TablePlan,
  staging: string,
  change: PartitionPrint[],
  partial: boolean,
  patch: { fromDir: string; old: ReadonlyMap<string, ManifestPartition> } | undefined,
): Promise<Map<string, LakeFile[]>> {
  const fromFiles = patch && run.format === 'parquet' && partial && patchable(plan)
    ? change.filter((p) => { const o = patch.old.get(p.path); return !o || present(patch.fromDir, o); })
    : [];
  const scan = change.filter((p) => !fromFiles.includes(p));
  const work = async () => {
    const written = scan.length ? await writeStaged(run.conn, plan, run.format, staging, scan, partial) : new Map<string, LakeFile[]>();
    if (fromFiles.length) for (const [k, v] of await writePatched(run.conn, plan, staging, patch!.fromDir, fromFiles, patch!.old)) written.set(k, v);
    return written;
  };
  const small = partial && change.reduce((s, p) => s + p.rows, 0) <= SINGLE_THREAD_ROWS;
  return small ? singleThreaded(run.conn, work) : work();
}

export async function exportTable(
  run: TableRun,
  spec: ExportTableSpec,
  index: number,
  total: number,
): Promise<{ table: ManifestTable; written: number; changesFrom?: ChangesFrom }> {
  const ev = (step: 'fingerprint' | 'write' | 'swap', partitions?: number) =>
    run.progress?.({ type: 'table', dataset: run.dataset, table: spec.name, index, total, step, ...(partitions !== undefined ? { partitions } : {}) });
  ev('fingerprint');
  const plan = await planTable(run.conn, spec, run.format).catch((e: Error) => {
    throw new Error(`export of ${run.dataset}/${spec.name}: ${e.message.split('\n')[0]} (a mirror file from an older sync? 'publicdata sync ${run.dataset}' rebuilds it)`);
  });
  const tableDir = join(run.outDir, run.dataset, spec.name);
  const prevTable = run.prev?.tables.find((t) => t.name === spec.name && t.layout_hash === plan.layoutHash);
  const fromDir = prevTable && run.sinceRoot ? join(run.sinceRoot, prevTable.path) : undefined;
  const old = new Map((prevTable?.partitions ?? []).map((p) => [p.path, p]));
  const recorded = fromDir ? await printsFromRecord(run, plan, fromDir, old) : undefined;
  const prints = recorded?.prints ?? (await fingerprints(run.conn, plan));
  const keep: ManifestPartition[] = [];
  const change: PartitionPrint[] = [];
  for (const p of prints) {
    const o = old.get(p.path);
    if (o && fromDir && o.fingerprint === p.fingerprint && present(fromDir, o)) keep.push(o);
    else change.push(p);
  }
  const staging = stagingDir(tableDir);
  mkdirSync(tableDir, { recursive: true });
  const out = new Map<string, ManifestPartition>(keep.map((k) => [k.path, k]));
  try {
    if (change.length) {
      ev('write', change.length);
      const written = await writeChanged(run, plan, staging, change, change.length < prints.length, recorded?.from === 'sync-rows' ? { fromDir: fromDir!, old } : undefined);
      for (const p of change) out.set(p.path, { ...p, files: checkWritten(run, spec.name, p, written.get(p.path) ?? []) });
      const unexpected = [...written.keys()].filter((k) => !out.has(k));
      if (unexpected.length) throw new Error(`export of ${run.dataset}/${spec.name}: DuckDB wrote partition(s) ${unexpected.join(', ')} the fingerprints do not name`);
    }
    ev('swap');
    const copied = fromDir && fromDir !== tableDir ? keep : [];
    for (const k of copied) stageCopy(fromDir!, staging, k.path);
    const table = `${run.dataset}/${spec.name}`;
    const hook = (path: string) => (step: Parameters<SwapHook>[0]['step']) => run.onSwap?.({ table, path, step });
    await hook('')('staged');
    for (const p of [...change, ...copied]) await swapIn(staging, tableDir, p.path, out.get(p.path)!.files.map((f) => f.name), hook(p.path));
    for (const path of listPartitions(tableDir).keys()) if (!out.has(path)) await dropPartition(tableDir, path, hook(path));
  } finally {
    // a failure between a swap's two renames: the old partition goes back where it was
    restoreRetired(tableDir, process.pid);
    rmSync(staging, { recursive: true, force: true });
  }
  const partitions = prints.map((p) => out.get(p.path)!);
  const changesFrom: ChangesFrom | undefined = recorded?.from ?? (run.sinceRoot ? 'scan' : undefined);
  return { table: tableEntry(run, plan, partitions), written: change.length, ...(changesFrom ? { changesFrom } : {}) };
}
