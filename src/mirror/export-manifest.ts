/**
 * The catalogue beside a lake: `manifest.json` (machine-readable: tables, columns with DuckDB and Parquet
 * logical types, partition columns, row counts, provenance, and per-partition fingerprints that drive
 * `--since`). Written atomically (temp file + rename) after the data.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LakeFile } from './export-write.js';
import type { ExportFormat } from './export-table.js';

export const MANIFEST = 'manifest.json';
export const MANIFEST_VERSION = 1;

export interface ManifestColumn {
  name: string;
  /** DuckDB type of the column. */
  type: string;
  /** Parquet logical (or physical, where no logical type applies) type as written. */
  logical_type: string;
}

export interface ManifestPartition {
  /** Hive path under the table directory (`year=2024`; '' when unpartitioned). */
  path: string;
  values: Record<string, string | number | boolean | null>;
  rows: number;
  /** `rows:sum of row hashes` of the mirror rows the files were written from (see docs/export.md). */
  fingerprint: string;
  files: LakeFile[];
}

export interface ManifestTable {
  name: string;
  /** `<schema>.<name>`, the name every DDL file gives the table. */
  sql_name: string;
  description: string;
  /** Table directory, relative to the lake root. */
  path: string;
  columns: ManifestColumn[];
  partition_columns: Array<ManifestColumn & { expr: string }>;
  sort_columns: string[];
  /** sorted: every file in order; clustered: in ascending runs (a parallel partitioned write); none. */
  order: 'sorted' | 'clustered' | 'none';
  rows: number;
  files: number;
  bytes: number;
  layout_hash: string;
  partitions: ManifestPartition[];
}

export interface ManifestDataset {
  name: string;
  title: string;
  schema: string;
  source: string;
  source_url: string;
  licence: string;
  attribution: string;
  /** The data's as-of date from the last sync (meta.as_of), or null when the sync stated none. */
  as_of: string | null;
  /** The upstream publication date the last sync recorded, when the publisher states one. */
  published: string | null;
  synced_at: string | null;
  tables: ManifestTable[];
}

export interface Manifest {
  format_version: number;
  generator: string;
  generated_at: string;
  format: ExportFormat;
  compression: string | null;
  /** The lake root the DDL points at (the output directory, or --location). */
  location: string;
  layout: { target_file_bytes: number; row_group_rows: number; split_factor: number; compression_level: number };
  datasets: Record<string, ManifestDataset>;
}

/** The manifest of an earlier export (a directory or its manifest.json), or undefined when there is none. */
export function readManifest(dirOrFile: string): Manifest | undefined {
  const file = existsSync(dirOrFile) && statSync(dirOrFile).isDirectory() ? join(dirOrFile, MANIFEST) : dirOrFile;
  if (!existsSync(file)) return undefined;
  const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (m.format_version !== MANIFEST_VERSION || typeof m.datasets !== 'object') {
    throw new Error(`${file} is not a publicdata export manifest (format_version ${MANIFEST_VERSION})`);
  }
  return m;
}

/** Write a file atomically: a temp file beside it, then rename. */
export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Parquet logical type DuckDB writes for a column type (docs: DuckDB Parquet type mapping). */
export function parquetLogicalType(type: string): string {
  const t = type.toUpperCase();
  if (t.endsWith('[]')) return `LIST<${parquetLogicalType(type.slice(0, -2))}>`;
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (dec) return `DECIMAL(${dec[1]},${dec[2]})`;
  const map: Record<string, string> = {
    VARCHAR: 'STRING',
    BIGINT: 'INTEGER(64,true)',
    INTEGER: 'INTEGER(32,true)',
    SMALLINT: 'INTEGER(16,true)',
    TINYINT: 'INTEGER(8,true)',
    BOOLEAN: 'BOOLEAN',
    DATE: 'DATE',
    TIMESTAMP: 'TIMESTAMP(MICROS,false)',
    'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP(MICROS,true)',
    DOUBLE: 'DOUBLE',
    FLOAT: 'FLOAT',
  };
  const m = map[t];
  if (!m) throw new Error(`mirror export: no Parquet type mapping for DuckDB type ${type} (add one in src/mirror/export-manifest.ts)`);
  return m;
}
