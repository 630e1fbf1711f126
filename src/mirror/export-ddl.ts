/**
 * Ready DDL for the lake, generated from the manifest (one schema, four dialects): Spark SQL datasource
 * tables, Trino's Hive connector, BigQuery external tables (a definition file for `bq mk
 * --external_table_definition` and the equivalent `CREATE EXTERNAL TABLE`), and DuckDB views.
 * Each dataset is a schema (database) under its mirror schema name, as in `publicdata sql`.
 */
import type { Manifest, ManifestColumn, ManifestTable } from './export-manifest.js';

export interface DdlFiles {
  'spark.sql': string;
  'trino.sql': string;
  'bigquery.json': string;
  'bigquery.sql': string;
  'duckdb.sql': string;
}

/** The Trino catalog the DDL names (a Hive connector catalog); docs/export.md says how to change it. */
export const TRINO_CATALOG = 'hive';

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const bt = (s: string) => `\`${s.replace(/`/g, '')}\``;
const dq = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A URI engines on other machines accept: an absolute local path becomes file:///path. */
export function locationUri(root: string): string {
  return root.startsWith('/') ? `file://${root}` : root;
}
const join = (root: string, path: string) => `${root.replace(/\/+$/, '')}/${path}`;

function split(type: string): { base: string; dec?: [number, number]; list: boolean } {
  const t = type.toUpperCase();
  if (t.endsWith('[]')) return { ...split(type.slice(0, -2)), list: true };
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  return dec ? { base: 'DECIMAL', dec: [Number(dec[1]), Number(dec[2])], list: false } : { base: t, list: false };
}

function unmapped(dialect: string, type: string): never {
  throw new Error(`mirror export: no ${dialect} type for DuckDB type ${type} (add one in src/mirror/export-ddl.ts)`);
}

export function sparkType(type: string): string {
  const s = split(type);
  const m: Record<string, string> = {
    VARCHAR: 'STRING', BIGINT: 'BIGINT', INTEGER: 'INT', SMALLINT: 'SMALLINT', TINYINT: 'TINYINT', BOOLEAN: 'BOOLEAN',
    DATE: 'DATE', TIMESTAMP: 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP', DOUBLE: 'DOUBLE', FLOAT: 'FLOAT',
  };
  const b = s.dec ? `DECIMAL(${s.dec[0]},${s.dec[1]})` : m[s.base] ?? unmapped('Spark', type);
  return s.list ? `ARRAY<${b}>` : b;
}

export function trinoType(type: string): string {
  const s = split(type);
  const m: Record<string, string> = {
    VARCHAR: 'varchar', BIGINT: 'bigint', INTEGER: 'integer', SMALLINT: 'smallint', TINYINT: 'tinyint', BOOLEAN: 'boolean',
    DATE: 'date', TIMESTAMP: 'timestamp(6)', 'TIMESTAMP WITH TIME ZONE': 'timestamp(6) with time zone', DOUBLE: 'double', FLOAT: 'real',
  };
  const b = s.dec ? `decimal(${s.dec[0]},${s.dec[1]})` : m[s.base] ?? unmapped('Trino', type);
  return s.list ? `array(${b})` : b;
}

/** BigQuery type and mode (Parquet DECIMAL up to 29 integer digits and scale 9 fits NUMERIC, else BIGNUMERIC). */
export function bigQueryType(type: string): { type: string; mode: 'NULLABLE' | 'REPEATED' } {
  const s = split(type);
  const m: Record<string, string> = {
    VARCHAR: 'STRING', BIGINT: 'INT64', INTEGER: 'INT64', SMALLINT: 'INT64', TINYINT: 'INT64', BOOLEAN: 'BOOL',
    DATE: 'DATE', TIMESTAMP: 'DATETIME', 'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP', DOUBLE: 'FLOAT64', FLOAT: 'FLOAT64',
  };
  const b = s.dec ? (s.dec[0] - s.dec[1] <= 29 && s.dec[1] <= 9 ? 'NUMERIC' : 'BIGNUMERIC') : m[s.base] ?? unmapped('BigQuery', type);
  return { type: b, mode: s.list ? 'REPEATED' : 'NULLABLE' };
}

