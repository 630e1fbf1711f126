/**
 * `publicdata mirror export`: every synced dataset as a lake that Spark, Trino, BigQuery and DuckDB read as
 * is. What a dataset exports is data (`export` on its DatasetInfo, src/mirror/export-spec.ts); this module
 * is generic. Layout (docs/export.md):
 *
 *   <out>/manifest.json, <out>/ddl/{spark.sql,trino.sql,bigquery.json,bigquery.sql,duckdb.sql}
 *   <out>/<dataset>/<table>/[<col>=<value>/]data_<n>.parquet
 *
 * Each table is fingerprinted per partition (row count + sum of row hashes, one scan, or from the sync's
 * record of the rows it changed, src/mirror/changes.ts); with `since` (an earlier export) only partitions
 * whose fingerprint changed are written, each swapped in atomically.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pidAlive } from '../pid.js';
import { VERSION } from '../version.js';
import type { DatasetInfo } from './catalog.js';
import { lastSync, loadDuckDB } from './db.js';
import { generateDdl } from './export-ddl.js';
import { MANIFEST, MANIFEST_VERSION, readManifest, writeAtomic, type Manifest, type ManifestDataset } from './export-manifest.js';
import type { ExportEvent } from './export-progress.js';
import type { ExportTableSpec } from './export-spec.js';
import { exportTable, type ChangesFrom, type TableRun } from './export-run.js';
import { LAYOUT, type ExportFormat } from './export-table.js';
import { restoreRetired, type SwapHook } from './export-write.js';
import { datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from './paths.js';
import { mainTables } from './tables.js';

export interface ExportOptions {
  format: ExportFormat;
  outDir: string;
  datasets?: string[];
  /** Every dataset there is (the registry's catalogue): `datasets` names some of them. */
  catalogue: readonly DatasetInfo[];
  env: Env;
  mirrorDir?: string;
  /** An earlier export (its directory or manifest.json): only partitions whose rows changed are written. */
  since?: string;
  /** The lake root the DDL names (e.g. gs://bucket/lake after an upload); default the output directory. */
  location?: string;
  /** DuckDB memory_limit of the export (default PUBLICDATA_EXPORT_MEMORY or EXPORT_MEMORY): beyond it DuckDB spills. */
  memoryLimit?: string;
  progress?: (e: ExportEvent) => void;
  /** Observer of each partition swap step (export-write.ts `SwapEvent`): tests list the lake between the renames. */
  onSwap?: SwapHook;
  now?: () => Date;
}

/** One report row per lake table. */
export interface ExportedTable {
  dataset: string;
  table: string;
  path: string;
  rows: number;
  partitioned_by?: string;
  partitions: number;
  files: number;
  bytes: number;
  /** Partitions written by this run (the others were unchanged since the earlier export). */
  written: number;
  /**
   * With `since`: how the changed partitions were found. `sync-rows`/`sync-partitions`: from the last
   * sync's record of the rows (price paid) or partitions (crime's months) it changed, only those read;
   * `scan`: no usable record, every row of the table read (fingerprinted) to find them.
   */
  changes_from?: ChangesFrom;
}

/**
 * DuckDB memory_limit of an export. The process peaks above it (DuckDB allocations outside its buffer
 * pool, Node): at 768MB a 30M-row price-paid export peaked at 1.0-1.3 GB, at 512MB at 0.66-0.91 GB. A
 * partitioned write keeps a buffer per open partition, so a table with many partitions is written a few
 * at a time (export-write.ts `OPEN_PARTITIONS`), which 512MB holds (docs/export.md "Memory and progress").
 */
export const EXPORT_MEMORY = '512MB';

/** A request the exporter refuses before writing anything (the command maps it to a usage error). */
export class ExportUsageError extends Error {}

/**
 * Provenance of the sync (sync_log), exported with every dataset. A file loaded with `--from` is logged by
 * its local path, which names a folder of the machine that synced (a user name, a project): the lake, made
 * to be shared, keeps only its file name, as `local:<name>` (in `source_url` and in each `files` entry's
 * `url`); upstream URLs are kept whole.
 */
const SYNC_LOG: ExportTableSpec = {
  name: 'sync_log',
  description: 'one row per successful sync of the dataset: upstream files (a local file by its name only), checksums, rows, as-of date',
  sortBy: ['synced_at'],
  // A local path starts with /, . or a drive letter (an upstream URL with its scheme). In `files` (JSON as
  // the sync wrote it) only each url's value is rewritten, the rest of the text kept byte for byte;
  // `source_url` is those urls joined by spaces (as the sync wrote it), so it is rebuilt from them (a
  // path may itself hold spaces: ONS's spreadsheet names do).
  select: `WITH l AS (SELECT *, regexp_replace(files, '"url":"(?:/|\\.|[A-Za-z]:)[^"]*?([^"/\\\\]*)"', '"url":"local:\\1"', 'g') AS lake_files FROM sync_log)
  SELECT * EXCLUDE (lake_files) REPLACE (
    CASE WHEN lake_files IS NULL OR json_array_length(lake_files) = 0 THEN source_url
         ELSE array_to_string(json_extract_string(lake_files, '$[*].url'), ' ') END AS source_url,
    lake_files AS files
  ) FROM l`,
};

