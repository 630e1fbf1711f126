/**
 * Helpers of the sync pipeline's stages (sync/framework.ts): `--from` expansion, the writable DuckDB of
 * a load, history rows, row counts and the download cache.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { loadDuckDB, query, quoteIdent, type Param, type Row } from '../src/mirror/db.js';
import type { Env } from '../src/mirror/paths.js';
import { mainTables } from '../src/mirror/tables.js';
import { syncThreads } from '../src/workers/settings.js';
import { fromOption } from './common.js';
import { SyncError } from './lock.js';
import type { DatasetModule, UpstreamFile } from './types.js';

/** True when the URL-or-path names a local file (absolute/relative path or file: URL). */
export function localPath(from: string): string | undefined {
  if (from.startsWith('file:')) return fileURLToPath(from);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) return undefined;
  return resolve(from);
}

export interface Opened {
  instance: DuckDBInstance;
  conn: DuckDBConnection;
}

/**
 * DuckDB memory_limit for loads: half the RAM, at most 3 GB, at least 1 GB. Sorting 30M price-paid rows
 * then spills to `<file>.new-<pid>.tmp/` instead of holding ~12 GB (measured: 3 GB is no slower on 2 cores).
 */
export function defaultSyncMemory(total = totalmem()): string {
  const gb = Math.max(1, Math.min(3, Math.floor(total / 2 ** 30 / 2)));
  return `${gb}GB`;
}

export async function openWritable(path: string, o: { memoryLimit?: string; threads?: number }, env: Env, moduleMemory?: string): Promise<Opened> {
  const duck = await loadDuckDB();
  const config: Record<string, string> = {};
  const mem = o.memoryLimit ?? env.PUBLICDATA_SYNC_MEMORY ?? moduleMemory;
  if (mem) config.memory_limit = mem === 'auto' ? defaultSyncMemory() : mem;
  const threads = o.threads ?? syncThreads(env);
  if (threads) config.threads = String(threads);
  const instance = await duck.DuckDBInstance.create(path, config);
  const conn = await instance.connect();
  return { instance, conn };
}

/** Close a writable file quietly (a failed sync). */
export function closeQuietly(o: Opened | undefined): void {
  if (!o) return;
  try {
    o.conn.closeSync();
    o.instance.closeSync();
  } catch {
    /* ignore */
  }
}

/** Remove a temp file with its WAL and spill directory. */
export function removeTemp(tempPath: string, withFile = true): void {
  if (withFile) rmSync(tempPath, { force: true });
  rmSync(`${tempPath}.wal`, { force: true });
  rmSync(`${tempPath}.tmp`, { recursive: true, force: true });
}

/**
 * One `--from` entry as upstream files: a local folder gives its files whose names the module recognises
 * (`fromNames`); a URL ending in `/` is a prefix serving the publisher's names, so the module's discover
 * runs with it as base URL; anything else is one file or URL.
 */
export async function expandFrom(
  mod: DatasetModule,
  from: string,
  discoverWith: (baseUrl: string) => Promise<UpstreamFile[]>,
): Promise<UpstreamFile[]> {
  const local = localPath(from);
  if (local && existsSync(local) && statSync(local).isDirectory()) {
    if (!mod.fromNames) throw new SyncError(`${mod.name}: --from ${from} is a folder; name the file itself`, mod.name);
    const names = readdirSync(local).filter((n) => mod.fromNames!.test(n)).sort();
    if (!names.length) throw new SyncError(`${mod.name}: no ${mod.name} files in the folder ${local} (expected names like ${mod.fromNames.source})`, mod.name);
    return names.map((n) => ({ url: join(local, n), name: n, kind: 'full' as const }));
  }
  if (!local && from.endsWith('/')) return discoverWith(from.replace(/\/+$/, ''));
  return [fromOption(from, mod.name)];
}

/**
 * A queue running at most `n` of the tasks given to it at once, in the order given: the framework hashes
 * `--from` files through one (every file's read stream at once held their buffers together: 150 MB of
 * peak RSS over 400 files, and the hashing gains nothing from more reads than cores).
 */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    if (active >= n) return;
    const start = waiting.shift();
    if (start) {
      active++;
      start();
    }
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        // (a task that throws before its promise is made still frees its slot)
        Promise.resolve().then(task).then(resolve, reject).finally(() => {
          active--;
          next();
        });
      });
      next();
    });
}

export function latest(dates: Array<string | undefined>): string | undefined {
  return dates.filter((d): d is string => !!d).sort().pop();
}

/**
 * Downloads are removed once their data is loaded and verified (or found already loaded), unless
 * `--keep-downloads`; `.part` files of unfinished downloads stay for the next run to resume.
 */
export function cleanupDownloads(got: Array<{ path: string; downloaded: boolean }>, keep: boolean | undefined): void {
  if (keep) return;
  for (const g of got) if (g.downloaded) rmSync(g.path, { force: true });
}

export async function insertRows(conn: DuckDBConnection, table: string, rows: Row[]): Promise<void> {
  // Only columns the new table has (an older or newer file may have more or fewer).
  const have = new Set(
    (await query<{ column_name: string }>(conn, 'SELECT column_name FROM duckdb_columns() WHERE table_name = ? AND database_name = current_database()', [table])).map((c) => c.column_name),
  );
  for (const r of rows) {
    const cols = Object.keys(r).filter((c) => have.has(c));
    await conn.run(
      `INSERT INTO ${quoteIdent(table)} (${cols.map(quoteIdent).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      cols.map((c) => r[c] as Param) as never,
    );
  }
}

export async function countMainRows(conn: DuckDBConnection, mod: Pick<DatasetModule, 'tables'>): Promise<number> {
  let n = 0;
  for (const t of await mainTables(conn, mod)) {
    const [r] = await query<{ n: number }>(conn, `SELECT count(*) AS n FROM ${quoteIdent(t)}`);
    n += r?.n ?? 0;
  }
  return n;
}