/** The key types BigQuery's custom hive partition schema accepts: STRING, INTEGER, DATE, TIMESTAMP. */
function bigQueryKeyType(type: string): string {
  const b = bigQueryType(type).type;
  return b === 'INT64' ? 'INTEGER' : b === 'DATE' || b === 'TIMESTAMP' ? b : 'STRING';
}

const allColumns = (t: ManifestTable): ManifestColumn[] => [...t.columns, ...t.partition_columns];
const schemaOf = (t: ManifestTable) => t.sql_name.split('.')[0]!;

function spark(m: Manifest, uri: string): string {
  const out = [header(m, 'Spark SQL (3.x): datasource tables over the Parquet files; MSCK REPAIR TABLE loads the partitions.')];
  for (const ds of Object.values(m.datasets)) {
    out.push(`CREATE DATABASE IF NOT EXISTS ${bt(ds.schema)};`);
    for (const t of ds.tables) {
      const [s, n] = [schemaOf(t), t.name];
      const cols = allColumns(t).map((c) => `  ${bt(c.name)} ${sparkType(c.type)}`).join(',\n');
      const parts = t.partition_columns.length ? `\nPARTITIONED BY (${t.partition_columns.map((c) => bt(c.name)).join(', ')})` : '';
      const fmt = m.format === 'parquet' ? 'PARQUET' : "CSV\nOPTIONS (header 'true')";
      out.push(`CREATE TABLE IF NOT EXISTS ${bt(s)}.${bt(n)} (\n${cols}\n) USING ${fmt}${parts}\nLOCATION ${sqlString(join(uri, t.path))};`);
      if (t.partition_columns.length) out.push(`MSCK REPAIR TABLE ${bt(s)}.${bt(n)};`);
    }
  }
  return out.join('\n\n') + '\n';
}

function trino(m: Manifest, uri: string): string {
  const out = [header(m, `Trino, Hive connector (catalog '${TRINO_CATALOG}'): external tables; sync_partition_metadata registers the partitions.`)];
  for (const ds of Object.values(m.datasets)) {
    out.push(`CREATE SCHEMA IF NOT EXISTS ${TRINO_CATALOG}.${dq(ds.schema)};`);
    for (const t of ds.tables) {
      const q = `${TRINO_CATALOG}.${dq(schemaOf(t))}.${dq(t.name)}`;
      // Trino's Hive connector reads CSV tables only as varchar columns
      const cols = allColumns(t).map((c) => `  ${dq(c.name)} ${m.format === 'csv' && !t.partition_columns.includes(c as never) ? 'varchar' : trinoType(c.type)}`).join(',\n');
      const props = [`external_location = ${sqlString(join(uri, t.path))}`, `format = ${sqlString(m.format === 'parquet' ? 'PARQUET' : 'CSV')}`];
      if (m.format === 'csv') props.push(`skip_header_line_count = 1`);
      if (t.partition_columns.length) props.push(`partitioned_by = ARRAY[${t.partition_columns.map((c) => sqlString(c.name)).join(', ')}]`);
      out.push(`CREATE TABLE IF NOT EXISTS ${q} (\n${cols}\n) WITH (\n  ${props.join(',\n  ')}\n);`);
      if (t.partition_columns.length) {
        out.push(`CALL ${TRINO_CATALOG}.system.sync_partition_metadata(${sqlString(schemaOf(t))}, ${sqlString(t.name)}, 'FULL');`);
      }
    }
  }
  return out.join('\n\n') + '\n';
}

/** External data configuration of one table (the JSON `bq mk --external_table_definition` reads). */
function bigQueryDefinition(m: Manifest, root: string, t: ManifestTable) {
  const dir = join(root, t.path);
  const hive = t.partition_columns.length
    ? {
        hivePartitioningOptions: {
          mode: 'CUSTOM',
          sourceUriPrefix: `${dir}/${t.partition_columns.map((c) => `{${c.name}:${bigQueryKeyType(c.type)}}`).join('/')}`,
          requirePartitionFilter: false,
        },
      }
    : {};
  return {
    sourceFormat: m.format === 'parquet' ? 'PARQUET' : 'CSV',
    sourceUris: [`${dir}/*`],
    ...hive,
    ...(m.format === 'csv' ? { csvOptions: { skipLeadingRows: 1 } } : { parquetOptions: { enableListInference: true } }),
    schema: { fields: t.columns.map((c) => ({ name: c.name, ...bigQueryType(c.type) })) },
  };
}