/** The pid in a `.staging-<pid>`, `.spill-<pid>`, `.old-<pid>[-<table>]` name when that process is gone (a killed export). */
function deadPid(name: string, prefix: string): number | undefined {
  const m = new RegExp(`^${prefix.replace('.', '\\.')}(\\d+)(-|$)`).exec(name);
  return m && !pidAlive(Number(m[1])) ? Number(m[1]) : undefined;
}

/**
 * Sweep what killed exports left: a partition (or unpartitioned table) set aside by a swap that never put
 * its replacement in place goes back (export-write.ts `restoreRetired`); staging and spill directories go.
 */
function sweep(outDir: string, datasets: readonly string[]): void {
  for (const n of readdirSync(outDir)) if (deadPid(n, '.spill-') !== undefined) rmSync(join(outDir, n), { recursive: true, force: true });
  for (const ds of datasets) {
    const d = join(outDir, ds);
    if (!existsSync(d)) continue;
    for (const n of readdirSync(d)) {
      const m = /^\.(?:old|new)-(\d+)-(.+)$/.exec(n);
      if (m && deadPid(n, n.startsWith('.old') ? '.old-' : '.new-') !== undefined) restoreRetired(join(d, m[2]!), Number(m[1]));
    }
    for (const t of readdirSync(d)) {
      const td = join(d, t);
      if (t.startsWith('.') || !statSync(td).isDirectory()) continue;
      for (const n of readdirSync(td)) {
        const old = deadPid(n, '.old-');
        if (old !== undefined) restoreRetired(td, old);
        if (deadPid(n, '.staging-') !== undefined) rmSync(join(td, n), { recursive: true, force: true });
      }
    }
  }
}

/** The export's DuckDB memory_limit: the option, PUBLICDATA_EXPORT_MEMORY (a size such as 1GB), or EXPORT_MEMORY. */
function memoryLimit(o: ExportOptions): string {
  const v = (o.memoryLimit ?? o.env.PUBLICDATA_EXPORT_MEMORY)?.trim();
  if (v === undefined || v === '') return EXPORT_MEMORY;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(v)) {
    throw new ExportUsageError(`PUBLICDATA_EXPORT_MEMORY must be a size such as 768MB or 2GB; got '${v}'.`);
  }
  return v;
}

function checkRequest(o: ExportOptions, outDir: string, infos: readonly DatasetInfo[], dir: string): { prev?: Manifest; existing?: Manifest } {
  memoryLimit(o);
  for (const d of infos) if (!isDatasetPresent(d, dir)) throw new Error(`${d.name} is not synced: run 'publicdata sync ${d.name}'`);
  const existing = readManifest(outDir);
  if (existing && existing.format !== o.format) {
    throw new ExportUsageError(`mirror export: ${outDir} holds a ${existing.format} export; write ${o.format} to another directory.`);
  }
  const prev = o.since ? readManifest(resolve(o.since)) : undefined;
  if (o.since && !prev) throw new ExportUsageError(`mirror export: --since '${o.since}' has no manifest.json of an earlier export.`);
  if (prev && prev.format !== o.format) throw new ExportUsageError(`mirror export: --since '${o.since}' is a ${prev.format} export, not ${o.format}.`);
  return { ...(prev ? { prev } : {}), ...(existing ? { existing } : {}) };
}

async function specsOf(info: DatasetInfo, conn: Parameters<typeof mainTables>[0]): Promise<ExportTableSpec[]> {
  const declared = info.export?.tables ?? (await mainTables(conn)).map((name) => ({ name, description: `the ${name} table` }));
  return [...declared, SYNC_LOG];
}

function unknownDataset(name: string, byName: ReadonlyMap<string, DatasetInfo>): never {
  throw new ExportUsageError(`mirror export: unknown dataset '${name}'. Known: ${[...byName.keys()].join(', ')}.`);
}

