/**
 * The record of the rows an incremental load changed, so `mirror export --since` can tell the partitions
 * it must rewrite without fingerprinting every row of the table (docs/export.md "Incremental").
 *
 * A load that changes a table in place (DELETE + INSERT on the copy of the live file) calls
 * `beginChanges` first, then `recordChanged` with the rows it is about to delete (their old versions,
 * sign -1) and with the rows it inserted (their new versions, sign +1). The rows go to
 * `sync_changes__<table>` (the table's own columns, so the exporter applies its partition expressions
 * and its row hash to them as to the table, plus `sync_change_sign`), and
 * `sync_changes` names the sync_log entry the changes were applied to. Each load replaces the previous
 * load's record; a full load starts from an empty file, so it has none.
 *
 * A load that replaces whole slices of a table (crime: the months it loaded, every other month copied
 * from the previous file) records them by key instead (`recordChangedKeys`: `sync_changes_keys__<table>`,
 * the key values only): the exporter fingerprints those partitions alone and keeps the others.
 *
 * The exporter trusts a record only when it describes exactly the step from the earlier export to now:
 * its base is the sync the earlier export was made from, and that sync is the one right before the last
 * (no sync in between that did not record). Otherwise it fingerprints every partition as before.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { query, queryOne, quoteIdent } from './db.js';
import { hivePath, type PartitionKey, type TablePlan } from './export-table.js';

export const CHANGES_INDEX = 'sync_changes';
export const SIGN = 'sync_change_sign';

const CHANGES_DDL = `CREATE TABLE IF NOT EXISTS ${CHANGES_INDEX} (
  table_name     VARCHAR   NOT NULL, -- the table whose changed rows sync_changes__<table_name> holds
  base_synced_at TIMESTAMP,          -- the last sync_log entry of the data the load changed
  recorded_at    TIMESTAMP NOT NULL
)`;

/** The table holding a table's changed rows (old and new versions). */
export const changesTable = (table: string): string => quoteIdent(`${CHANGES_INDEX}__${table}`);

/** The table holding the key values of the rows a load replaced (e.g. crime's months): `sync_changes_keys__<table>`. */
export const keysTable = (table: string): string => quoteIdent(`${CHANGES_INDEX}_keys__${table}`);

/** Start a load's record of the rows it changes in `table` (the previous load's record of it goes). */
export async function beginChanges(conn: DuckDBConnection, table: string): Promise<void> {
  await conn.run(CHANGES_DDL);
  await conn.run(`DELETE FROM ${CHANGES_INDEX} WHERE table_name = ?`, [table]);
  await conn.run(`DROP TABLE IF EXISTS ${keysTable(table)}`);
  await conn.run(`CREATE OR REPLACE TABLE ${changesTable(table)} AS SELECT *, 0::TINYINT AS ${SIGN} FROM ${quoteIdent(table)} LIMIT 0`);
  await conn.run(`INSERT INTO ${CHANGES_INDEX} SELECT ?, (SELECT max(synced_at) FROM sync_log), now()::TIMESTAMP`, [table]);
}

/**
 * Record changed rows: `select` gives rows of the table's columns (in its column order, or in the order
 * of `columns`, a comma-separated list): the rows about to be deleted (`removed`: `SELECT * FROM t WHERE
 * id IN (…)`, run before the DELETE with the same condition) or the new versions (`added`), selected as
 * they are inserted (the same casts apply).
 */
export async function recordChanged(conn: DuckDBConnection, table: string, change: 'removed' | 'added', select: string, columns?: string): Promise<void> {
  const cols = columns ? `(${columns}, ${SIGN}) ` : '';
  await conn.run(`INSERT INTO ${changesTable(table)} ${cols}SELECT *, ${change === 'added' ? 1 : -1} FROM (${select}) r`);
}

/**
 * Record which rows of `table` a load may have changed, by key: the rows whose `columns` take one of the
 * values `select` gives (e.g. crime's months: those the sync loaded, and those of the rows it inserted);
 * every other row is exactly as in the previous file. For a load that builds a new file keeping the
 * previous file's other rows (crime: a 'full' load with the previous file attached), the record's base is
 * the previous file's last sync, read from `baseLog` (`prev.sync_log`); the sync_log of the new file is
 * written after the load. Replaces any earlier record of the table (rows or keys).
 */
export async function recordChangedKeys(conn: DuckDBConnection, table: string, columns: readonly string[], select: string, baseLog = 'sync_log'): Promise<void> {
  await conn.run(CHANGES_DDL);
  await conn.run(`DELETE FROM ${CHANGES_INDEX} WHERE table_name = ?`, [table]);
  await conn.run(`DROP TABLE IF EXISTS ${changesTable(table)}`);
  const cols = columns.map(quoteIdent).join(', ');
  await conn.run(`CREATE OR REPLACE TABLE ${keysTable(table)} AS SELECT DISTINCT ${cols} FROM (${select}) k`);
  await conn.run(`INSERT INTO ${CHANGES_INDEX} SELECT ?, (SELECT max(synced_at) FROM ${baseLog}), now()::TIMESTAMP`, [table]);
}

