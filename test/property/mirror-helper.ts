/**
 * Test support for the property/calendar dataset modules: build a dataset file in a temporary mirror dir
 * the way the sync framework does (load into a new DuckDB file, verify, record sync_log), without HTTP.
 * Sync tests through the real framework and the local upstream server live in test/sync/.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { HandlerContext } from '../../src/contract/types.js';
import { closeAll, query, type Param, type Row } from '../../src/mirror/db.js';
import { REJECTS_DDL, SYNC_LOG_DDL } from '../../src/mirror/schema.js';
import type { DatasetModule, LoadResult, SyncOptions } from '../../sync/types.js';
import { parseCsvLine } from '../sync/ppd-fixture.js';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'upstream');

export function tempDir(prefix = 'pd-prop-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function ctxFor(mirrorDir: string, iso = '2026-11-21T12:00:00Z'): HandlerContext {
  return { now: () => new Date(iso), env: {}, mirrorDir, cacheDir: mirrorDir };
}

/** Load `files` with the module into `<mirrorDir>/<module.file>`, verify, and write a sync_log row. */
export async function buildDataset(
  mod: DatasetModule,
  files: string[],
  mirrorDir: string,
  options: SyncOptions = {},
): Promise<LoadResult> {
  const path = join(mirrorDir, mod.file);
  rmSync(path, { force: true });
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  try {
    await conn.run(SYNC_LOG_DDL);
    await conn.run(REJECTS_DDL);
    const result = await mod.load({
      conn,
      files: files.map((f) => ({ url: `file://${f}`, name: basename(f), path: f, kind: 'full' as const })),
      options,
      progress: () => {},
    });
    await mod.verify(conn, result);
    await conn.run(
      `INSERT INTO sync_log (dataset, source_url, rows_loaded, rows_rejected, duration_ms, mode, as_of, synced_at, bytes)
       VALUES (?, ?, ?, ?, 0, ?, CAST(? AS DATE), now()::TIMESTAMP, ?)`,
      [mod.name, files.join(' '), result.rows, result.rejected, result.mode, result.asOf ?? null, files.reduce((s, f) => s + statSync(f).size, 0)],
    );
    return result;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * Run SQL against a dataset file: a fresh READ_ONLY instance (closed again), rows as the handlers see them
 * (src/mirror/db.ts query: BIGINT/DECIMAL as numbers, DATE as 'YYYY-MM-DD', UUID as a string).
 */
export async function sqlOn(path: string, sql: string, params: Param[] = []): Promise<Row[]> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return await query(conn, sql, params);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

export async function cleanup(dirs: string[]): Promise<void> {
  await closeAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

export function readCsv(text: string): Array<Record<string, string>> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l !== '');
  const header = parseCsvLine(lines[0]!);
  return lines.slice(1).map((l) => {
    const f = parseCsvLine(l);
    return Object.fromEntries(header.map((h, i) => [h, f[i] ?? '']));
  });
}
