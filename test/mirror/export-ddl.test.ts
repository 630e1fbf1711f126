/**
 * The catalogue beside the lake: DDL for every table in every dialect, parsed by node-sql-parser where its
 * grammar has the dialect (hive for Spark SQL, trino, bigquery), names and column types checked against
 * the manifest through a type table written here (not the exporter's); the engine-specific clauses the
 * parser lacks (USING/PARTITIONED BY/LOCATION, WITH (...), WITH PARTITION COLUMNS/OPTIONS) are checked
 * from the text. duckdb.sql is run in a cold DuckDB: every view counts the mirror's rows.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'node-sql-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetInfo } from '../../src/mirror/catalog.js';
import { DATASETS } from '../../src/registry.js';
import { exportMirror } from '../../src/mirror/export.js';
import type { Manifest, ManifestTable } from '../../src/mirror/export-manifest.js';
import { cleanup, sqlOn } from '../support/mirror-helper.js';
import { buildAll, coldDuck } from './export-helper.js';

/** The registry's datasets by name. */
const INFO: Record<string, DatasetInfo> = Object.fromEntries(DATASETS.map((d) => [d.name, d]));

let root = '';
let mirror = '';
let lake = '';
let m: Manifest;
const ddl = (f: string) => readFileSync(join(lake, 'ddl', f), 'utf8');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-ddl-'));
  // every domain's datasets and the example's (a year partition, INTEGER; a month partition, VARCHAR; sync_log unpartitioned)
  mirror = await buildAll(root);
  lake = join(root, 'lake');
  await exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, mirrorDir: mirror });
  m = JSON.parse(readFileSync(join(lake, 'manifest.json'), 'utf8')) as Manifest;
}, 240_000);
afterAll(() => cleanup([root]));

