/** A dataset file's `sync_log` history, read-only: for `mirror status` and for the next sync. */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { loadDuckDB, query, type Row, type SyncLogEntry } from './db.js';

/** What a sync knows of the live file before it starts (DiscoverContext.previous in sync/types.ts). */
export interface PreviousState {
  /** Path of the live dataset file. */
  path: string;
  /** Its newest sync_log row, when readable. */
  lastSync?: Pick<SyncLogEntry, 'synced_at' | 'published' | 'as_of' | 'sha256' | 'source_url' | 'mode' | 'rows_total'>;
  /** What the module's `readPrevious` read from the live file (same open as the history). */
  module?: unknown;
}

/** What a sync needs to know of the live file's history (readSyncHistory). */
export interface SyncHistory {
  state: PreviousState;
  history: Row[];
  /** Every sha256 ever loaded (kept for `mirror status`; not what decides "up to date"). */
  shas: Set<string>;
  /**
   * The files the current mirror was built from: the newest full load and the updates applied after it.
   * A sync is "up to date" only when every file it would load is among these.
   */
  current: Set<string>;
  /** File names of the newest full load (a full reload of the same names is checked for a shrink). */
  lastFullNames: string[];
  /** Why the file could not be read, when it could not (a damaged file: the sync rebuilds it). */
  damaged?: string;
}

/** The sha256s and names of one sync_log row's files. */
function rowFiles(r: Row): { shas: string[]; names: string[] } {
  const shas = String(r.sha256 ?? '').split(/\s+/).filter(Boolean);
  let names: string[] = [];
  try {
    names = (JSON.parse(String(r.files ?? '[]')) as Array<{ name: string }>).map((f) => f.name);
  } catch {
    /* an older row without its file list */
  }
  return { shas, names };
}

/**
 * The history, the newest entry as PreviousState and every sha256 loaded; empty when unreadable.
 * `extra` reads more on the same read-only connection (a sync module's own state, `PreviousState.module`),
 * so a sync opens the live file once, not once per reader.
 */
export async function readSyncHistory(
  path: string,
  extra?: (conn: DuckDBConnection) => Promise<unknown>,
): Promise<SyncHistory> {
  const state: PreviousState = { path };
  const shas = new Set<string>();
  let current = new Set<string>();
  let lastFullNames: string[] = [];
  let damaged: string | undefined;
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
      for (const r of history) {
        const f = rowFiles(r);
        for (const s of f.shas) shas.add(s);
        if (r.mode !== 'incremental') {
          current = new Set();
          lastFullNames = f.names;
        }
        for (const s of f.shas) current.add(s);
      }
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
  } catch (e) {
    // unreadable previous file (cut short, not a DuckDB file, no sync_log): no history, to be rebuilt
    damaged = (e as Error).message.split('\n')[0];
  } finally {
    inst?.closeSync();
  }
  return { state, history, shas, current, lastFullNames, ...(damaged ? { damaged } : {}) };
}
