/** A dataset file's `sync_log` history, read-only: for `mirror status` and for the next sync. */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { PreviousState } from '../../sync/types.js';
import { loadDuckDB, query, type Row, type SyncLogEntry } from './db.js';

/**
 * The history, the newest entry as PreviousState and every sha256 loaded; empty when unreadable.
 * `extra` reads more on the same read-only connection (a sync module's own state, `PreviousState.module`),
 * so a sync opens the live file once, not once per reader.
 */
export async function readSyncHistory(
  path: string,
  extra?: (conn: DuckDBConnection) => Promise<unknown>,
): Promise<{ state: PreviousState; history: Row[]; shas: Set<string> }> {
  const state: PreviousState = { path };
  const shas = new Set<string>();
  let history: Row[] = [];
  const duck = await loadDuckDB();
  let inst: DuckDBInstance | undefined;
  try {
    inst = await duck.DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const conn = await inst.connect();
    try {
      history = await query(conn, 'SELECT * FROM sync_log ORDER BY synced_at');
      const last = history[history.length - 1] as Partial<SyncLogEntry> | undefined;
      if (last) {
        state.lastSync = {
          synced_at: String(last.synced_at),
          published: last.published ?? null,
          as_of: last.as_of ?? null,
          sha256: last.sha256 ?? null,
          source_url: last.source_url ?? null,
          mode: last.mode!, // NOT NULL
          rows_total: last.rows_total ?? null,
        };
      }
      for (const r of history) for (const s of String(r.sha256 ?? '').split(/\s+/)) if (s) shas.add(s);
      if (extra) {
        try {
          state.module = await extra(conn);
        } catch {
          /* the module's state is unreadable (an older file): the history still counts */
        }
      }
    } finally {
      conn.closeSync();
    }
  } catch {
    /* unreadable previous file: treat as no history */
  } finally {
    inst?.closeSync();
  }
  return { state, history, shas };
}