const tables = (): ManifestTable[] => Object.values(m.datasets).flatMap((d) => d.tables);
/** Expected type names per dialect for the DuckDB types the lake holds (as the parser reports them). */
const TYPES: Record<string, Record<string, string>> = {
  spark: { VARCHAR: 'STRING', BIGINT: 'BIGINT', INTEGER: 'INT', SMALLINT: 'SMALLINT', TINYINT: 'TINYINT', BOOLEAN: 'BOOLEAN', DATE: 'DATE', TIMESTAMP: 'TIMESTAMP', DOUBLE: 'DOUBLE', DECIMAL: 'DECIMAL' },
  trino: { VARCHAR: 'VARCHAR', BIGINT: 'BIGINT', INTEGER: 'INTEGER', SMALLINT: 'SMALLINT', TINYINT: 'TINYINT', BOOLEAN: 'BOOLEAN', DATE: 'DATE', TIMESTAMP: 'TIMESTAMP', DOUBLE: 'DOUBLE', DECIMAL: 'DECIMAL' },
  bigquery: { VARCHAR: 'STRING', BIGINT: 'INT64', INTEGER: 'INT64', SMALLINT: 'INT64', TINYINT: 'INT64', BOOLEAN: 'BOOL', DATE: 'DATE', TIMESTAMP: 'DATETIME', DOUBLE: 'FLOAT64', DECIMAL: 'NUMERIC' },
};
const baseType = (t: string) => t.replace(/\(.*$/, '').toUpperCase();

/** Statements of a DDL file (none of the generated strings holds ';' followed by a newline). */
const statements = (text: string) => text.split(/;\s*\n/).map((s) => s.replace(/^(--[^\n]*\n)+/g, '').trim()).filter(Boolean);

interface Parsed { db: string | null; schema?: string; table: string; columns: Array<{ name: string; type: string }> }

function parseCreate(sql: string, database: string): Parsed {
  const ast = new Parser().astify(sql, { database });
  const c = (Array.isArray(ast) ? ast[0] : ast) as unknown as {
    table: Array<{ db: string | null; schema?: string; table: string }>;
    create_definitions: Array<{ column: { column: string | { expr: { value: string } } }; definition: { dataType: string } }>;
  };
  return {
    ...c.table[0]!,
    columns: c.create_definitions.map((d) => ({ name: typeof d.column.column === 'string' ? d.column.column : d.column.column.expr.value, type: d.definition.dataType })),
  };
}

/** The type a dialect's DDL must give a DuckDB type (lists as the dialect writes them; the parser reports ARRAY for BigQuery's). */
function wantType(dialect: string, t: string): string {
  if (t.endsWith('[]')) {
    const e = TYPES[dialect]![baseType(t.slice(0, -2))];
    return dialect === 'spark' ? `ARRAY<${e}>` : dialect === 'trino' ? `ARRAY(${e})` : 'ARRAY';
  }
  return TYPES[dialect]![baseType(t)] ?? `unexpected ${t}`;
}

/**
 * Types node-sql-parser 5.4's grammars lack though the engines have them (hive: BOOLEAN, ARRAY<..>; trino:
 * array(..)): such a column is parsed with a stand-in type and its type checked from the text instead.
 */
const LACKS: Record<string, { re: RegExp; standIn: string }> = {
  hive: { re: /^(BOOLEAN|ARRAY<.+>)$/, standIn: 'TINYINT' },
  trino: { re: /^array\(.+\)$/, standIn: 'varchar' },
  bigquery: { re: /^$/, standIn: '' },
};

function parseWithStandIns(head: string, database: string): Parsed {
  const lacks = LACKS[database]!;
  const original = new Map<string, string>();
  const text = head.replace(/^(\s+[`"](\w+)[`"] )(.+?)(,?)$/gm, (all, lead: string, name: string, type: string, comma: string) => {
    if (!lacks.re.test(type)) return all;
    original.set(name, type.toUpperCase());
    return `${lead}${lacks.standIn}${comma}`;
  });
  const p = parseCreate(text, database);
  return { ...p, columns: p.columns.map((c) => (original.has(c.name) ? { ...c, type: original.get(c.name)! } : c)) };
}

function expectColumns(got: Parsed['columns'], want: ManifestTable['columns'], dialect: string, where: string): void {
  expect(got.map((c) => c.name), where).toEqual(want.map((c) => c.name));
  expect(got.map((c) => c.type.toUpperCase()), where).toEqual(want.map((c) => wantType(dialect, c.type)));
}

describe('mirror export: DDL', () => {
  it('spark.sql: a datasource table per lake table (hive grammar), partitioned and located as the manifest says', () => {
    const creates = statements(ddl('spark.sql')).filter((s) => s.startsWith('CREATE TABLE'));
    expect(creates.length).toBe(tables().length);
    for (const t of tables()) {
      const [schema, name] = t.sql_name.split('.');
      const s = creates.find((x) => x.startsWith(`CREATE TABLE IF NOT EXISTS \`${schema}\`.\`${name}\` (`))!;
      expect(s, t.sql_name).toBeDefined();
      const head = s.slice(0, s.indexOf('\n) USING ') + 2);
      const p = parseWithStandIns(head, 'hive');
      expect([p.db, p.table]).toEqual([schema, name]);
      expectColumns(p.columns, [...t.columns, ...t.partition_columns], 'spark', t.sql_name);
      const tail = s.slice(head.length);
      expect(tail).toMatch(/^ USING PARQUET\n/);
      const part = /PARTITIONED BY \(([^)]*)\)/.exec(tail)?.[1];
      expect(part?.split(', ').map((x) => x.replace(/`/g, '')) ?? []).toEqual(t.partition_columns.map((c) => c.name));
      const loc = /LOCATION '([^']+)'$/.exec(tail)![1]!;
      expect(loc).toBe(`file://${join(lake, t.path)}`);
      expect(existsSync(loc.slice('file://'.length))).toBe(true);
    }
  });

  it('trino.sql: Hive connector tables (trino grammar), partition columns last and named in partitioned_by', () => {
    const creates = statements(ddl('trino.sql')).filter((s) => s.startsWith('CREATE TABLE'));
    expect(creates.length).toBe(tables().length);
    for (const t of tables()) {
      const [schema, name] = t.sql_name.split('.');
      const s = creates.find((x) => x.startsWith(`CREATE TABLE IF NOT EXISTS hive."${schema}"."${name}" (`))!;
      const head = s.slice(0, s.indexOf('\n) WITH (') + 2);
      const p = parseWithStandIns(head, 'trino');
      expect([p.db, p.schema, p.table]).toEqual(['hive', schema, name]);
      expectColumns(p.columns, [...t.columns, ...t.partition_columns], 'trino', t.sql_name);
      const props = s.slice(head.length);
      expect(props).toContain(`external_location = 'file://${join(lake, t.path)}'`);
      expect(props).toContain("format = 'PARQUET'");
      const arr = /partitioned_by = ARRAY\[([^\]]*)\]/.exec(props)?.[1];
      expect(arr?.split(', ').map((x) => x.replace(/'/g, '')) ?? []).toEqual(t.partition_columns.map((c) => c.name));
    }
    expect(ddl('trino.sql')).toContain("CALL hive.system.sync_partition_metadata('example_records', 'records', 'FULL');");
  });

  it('bigquery.sql and bigquery.json: external tables with hive partitioning (bigquery grammar for the columns)', () => {
    const creates = statements(ddl('bigquery.sql')).filter((s) => s.startsWith('CREATE EXTERNAL TABLE'));
    const defs = (JSON.parse(ddl('bigquery.json')) as { tables: Array<{ dataset: string; table: string; externalDataConfiguration: any }> }).tables;
    expect(creates.length).toBe(tables().length);
    expect(defs.length).toBe(tables().length);
    for (const t of tables()) {
      const [schema, name] = t.sql_name.split('.');
      const s = creates.find((x) => x.startsWith(`CREATE EXTERNAL TABLE IF NOT EXISTS \`${schema}\`.\`${name}\` (`))!;
      // the grammar has CREATE TABLE (cols) but neither EXTERNAL nor WITH PARTITION COLUMNS: parse each column list as a table
      const head = s.slice(0, s.indexOf('\n)') + 2);
      expectColumns(parseCreate(head.replace('CREATE EXTERNAL TABLE', 'CREATE TABLE'), 'bigquery').columns, t.columns, 'bigquery', t.sql_name);
      const pc = /WITH PARTITION COLUMNS \(\n([\s\S]*?)\n\)/.exec(s)?.[1];
      if (t.partition_columns.length) expectColumns(parseCreate(`CREATE TABLE p.q (\n${pc}\n)`, 'bigquery').columns, t.partition_columns, 'bigquery', t.sql_name);
      else expect(pc).toBeUndefined();
      const def = defs.find((d) => d.dataset === schema && d.table === name)!.externalDataConfiguration;
      expect(def.sourceFormat).toBe('PARQUET');
      expect(def.sourceUris).toEqual([`file://${join(lake, t.path)}/*`]);
      expect(def.schema.fields.map((f: { name: string }) => f.name)).toEqual(t.columns.map((c) => c.name));
      if (t.partition_columns.length) {
        // BigQuery's custom key schema names STRING, INTEGER, DATE or TIMESTAMP (years are INTEGER, a 'YYYY-MM' month STRING)
        const key = (type: string) => (/^(BIGINT|INTEGER|SMALLINT|TINYINT)$/.test(type) ? 'INTEGER' : type === 'VARCHAR' ? 'STRING' : type);
        expect(def.hivePartitioningOptions).toEqual({ mode: 'CUSTOM', sourceUriPrefix: `file://${join(lake, t.path)}/${t.partition_columns.map((c) => `{${c.name}:${key(c.type)}}`).join('/')}`, requirePartitionFilter: false });
      } else expect(def.hivePartitioningOptions).toBeUndefined();
    }
  });

  it('duckdb.sql runs in a cold DuckDB: every view counts what the mirror holds', async () => {
    const views = tables().map((t) => t.sql_name);
    const counts = await coldDuck<Record<string, string>>(`SELECT ${views.map((v, i) => `(SELECT count(*) FROM ${v.split('.').map((x) => `"${x}"`).join('.')}) AS c${i}`).join(', ')}`, statements(ddl('duckdb.sql')));
    for (const [name, ds] of Object.entries(m.datasets)) {
      for (const t of ds.tables) {
        const spec = INFO[name]!.export?.tables.find((x) => x.name === t.name);
        const [n] = await sqlOn(join(mirror, INFO[name]!.file), `SELECT count(*)::BIGINT AS n FROM (${spec?.select ?? `SELECT * FROM "${t.name}"`})`);
        expect(Number(counts[0]![`c${views.indexOf(t.sql_name)}`]), t.sql_name).toBe(Number(n!.n));
      }
    }
    // partition columns come back typed as declared
    const [y] = await coldDuck<{ t: string }>(`SELECT typeof(year) AS t FROM example_records.records LIMIT 1`, statements(ddl('duckdb.sql')));
    expect(y!.t).toBe('INTEGER');
    const [mo] = await coldDuck<{ t: string; n: number }>(`SELECT typeof(month) AS t, count(DISTINCT month)::INTEGER AS n FROM example_events.records GROUP BY 1`, statements(ddl('duckdb.sql')));
    expect(mo).toEqual({ t: 'VARCHAR', n: 2 });
  });
});
