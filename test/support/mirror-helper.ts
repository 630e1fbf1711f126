/**
 * Test support for the dataset modules: build a dataset file in a temporary mirror dir
 * with the real sync framework from a local file (no HTTP), and read dataset files.
 * Sync tests against a local upstream server use test/support/upstream-harness.ts.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { HandlerContext } from '../../src/contract/types.js';
import { closeAll, query, type Param, type Row } from '../../src/mirror/db.js';
import { REJECTS_DDL } from '../../src/mirror/schema.js';
import { syncDataset } from '../../src/sync-runner.js';
import type { DatasetModule, DatasetName, LoadResult, SyncReport } from '../../sync/types.js';

/** A domain's fixtures folder, test/fixtures/<domain>/. */
export const fixturesOf = (domain: string): string => join(__dirname, '..', 'fixtures', domain);

export function tempDir(prefix = 'pd-prop-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A writer of scratch files in one new temporary folder: `(name, data)` writes the file, returns its path. */
export function scratchFiles(prefix = 'pd-scratch-'): (name: string, data: string | Buffer) => string {
  const dir = tempDir(prefix);
  return (name, data) => {
    const p = join(dir, name);
    writeFileSync(p, data);
    return p;
  };
}

export function ctxFor(mirrorDir: string, iso = '2026-11-21T12:00:00Z'): HandlerContext {
  return { now: () => new Date(iso), env: {}, mirrorDir, cacheDir: mirrorDir };
}

/**
 * Sync a dataset from a local file into `mirrorDir` through the real framework (`syncDataset --from`):
 * load, reject threshold, verify, sync_log, atomic rename. Throws SyncError as a sync would.
 */
export function buildDataset(name: DatasetName, file: string, mirrorDir: string): Promise<SyncReport> {
  return syncDataset(name, { mirrorDir, cacheDir: join(mirrorDir, 'sync-cache'), env: {}, from: file });
}

/**
 * Only the module's load, into a new DuckDB file at `path` with the `rejects` table the framework would
 * have created: for loads the framework would refuse (e.g. more rejects than the threshold allows).
 */
export async function loadOnly(mod: DatasetModule, file: string, path: string): Promise<LoadResult> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  try {
    await conn.run(REJECTS_DDL);
    return await mod.load({
      conn,
      files: [{ url: file, name: basename(file), path: file, kind: 'full' }],
      options: {},
      progress: () => {},
      mode: 'full',
    });
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

/** Parse one CSV line with double-quoted fields ("" escapes a quote). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote in ${line}`);
        s += line.slice(i, q);
        if (line[q + 1] === '"') {
          s += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(s);
      if (line[i] === ',') i++;
      else break;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        break;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
  }
  return out;
}