/** What the record says of one partition: its key, and the change in its row count and row-hash sum. */
export interface RecordedPartition extends PartitionKey {
  rows: number;
  hashSum: bigint;
}

/**
 * The partitions of a lake table the last sync changed, with the change in their row count and row-hash
 * sum (added rows' hashes minus removed rows'; the fingerprint of export-table.ts is a count and a sum,
 * so the old fingerprint plus this is the new one, exactly), from the record, when it covers exactly the
 * step since the sync `sinceSyncedAt` (the earlier export's); undefined when it does not (or the table's
 * rows are a SELECT other than the table itself): the caller then fingerprints every partition.
 */
export async function recordedPartitions(conn: DuckDBConnection, plan: TablePlan, sinceSyncedAt: string | null | undefined): Promise<RecordedPartition[] | undefined> {
  const spec = plan.spec;
  if (!(await recordFor(conn, plan, `${CHANGES_INDEX}__${spec.name}`, sinceSyncedAt))) return undefined;
  const parts = spec.partitionBy ?? [];
  const keys = parts.map((p) => `(${p.expr}) AS ${quoteIdent(p.column)}`);
  // the row as the table's fingerprint hashes it: the struct of the table's columns, in order
  const row = `struct_pack(${plan.baseColumns.map((c) => `${quoteIdent(c.name)} := s.${quoteIdent(c.name)}`).join(', ')})`;
  const rows = await query<Record<string, string | number | boolean | null>>(
    conn,
    `SELECT ${[...keys, `sum(s.${SIGN})::BIGINT AS dn`, `sum(s.${SIGN}::HUGEINT * hash(${row})::HUGEINT)::VARCHAR AS dh`].join(', ')}
     FROM ${changesTable(spec.name)} s${keys.length ? ' GROUP BY ALL' : ''}`,
  );
  return rows
    .filter((r) => r.dh !== null)
    .map((r) => {
      const values = Object.fromEntries(parts.map((p) => [p.column, r[p.column] ?? null]));
      return { values, path: hivePath(values), rows: Number(r.dn), hashSum: BigInt(String(r.dh)) };
    });
}

/**
 * Whether the table has a usable record: the record table `name` is there, its base is the earlier
 * export's sync and that sync is the one right before the last, and the table's rows are the table itself.
 */
async function recordFor(conn: DuckDBConnection, plan: TablePlan, name: string, sinceSyncedAt: string | null | undefined): Promise<boolean> {
  const spec = plan.spec;
  if (spec.select !== undefined || !sinceSyncedAt) return false;
  const has = await queryOne<{ n: number }>(
    conn,
    `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name IN (?, ?)`,
    [CHANGES_INDEX, name],
  );
  if (has?.n !== 2) return false;
  const ok = await queryOne<{ ok: boolean }>(
    conn,
    // the manifest holds synced_at as an ISO string to the millisecond; the sync_log may hold microseconds
    `SELECT (date_trunc('millisecond', c.base_synced_at) = date_trunc('millisecond', CAST(? AS TIMESTAMP))
             AND c.base_synced_at = (SELECT synced_at FROM sync_log ORDER BY synced_at DESC LIMIT 1 OFFSET 1)) AS ok
     FROM ${CHANGES_INDEX} c WHERE c.table_name = ?`,
    [sinceSyncedAt, spec.name],
  );
  return ok?.ok === true;
}

/**
 * The partitions of a partitioned lake table the last sync may have changed, from its record by key
 * (`recordChangedKeys`): the table's partition expressions applied to the recorded key values; undefined
 * when there is no usable record of the step since the earlier export, or an expression reads a column
 * the record does not hold. Every other partition is as the earlier export wrote it.
 */
export async function recordedKeys(conn: DuckDBConnection, plan: TablePlan, sinceSyncedAt: string | null | undefined): Promise<PartitionKey[] | undefined> {
  const spec = plan.spec;
  const parts = spec.partitionBy ?? [];
  if (!parts.length || !(await recordFor(conn, plan, `${CHANGES_INDEX}_keys__${spec.name}`, sinceSyncedAt))) return undefined;
  const keys = parts.map((p) => `(${p.expr}) AS ${quoteIdent(p.column)}`);
  let rows: Array<Record<string, string | number | boolean | null>>;
  try {
    rows = await query(conn, `SELECT DISTINCT ${keys.join(', ')} FROM ${keysTable(spec.name)} s`);
  } catch {
    return undefined; // the expression reads a column the record does not hold
  }
  return rows.map((r) => {
    const values = Object.fromEntries(parts.map((p) => [p.column, r[p.column] ?? null]));
    return { values, path: hivePath(values) };
  });
}
