/**
 * One lake table of `mirror export`: its plan (columns, casts, partition columns) from the dataset's
 * declaration (src/mirror/export-spec.ts), and its per-partition fingerprints (row count and a sum of row
 * hashes), which say which partitions an incremental export must rewrite.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { query, quoteIdent } from './db.js';
import type { ExportTableSpec } from './export-spec.js';

export type ExportFormat = 'parquet' | 'csv';

/** The layout every Parquet lake table is written with (docs/export.md explains the figures). */
export const LAYOUT = {
  /** Target file size: unpartitioned tables roll over to a new file past it; bigger partitions are split. */
  targetFileBytes: 128 * 1024 * 1024,
  /** A partition's single file is split into target-sized files once it is this much over the target. */
  splitFactor: 1.5,
  /** Rows per row group (DuckDB's default vector multiple; ~4-15 MB compressed for these tables). */
  rowGroupRows: 122_880,
  compression: 'zstd',
  /**
   * ZSTD level 1, not DuckDB's default 3: on the price-paid table level 1 took 25% less CPU and wrote 2.5%
   * smaller files (3M rows: 3.8-4.2 vs 5.1-5.2 CPU s, 99.5 vs 102.0 MB; docs/export.md).
   */
  compressionLevel: 1,
} as const;

export interface LakeColumn {
  name: string;
  /** DuckDB type of the column as written (after the casts below). */
  type: string;
}

export interface TablePlan {
  spec: ExportTableSpec;
  /** Columns in the files (partition columns excluded). */
  columns: LakeColumn[];
  /** Partition columns (in the path), with their DuckDB type. */
  partitionColumns: LakeColumn[];
  /** The rows as written: file columns then partition columns. */
  select: string;
  /** The declared rows (before casts), for fingerprints. */
  base: string;
  /** The declared rows' columns (before casts). */
  baseColumns: LakeColumn[];
  /** Hash of what shapes the files (columns, types, partitioning, order, format): a change rewrites all. */
  layoutHash: string;
}

/**
 * Types no engine reads the same way in Parquet, written as one they all do: UUID, JSON and TIME as text
 * (Spark has no UUID or TIME type), HUGEINT as DECIMAL(38,0), unsigned integers widened, ENUM as text.
 */
export function exportCast(type: string): string | undefined {
  const t = type.toUpperCase();
  if (t === 'UUID' || t === 'JSON' || t === 'TIME' || t.startsWith('ENUM(')) return 'VARCHAR';
  if (t === 'HUGEINT' || t === 'UHUGEINT' || t === 'UBIGINT') return 'DECIMAL(38,0)';
  if (t === 'UINTEGER') return 'BIGINT';
  if (t === 'USMALLINT') return 'INTEGER';
  if (t === 'UTINYINT') return 'SMALLINT';
  if (t === 'TIMESTAMP_NS' || t === 'TIMESTAMP_MS' || t === 'TIMESTAMP_S') return 'TIMESTAMP';
  return undefined;
}

async function describe(conn: DuckDBConnection, sql: string): Promise<LakeColumn[]> {
  const rows = await query<{ column_name: string; column_type: string }>(conn, `DESCRIBE ${sql}`);
  return rows.map((r) => ({ name: r.column_name, type: r.column_type }));
}