/** Export the synced datasets (or the named ones) to `outDir`; returns one report row per table. */
export async function exportMirror(o: ExportOptions): Promise<ExportedTable[]> {
  const started = Date.now();
  const dir = o.mirrorDir ?? defaultMirrorDir(o.env);
  const outDir = isAbsolute(o.outDir) ? o.outDir : resolve(o.outDir);
  const byName = new Map(o.catalogue.map((d) => [d.name, d]));
  const infos = o.datasets?.length
    ? o.datasets.map((n) => byName.get(n) ?? unknownDataset(n, byName))
    : o.catalogue.filter((d) => isDatasetPresent(d, dir));
  const names = infos.map((d) => d.name);
  const { prev, existing } = checkRequest(o, outDir, infos, dir);
  const sinceRoot = o.since ? resolve(o.since).replace(/\/manifest\.json$/, '') : undefined;
  mkdirSync(outDir, { recursive: true });
  sweep(outDir, names);
  const spill = join(outDir, `.spill-${process.pid}`);
  const duck = await loadDuckDB();
  const datasets: Record<string, ManifestDataset> = {};
  const report: ExportedTable[] = [];
  const totals = { partitions: 0, written: 0, kept: 0 };
  try {
    for (const info of infos) {
      const name = info.name;
      const instance = await duck.DuckDBInstance.create(datasetPath(info, dir), {
        access_mode: 'READ_ONLY',
        memory_limit: memoryLimit(o),
        temp_directory: spill,
      });
      const conn = await instance.connect();
      try {
        const specs = await specsOf(info, conn);
        const last = await lastSync(conn);
        const run: TableRun = { conn, format: o.format, outDir, dataset: name, schema: info.schema, prev: prev?.datasets[name], sinceRoot, progress: o.progress, onSwap: o.onSwap };
        const tables = [];
        for (const [i, spec] of specs.entries()) {
          const r = await exportTable(run, spec, i + 1, specs.length);
          tables.push(r.table);
          totals.partitions += r.table.partitions.length;
          totals.written += r.written;
          totals.kept += r.table.partitions.length - r.written;
          report.push({
            dataset: name,
            table: spec.name,
            path: join(outDir, r.table.path),
            rows: r.table.rows,
            ...(r.table.partition_columns.length ? { partitioned_by: r.table.partition_columns.map((c) => c.name).join(',') } : {}),
            partitions: r.table.partitions.length,
            files: r.table.files,
            bytes: r.table.bytes,
            written: r.written,
            ...(r.changesFrom ? { changes_from: r.changesFrom } : {}),
          });
        }
        dropOldTables(outDir, name, new Set(specs.map((s) => s.name)), existing?.datasets[name]);
        datasets[name] = {
          name, title: info.title, schema: info.schema, source: info.publisher, source_url: info.sourceUrl, licence: info.licence,
          attribution: info.attribution.replace('{year}', String((last?.synced_at ? new Date(String(last.synced_at)) : new Date()).getUTCFullYear())),
          as_of: last?.as_of ? String(last.as_of) : null,
          published: last?.published ? String(last.published) : null,
          synced_at: last?.synced_at ? String(last.synced_at) : null,
          tables,
        };
      } finally {
        conn.closeSync();
        instance.closeSync();
      }
    }
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
  const manifest: Manifest = {
    format_version: MANIFEST_VERSION,
    generator: `publicdata ${VERSION}`,
    generated_at: (o.now?.() ?? new Date()).toISOString(),
    format: o.format,
    compression: o.format === 'parquet' ? LAYOUT.compression : null,
    location: o.location ?? outDir,
    layout: { target_file_bytes: LAYOUT.targetFileBytes, row_group_rows: LAYOUT.rowGroupRows, split_factor: LAYOUT.splitFactor, compression_level: LAYOUT.compressionLevel },
    // datasets exported earlier into the same directory and not this time stay in the catalogue
    datasets: { ...(existing?.datasets ?? {}), ...datasets },
  };
  writeCatalogue(outDir, manifest);
  const rows = report.reduce((s, r) => s + r.rows, 0);
  const bytes = report.reduce((s, r) => s + r.bytes, 0);
  o.progress?.({ type: 'done', datasets: names.length, tables: report.length, rows, partitions: totals.partitions, rewritten: totals.written, kept: totals.kept, bytes, ms: Date.now() - started, out: outDir,
    ...(o.since ? { recorded: report.filter((r) => r.changes_from === 'sync-rows' || r.changes_from === 'sync-partitions').map((r) => `${r.dataset}/${r.table}`) } : {}) });
  return report;
}

/** Tables an earlier export of the dataset wrote that it no longer declares: removed with the dataset's export. */
function dropOldTables(outDir: string, dataset: string, keep: ReadonlySet<string>, old: ManifestDataset | undefined): void {
  for (const t of old?.tables ?? []) if (!keep.has(t.name)) rmSync(join(outDir, t.path), { recursive: true, force: true });
}

function writeCatalogue(outDir: string, m: Manifest): void {
  const ddlDir = join(outDir, 'ddl');
  mkdirSync(ddlDir, { recursive: true });
  for (const [file, text] of Object.entries(generateDdl(m))) writeAtomic(join(ddlDir, file), text);
  writeAtomic(join(outDir, MANIFEST), JSON.stringify(m, null, 2) + '\n');
}