function bigQueryJson(m: Manifest, root: string): string {
  const tables = Object.values(m.datasets).flatMap((ds) =>
    ds.tables.map((t) => ({ dataset: ds.schema, table: t.name, externalDataConfiguration: bigQueryDefinition(m, root, t) })),
  );
  return JSON.stringify({ generated_at: m.generated_at, location: root, tables }, null, 2) + '\n';
}

function bigQuerySql(m: Manifest, root: string): string {
  const out = [header(m, 'BigQuery: external tables over the files (location must be a gs:// URI: export with --location gs://bucket/path).')];
  for (const ds of Object.values(m.datasets)) {
    out.push(`CREATE SCHEMA IF NOT EXISTS ${bt(ds.schema)};`);
    for (const t of ds.tables) {
      const def = bigQueryDefinition(m, root, t);
      const cols = t.columns.map((c) => `  ${bt(c.name)} ${bigQueryType(c.type).mode === 'REPEATED' ? `ARRAY<${bigQueryType(c.type).type}>` : bigQueryType(c.type).type}`).join(',\n');
      const parts = t.partition_columns.length
        ? `\nWITH PARTITION COLUMNS (\n${t.partition_columns.map((c) => `  ${bt(c.name)} ${bigQueryType(c.type).type}`).join(',\n')}\n)`
        : '';
      const opts = [`format = ${sqlString(def.sourceFormat)}`, `uris = [${sqlString(def.sourceUris[0]!)}]`];
      if (t.partition_columns.length) opts.push(`hive_partition_uri_prefix = ${sqlString(join(root, t.path))}`);
      if (m.format === 'csv') opts.push('skip_leading_rows = 1');
      out.push(`CREATE EXTERNAL TABLE IF NOT EXISTS ${bt(schemaOf(t))}.${bt(t.name)} (\n${cols}\n)${parts}\nOPTIONS (\n  ${opts.join(',\n  ')}\n);`);
    }
  }
  return out.join('\n\n') + '\n';
}

function duckdb(m: Manifest, root: string): string {
  const out = [header(m, 'DuckDB: a view per table over the files (hive partitioning, partition types stated).')];
  for (const ds of Object.values(m.datasets)) {
    out.push(`CREATE SCHEMA IF NOT EXISTS ${dq(ds.schema)};`);
    for (const t of ds.tables) {
      const ext = m.format === 'parquet' ? 'parquet' : 'csv';
      const glob = join(join(root, t.path), `${'*/'.repeat(t.partition_columns.length)}*.${ext}`);
      const opts: string[] = [];
      if (t.partition_columns.length) {
        opts.push('hive_partitioning = true', `hive_types = {${t.partition_columns.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`).join(', ')}}`);
      }
      if (m.format === 'csv') opts.push('header = true', `columns = {${t.columns.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`).join(', ')}}`);
      const fn = m.format === 'parquet' ? 'read_parquet' : 'read_csv';
      out.push(`CREATE OR REPLACE VIEW ${dq(schemaOf(t))}.${dq(t.name)} AS SELECT * FROM ${fn}(${[sqlString(glob), ...opts].join(', ')});`);
    }
  }
  return out.join('\n\n') + '\n';
}

function header(m: Manifest, what: string): string {
  return `-- ${what}\n-- Generated by ${m.generator} at ${m.generated_at} from manifest.json; lake root: ${m.location}`;
}

/** Every DDL file of a manifest. Spark/Trino get file:// URIs for a local root; DuckDB the path as is. */
export function generateDdl(m: Manifest): DdlFiles {
  const uri = locationUri(m.location);
  return {
    'spark.sql': spark(m, uri),
    'trino.sql': trino(m, uri),
    'bigquery.json': bigQueryJson(m, uri),
    'bigquery.sql': bigQuerySql(m, uri),
    'duckdb.sql': duckdb(m, m.location),
  };
}
