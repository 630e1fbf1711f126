/** The main tables of a dataset file (not sync_log, rejects or the record of a load's changes, changes.ts). */
import type { DuckDBConnection } from '@duckdb/node-api';
import { query } from './db.js';

/** The module's own list when it has one, else every base table of the file but sync_log, rejects and sync_changes*. */
export async function mainTables(conn: DuckDBConnection, mod?: { tables?: readonly string[] }): Promise<string[]> {
  if (mod?.tables?.length) return [...mod.tables];
  const rows = await query<{ table_name: string }>(
    conn,
    "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary AND table_name NOT IN ('sync_log', 'rejects') AND NOT starts_with(table_name, 'sync_changes') ORDER BY table_name",
  );
  return rows.map((r) => r.table_name);
}

/** Whether the dataset file has a base table `name` (one a later version added may be missing from an older mirror). */
export async function hasTable(conn: DuckDBConnection, name: string): Promise<boolean> {
  const rows = await query<{ n: number }>(
    conn,
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ?",
    [name],
  );
  return Number(rows[0]?.n ?? 0) > 0;
}