/** The plan of one table from its declaration, described against the dataset file. */
export async function planTable(conn: DuckDBConnection, spec: ExportTableSpec, format: ExportFormat): Promise<TablePlan> {
  const base = spec.select ?? `SELECT * FROM ${quoteIdent(spec.name)}`;
  const declared = await describe(conn, base);
  const parts = spec.partitionBy ?? [];
  const moved = new Set(parts.map((p) => p.column));
  const fileCols = declared.filter((c) => !moved.has(c.name));
  const colSql = fileCols.map((c) => {
    const cast = exportCast(c.type);
    return cast ? `CAST(s.${quoteIdent(c.name)} AS ${cast}) AS ${quoteIdent(c.name)}` : `s.${quoteIdent(c.name)}`;
  });
  const partSql = parts.map((p) => `(${p.expr}) AS ${quoteIdent(p.column)}`);
  const select = `SELECT ${[...colSql, ...partSql].join(', ')} FROM (${base}) s`;
  const all = await describe(conn, select);
  const columns = all.slice(0, fileCols.length);
  const partitionColumns = all.slice(fileCols.length);
  for (const s of spec.sortBy ?? []) {
    if (!all.some((c) => c.name === s)) throw new Error(`export of ${spec.name}: sort column '${s}' is not a column of its rows`);
  }
  const layoutHash = createHash('sha256')
    .update(JSON.stringify({ format, columns: all, parts, sort: spec.sortBy ?? [], stored: !!spec.stored, layout: LAYOUT }))
    .digest('hex')
    .slice(0, 16);
  return { spec, columns, partitionColumns, select, base, baseColumns: declared, layoutHash };
}

/** A partition's identity: its values by column and its Hive path (`year=2024`; '' when unpartitioned). */
export interface PartitionKey {
  values: Record<string, string | number | boolean | null>;
  path: string;
}

export interface PartitionPrint extends PartitionKey {
  rows: number;
  /** count and the sum of 64-bit row hashes (HUGEINT, exact): equal prints, equal rows (bar a hash collision). */
  fingerprint: string;
}

/** Hive path segment of a value, as DuckDB writes it (`col=value`, NULL as `col=NULL`; text percent-encoded). */
export function hivePath(values: PartitionKey['values']): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v === null ? 'NULL' : encodeURIComponent(String(v))}`)
    .join('/');
}

/**
 * Row count and fingerprint of every partition (one partition, path '', for an unpartitioned table), or
 * of the partitions `only` names (those of them with no rows are left out): one scan with a GROUP BY on
 * the partition expressions. The hash covers the declared rows (before casts).
 */
export async function fingerprints(conn: DuckDBConnection, plan: TablePlan, only?: readonly PartitionKey[]): Promise<PartitionPrint[]> {
  const parts = plan.spec.partitionBy ?? [];
  const keys = parts.map((p) => `(${p.expr}) AS ${quoteIdent(p.column)}`);
  const { where, params } = only ? await partitionWhere(conn, plan, only) : { where: '', params: [] };
  const sql =
    `SELECT ${[...keys, 'count(*) AS n', 'sum(hash(s)::HUGEINT)::VARCHAR AS h'].join(', ')} FROM (${plan.base}) s${where}` +
    (keys.length ? ` GROUP BY ALL ORDER BY ${keys.map((_, i) => i + 1).join(', ')}` : '');
  const rows = await query<Record<string, string | number | boolean | null>>(conn, sql, params);
  return rows.map((r) => {
    const values = Object.fromEntries(parts.map((p) => [p.column, r[p.column] ?? null]));
    return { values, path: hivePath(values), rows: Number(r.n), fingerprint: `${Number(r.n)}:${r.h ?? '0'}` };
  });
}

/**
 * WHERE clause and parameters selecting some partitions of a table (none: every row), numbered from
 * `$first` (DuckDB binds a COPY's `TO ?` before the query's own `?`, so the caller numbers them).
 */
export function partitionFilter(plan: TablePlan, keys: readonly PartitionKey[], first = 1): { where: string; params: Array<string | number | boolean | null> } {
  const parts = plan.spec.partitionBy ?? [];
  if (!parts.length) return { where: '', params: [] };
  const params: Array<string | number | boolean | null> = [];
  if (parts.length === 1) {
    // one column: IN (…), a little cheaper than a chain of IS NOT DISTINCT FROM; NULL apart
    const p = parts[0]!;
    const vals = keys.map((k) => k.values[p.column] ?? null);
    const terms = vals.some((v) => v !== null) ? [`(${p.expr}) IN (${vals.filter((v) => v !== null).map((v) => (params.push(v), `$${first + params.length - 1}`)).join(', ')})`] : [];
    if (vals.includes(null)) terms.push(`(${p.expr}) IS NULL`);
    return { where: ` WHERE ${terms.join(' OR ')}`, params };
  }
  const terms = keys.map((k) => {
    const eq = parts.map((p) => {
      params.push(k.values[p.column] ?? null);
      return `(${p.expr}) IS NOT DISTINCT FROM $${first + params.length - 1}`;
    });
    return `(${eq.join(' AND ')})`;
  });
  return { where: ` WHERE ${terms.join(' OR ')}`, params };
}

/** The ORDER BY of the written rows: none when the mirror stores them in that order already. */
export function orderBy(plan: TablePlan): string {
  if (plan.spec.stored) return '';
  const cols = [...(plan.spec.partitionBy ?? []).map((p) => p.column), ...(plan.spec.sortBy ?? [])];
  return cols.length ? ` ORDER BY ${cols.map(quoteIdent).join(', ')}` : '';
}

/** Column types whose bounds travel as text and back exactly (a pushed-down BETWEEN on them). */
const BOUNDABLE = /^(DATE|TIMESTAMP|TINYINT|SMALLINT|INTEGER|BIGINT|VARCHAR)$/;

/**
 * `partitionFilter`, plus for each column of the rows that a partition expression reads (e.g. `date` in
 * `CAST(year(date) AS INTEGER)`) `s.col BETWEEN lo AND hi`, lo and hi that column's least and greatest
 * value in the selected partitions (one scan of that column only). DuckDB cannot push a filter on an
 * expression into the scan, so without it every column of every row is decoded before the filter; with
 * it the scan reads the column, then the other columns of the rows in range only (a 2M-row price-paid
 * fingerprint of two years: 0.10 instead of 0.17-0.27 CPU s). It never changes the rows selected: the
 * bounds are those of the selected rows (a column with NULLs there gets none).
 */
export async function partitionWhere(
  conn: DuckDBConnection,
  plan: TablePlan,
  keys: readonly PartitionKey[],
  first = 1,
): Promise<{ where: string; params: Array<string | number | boolean | null> }> {
  const f = partitionFilter(plan, keys, first);
  const exprs = (plan.spec.partitionBy ?? []).map((p) => p.expr);
  if (!f.where || !keys.length) return f;
  const read = plan.baseColumns.filter(
    (c) => BOUNDABLE.test(c.type) && exprs.some((e) => new RegExp(`(^|[^A-Za-z0-9_"])("?)${c.name.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\2($|[^A-Za-z0-9_"])`).test(e)),
  );
  if (!read.length) return f;
  const local = partitionFilter(plan, keys, 1);
  const aggs = read.flatMap((c, i) => {
    const col = `s.${quoteIdent(c.name)}`;
    return [`min(${col})::VARCHAR AS lo${i}`, `max(${col})::VARCHAR AS hi${i}`, `count(*) FILTER (${col} IS NULL) AS nulls${i}`];
  });
  const b = (await query<Record<string, string | number | null>>(conn, `SELECT ${aggs.join(', ')} FROM (${plan.base}) s${local.where}`, local.params))[0];
  const params = [...f.params];
  const terms: string[] = [];
  read.forEach((c, i) => {
    const [lo, hi, nulls] = [b?.[`lo${i}`], b?.[`hi${i}`], Number(b?.[`nulls${i}`] ?? 0)];
    if (lo === null || lo === undefined || hi === null || hi === undefined || nulls > 0) return;
    params.push(String(lo), String(hi));
    const n = first + params.length - 2;
    terms.push(`s.${quoteIdent(c.name)} BETWEEN CAST($${n} AS ${c.type}) AND CAST($${n + 1} AS ${c.type})`);
  });
  if (!terms.length) return f;
  return { where: ` WHERE (${f.where.slice(' WHERE '.length)}) AND ${terms.join(' AND ')}`, params };
}
