/**
 * The sync pipeline: discover → download → load into `<file>.new-<pid>` → verify → checkpoint, close →
 * atomic rename over the live file. The lock and temp-file guards are in lock.ts, downloads in
 * download.ts, the progress display in progress.ts; the read side (`mirror status`, `sql`, export) is in
 * src/mirror/.
 *
 * Crash safety: the live file is only ever replaced by rename(2) of a complete, checkpointed, closed
 * file in the same directory, so a SIGKILL at any point leaves either the old or the new file in place,
 * never a half-written one. Temp files (`<file>.new-<pid>`, its `.wal` and `.tmp` spill dir) of dead
 * processes are removed at the start of the next sync; downloads resume from `.part` files.
 */
import { constants as fsConstants, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { copyFile, rename } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { loadDuckDB, query, quoteIdent, type Param, type Row } from '../src/mirror/db.js';
import { cacheDir as defaultCacheDir, datasetPath, mirrorDir as defaultMirrorDir, type Env } from '../src/mirror/paths.js';
import { REJECTS_DDL, SYNC_LOG_DDL } from '../src/mirror/schema.js';
import { readSyncHistory } from '../src/mirror/sync-log.js';
import { mainTables } from '../src/mirror/tables.js';
import { VERSION } from '../src/version.js';
import { fromOption } from './common.js';
import { download, fetchText, sha256File, type RetryOptions } from './download.js';
import { acquireLock, cleanStaleTemps, fsyncPath, SyncError } from './lock.js';
import { fmtBytes } from './progress.js';
import { loadModule, SYNC_DATASETS } from './registry.js';
import type { DatasetModule, LoadResult, ProgressSink, SyncEvent, SyncOptions, SyncReport, UpstreamFile, Warm } from './types.js';

export { cleanStaleTemps, SyncError };

/** Points where a test (or a debugger) may pause a sync: after download, after load, just before the rename. */
export type HookPoint = 'downloaded' | 'loaded' | 'before-rename';

export interface RunSyncOptions extends SyncOptions {
  env: Env;
  mirrorDir?: string;
  cacheDir?: string;
  progress?: ProgressSink;
  now?: () => Date;
  /** DuckDB memory_limit for the load (default env PUBLICDATA_SYNC_MEMORY, else the module's, else DuckDB's). */
  memoryLimit?: string;
  /** DuckDB threads for the load (default: DuckDB's default, all cores). */
  threads?: number;
  /** Keep downloaded files in the cache after a successful sync (default: delete files over 64 MB). */
  keepDownloads?: boolean;
  /** Download retries (default 5), retries when the host cannot be reached at all (default 2) and first backoff delay in ms (default 500). */
  retries?: number;
  connectRetries?: number;
  backoffMs?: number;
  /** How to wait between attempts (tests record the delays instead of waiting). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** `--limit-rate`: download bandwidth cap in bytes per second. */
  maxBytesPerSecond?: number;
  hooks?: { at?(point: HookPoint, dataset: string): void | Promise<void> };
}

/** `PUBLICDATA_UPSTREAM_PRICE_PAID` style override, else `PUBLICDATA_UPSTREAM_BASE/<name>`, else the publisher's. */
export function resolveBaseUrl(mod: Pick<DatasetModule, 'name' | 'defaultBaseUrl'>, env: Env): string {
  const own = env[`PUBLICDATA_UPSTREAM_${mod.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`];
  if (own) return own.replace(/\/+$/, '');
  if (env.PUBLICDATA_UPSTREAM_BASE) return `${env.PUBLICDATA_UPSTREAM_BASE.replace(/\/+$/, '')}/${mod.name}`;
  return mod.defaultBaseUrl.replace(/\/+$/, '');
}

/** True when the URL-or-path names a local file (absolute/relative path or file: URL). */
function localPath(from: string): string | undefined {
  if (from.startsWith('file:')) return fileURLToPath(from);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) return undefined;
  return resolve(from);
}

interface Opened {
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

async function openWritable(path: string, opts: RunSyncOptions, env: Env, moduleMemory?: string): Promise<Opened> {
  const duck = await loadDuckDB();
  const config: Record<string, string> = {};
  const mem = opts.memoryLimit ?? env.PUBLICDATA_SYNC_MEMORY ?? moduleMemory;
  if (mem) config.memory_limit = mem === 'auto' ? defaultSyncMemory() : mem;
  const threads = opts.threads ?? (env.PUBLICDATA_SYNC_THREADS ? Number(env.PUBLICDATA_SYNC_THREADS) : undefined);
  if (threads) config.threads = String(threads);
  const instance = await duck.DuckDBInstance.create(path, config);
  const conn = await instance.connect();
  return { instance, conn };
}

/** Sync one dataset. Never leaves a half-written live file; throws SyncError on failure. */
export async function syncDataset(name: string, opts: RunSyncOptions): Promise<SyncReport> {
  const env = opts.env;
  const mirror = opts.mirrorDir ?? defaultMirrorDir(env);
  const cache = opts.cacheDir ?? defaultCacheDir(env);
  const now = opts.now ?? (() => new Date());
  const emit = (e: SyncEvent) => opts.progress?.(e);
  const started = Date.now();
  const mod = await loadModule(name);
  const file = mod.file;
  mkdirSync(mirror, { recursive: true });
  mkdirSync(cache, { recursive: true });
  const livePath = join(mirror, file);
  const tempPath = join(mirror, `${file}.new-${process.pid}`);

  let release: (() => void) | undefined;
  let opened: Opened | undefined;
  let warm: Warm | undefined;
  // the copy of the live file an incremental update starts during the download (see below)
  let copying: Promise<void> | undefined;
  const dropCopy = async () => {
    await copying?.catch(() => undefined);
    rmSync(tempPath, { force: true });
  };
  try {
    release = acquireLock(mirror, file, name);
    const removed = cleanStaleTemps(mirror, file);
    if (removed.length) emit({ type: 'message', dataset: name, text: `removed stale temp files: ${removed.join(', ')}` });
    // DuckDB's native module first: loading it while the module's warm-up threads start took twice as
    // long (112 -> 220 ms measured, 2 cores), and they have discovery and the download to start in anyway
    if (mod.warmUp) await loadDuckDB();
    // started now, it warms up while the history is read, discovery runs and the files download
    warm = mod.warmUp?.(env);

    // one read-only open of the live file: the history and the module's own state
    const prev = existsSync(livePath) ? await readSyncHistory(livePath, mod.readPrevious?.bind(mod)) : undefined;

    const retryOptions: RetryOptions = {
      ...(opts.connectRetries !== undefined ? { connectRetries: opts.connectRetries } : {}),
      ...(opts.backoffMs !== undefined ? { backoffMs: opts.backoffMs } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      onRetry: (n) => emit({ type: 'retry', dataset: name, ...n }),
    };

    // 1. discover
    emit({ type: 'phase', dataset: name, phase: 'discover' });
    const discoverWith = (baseUrl: string) =>
      mod.discover({
        baseUrl,
        fetchText: (u) => fetchText(u, { ...retryOptions, retries: opts.retries ?? 3 }),
        options: opts,
        now,
        ...(prev ? { previous: prev.state } : {}),
      });
    const froms = typeof opts.from === 'string' ? [opts.from] : [...(opts.from ?? [])];
    let files: UpstreamFile[];
    if (froms.length) {
      files = [];
      for (const from of froms) {
        for (const f of await expandFrom(mod, from, discoverWith)) files.push({ ...f, ...(mod.classifyFrom?.(f.name) ?? {}) });
      }
      const seen = new Set<string>();
      files = files.filter((f) => (seen.has(f.url) ? false : (seen.add(f.url), true)));
    } else {
      files = await discoverWith(resolveBaseUrl(mod, env));
    }
    if (!files.length && prev && !opts.from) {
      // An incremental dataset whose discover found nothing new (accounts: no new daily zip).
      const report: SyncReport = {
        dataset: name, status: 'up_to_date', rows_loaded: 0, rows_rejected: 0,
        ...(prev.state.lastSync?.rows_total != null ? { rows_total: prev.state.lastSync.rows_total } : {}),
        bytes_downloaded: 0, duration_ms: Date.now() - started,
        ...(prev.state.lastSync?.as_of ? { as_of: prev.state.lastSync.as_of } : {}),
        path: livePath, files: [],
      };
      emit({ type: 'done', dataset: name, report });
      return report;
    }
    if (!files.length) throw new SyncError(`${name}: nothing to download`, name);
    const incremental = files.some((f) => f.kind === 'update');
    if (incremental && !prev) {
      throw new SyncError(
        `${name}: ${files.find((f) => f.kind === 'update')!.name} is an update file, but there is no data to apply it to; run 'publicdata sync ${name}' (a full load) first`,
        name,
      );
    }
    // An incremental update works on a copy of the live file (which answers until the rename), made while
    // the files download rather than after: COPYFILE_FICLONE makes it a copy-on-write clone where the file
    // system can (btrfs, XFS, APFS: constant time whatever the mirror's size), a plain copy elsewhere
    // (ext4: the size of the mirror, then overlapped by the download).
    if (incremental) {
      rmSync(tempPath, { force: true });
      rmSync(`${tempPath}.wal`, { force: true });
      copying = copyFile(livePath, tempPath, fsConstants.COPYFILE_FICLONE);
      copying.catch(() => undefined); // awaited before the load, or before the temp file is removed
    }

    // 2. download (a local --from file is used in place)
    const approx = files.reduce((n, f) => n + (f.approxBytes ?? 0), 0);
    emit({
      type: 'phase', dataset: name, phase: 'download',
      ...(approx ? { detail: `${files.length} file${files.length === 1 ? '' : 's'}, about ${fmtBytes(approx)} to download` } : {}),
    });
    const got: Array<UpstreamFile & { path: string; sha256: string; bytes: number; downloaded: boolean }> = [];
    let bytesDownloaded = 0;
    // Local files are hashed while the load runs (a 5 GB file takes ~20 s to hash on one core); downloads
    // were hashed while streaming.
    const hashing: Array<Promise<void>> = [];
    for (const f of files) {
      const local = localPath(f.url);
      if (local) {
        if (!existsSync(local)) throw new SyncError(`${name}: no such file ${local}`, name);
        const entry = { ...f, url: local, path: local, sha256: '', bytes: statSync(local).size, downloaded: false };
        got.push(entry);
        hashing.push(
          sha256File(local).then((sha) => {
            if (f.sha256 && f.sha256.toLowerCase() !== sha) throw new SyncError(`${name}: checksum mismatch for ${local}`, name);
            entry.sha256 = sha;
          }),
        );
        continue;
      }
      const dest = join(cache, name, f.name);
      const res = await download({
        url: f.url,
        dest,
        ...(f.sha256 ? { expectedSha256: f.sha256 } : {}),
        ...(f.size !== undefined ? { expectedSize: f.size } : {}),
        ...retryOptions,
        retries: opts.retries ?? 5,
        ...(opts.maxBytesPerSecond ? { maxBytesPerSecond: opts.maxBytesPerSecond } : {}),
        onProgress: (p) => emit({ type: 'download', dataset: name, file: f.name, ...p }),
      }).catch((e: Error) => {
        throw new SyncError(`${name}: ${e.message}`, name);
      });
      bytesDownloaded += res.bytes;
      const published = f.published ?? res.lastModified;
      got.push({ ...f, ...(published ? { published } : {}), path: res.path, sha256: res.sha256, bytes: res.bytes, downloaded: true });
    }
    await opts.hooks?.at?.('downloaded', name);

    const allHashed = Promise.all(hashing);
    allHashed.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
    const fileList = () =>
      got.map((g) => ({
        url: g.url, name: g.name, sha256: g.sha256, bytes: g.bytes, kind: g.kind ?? 'full',
        ...(g.published ? { published: g.published } : {}),
      }));
    // Already loaded these exact bytes: nothing to do (unless --force).
    const upToDate = () => !!prev && !opts.force && got.every((g) => prev.shas.has(g.sha256));
    const upToDateReport = (): SyncReport => {
      cleanupDownloads(got, opts);
      const report: SyncReport = {
        dataset: name, status: 'up_to_date', rows_loaded: 0, rows_rejected: 0,
        ...(prev?.state.lastSync?.rows_total != null ? { rows_total: prev.state.lastSync.rows_total } : {}),
        bytes_downloaded: bytesDownloaded, duration_ms: Date.now() - started,
        ...(prev?.state.lastSync?.as_of ? { as_of: prev.state.lastSync.as_of } : {}),
        path: livePath, files: fileList(),
      };
      emit({ type: 'done', dataset: name, report });
      return report;
    };
    if (!hashing.length && upToDate()) {
      await dropCopy();
      return upToDateReport();
    }

    // 3. load into a new file beside the live one: empty for a full load, the copy for an incremental one
    emit({ type: 'phase', dataset: name, phase: 'load', detail: incremental ? 'incremental' : 'full' });
    if (copying) await copying;
    else {
      rmSync(tempPath, { force: true });
      rmSync(`${tempPath}.wal`, { force: true });
    }
    opened = await openWritable(tempPath, opts, env, mod.memoryLimit);
    const { conn } = opened;
    await conn.run(SYNC_LOG_DDL);
    await conn.run(REJECTS_DDL);
    await conn.run('DELETE FROM rejects');
    let result: LoadResult;
    // Poll DuckDB's progress of the running statement for the progress bar.
    await conn.run('SET enable_progress_bar = true');
    await conn.run('SET enable_progress_bar_print = false');
    let lastPct = -1;
    const poll = setInterval(() => {
      try {
        const p = conn.progress.percentage;
        if (p >= 0 && Math.floor(p) !== lastPct) {
          lastPct = Math.floor(p);
          emit({ type: 'load', dataset: name, percentage: p });
        }
      } catch {
        /* no statement running */
      }
    }, 250);
    try {
      result = await mod.load({
        conn,
        files: got.map(({ downloaded: _d, ...g }) => g),
        ...(prev ? { previousPath: livePath } : {}),
        options: opts,
        progress: (rows) => emit({ type: 'rows', dataset: name, rows }),
        mode: incremental ? 'incremental' : 'full',
        env,
        log: (text) => emit({ type: 'message', dataset: name, text }),
        workDir: join(cache, name, 'extract'),
        ...(warm ? { warm } : {}),
      });
    } catch (e) {
      throw new SyncError(`${name}: load failed: ${(e as Error).message}`, name);
    } finally {
      clearInterval(poll);
      const w = warm;
      warm = undefined;
      await w?.dispose().catch(() => undefined);
    }
    if (hashing.length) {
      await allHashed;
      if (upToDate()) {
        conn.closeSync();
        opened.instance.closeSync();
        opened = undefined;
        rmSync(tempPath, { force: true });
        rmSync(`${tempPath}.wal`, { force: true });
        rmSync(`${tempPath}.tmp`, { recursive: true, force: true });
        return upToDateReport();
      }
    }
    await opts.hooks?.at?.('loaded', name);

    // 4. verify: reject threshold, rows in the table(s) == rows loaded (full loads), then the module's own checks
    emit({ type: 'phase', dataset: name, phase: 'verify' });
    const threshold = mod.rejectThreshold ?? 0.01;
    const seen = result.rows + result.rejected;
    if (result.rejected > 0 && (seen === 0 || result.rejected / seen > threshold)) {
      throw new SyncError(
        `${name}: ${result.rejected} of ${seen} rows rejected (more than ${(threshold * 100).toFixed(2)}%); the file looks corrupt, kept the previous data`,
        name,
      );
    }
    const rowsTotal = await countMainRows(conn, mod);
    try {
      if (result.mode === 'full' && rowsTotal !== result.rows) throw new Error(`${rowsTotal} rows in the table, ${result.rows} loaded`);
      await mod.verify(conn, result);
    } catch (e) {
      throw new SyncError(`${name}: verification failed: ${(e as Error).message}; kept the previous data`, name);
    }

    // sync_log: history of the previous file (full loads start from an empty file), then this sync
    if (!incremental && prev?.history.length) await insertRows(conn, 'sync_log', prev.history);
    const published = latest(got.map((g) => g.published));
    await conn.run(
      `INSERT INTO sync_log (dataset, source_url, published, sha256, bytes, rows_loaded, rows_rejected, rows_total, duration_ms, mode, as_of, synced_at, files, tool_version)
       VALUES (?, ?, CAST(? AS DATE), ?, ?, ?, ?, ?, ?, ?, CAST(? AS DATE), CAST(? AS TIMESTAMP), ?, ?)`,
      [
        name, got.map((g) => g.url).join(' '), published ?? null, got.map((g) => g.sha256).join(' '),
        got.reduce((s, g) => s + g.bytes, 0), result.rows, result.rejected, rowsTotal, Date.now() - started,
        result.mode, result.asOf ?? published ?? null, now().toISOString().replace('T', ' ').replace('Z', ''),
        JSON.stringify(fileList()), VERSION,
      ],
    );

    // 5. checkpoint, close, fsync, atomic rename
    emit({ type: 'phase', dataset: name, phase: 'swap' });
    await conn.run('CHECKPOINT');
    conn.closeSync();
    opened.instance.closeSync();
    opened = undefined;
    if (existsSync(`${tempPath}.wal`)) {
      // A checkpointed, closed database leaves no WAL; if one is there the file is not self-contained.
      throw new SyncError(`${name}: the new file still has a write-ahead log after checkpoint; kept the previous data`, name);
    }
    fsyncPath(tempPath);
    await opts.hooks?.at?.('before-rename', name);
    await rename(tempPath, livePath);
    fsyncPath(mirror);
    rmSync(`${tempPath}.tmp`, { recursive: true, force: true });
    cleanupDownloads(got, opts);

    const report: SyncReport = {
      dataset: name, status: 'synced', mode: result.mode, rows_loaded: result.rows, rows_rejected: result.rejected,
      rows_total: rowsTotal, bytes_downloaded: bytesDownloaded, duration_ms: Date.now() - started,
      ...(result.asOf ?? published ? { as_of: (result.asOf ?? published)! } : {}),
      ...(published ? { published } : {}),
      path: livePath, files: fileList(),
    };
    emit({ type: 'phase', dataset: name, phase: 'done' });
    emit({ type: 'done', dataset: name, report });
    return report;
  } catch (e) {
    if (opened) {
      try {
        opened.conn.closeSync();
        opened.instance.closeSync();
      } catch {
        /* ignore */
      }
    }
    await dropCopy().catch(() => undefined); // a copy still being made is let finish, then removed
    rmSync(`${tempPath}.wal`, { force: true });
    rmSync(`${tempPath}.tmp`, { recursive: true, force: true });
    const err = e instanceof SyncError ? e : new SyncError(`${name}: ${(e as Error).message}`, name);
    emit({ type: 'failed', dataset: name, error: err });
    throw err;
  } finally {
    await warm?.dispose().catch(() => undefined);
    release?.();
  }
}

/**
 * One `--from` entry as upstream files: a local folder gives its files whose names the module recognises
 * (`fromNames`); a URL ending in `/` is a prefix serving the publisher's names, so the module's discover
 * runs with it as base URL; anything else is one file or URL.
 */
async function expandFrom(
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

function latest(dates: Array<string | undefined>): string | undefined {
  return dates.filter((d): d is string => !!d).sort().pop();
}

function cleanupDownloads(got: Array<{ path: string; bytes: number; downloaded: boolean }>, opts: RunSyncOptions): void {
  if (opts.keepDownloads) return;
  for (const g of got) if (g.downloaded && g.bytes > 64 * 1024 * 1024) rmSync(g.path, { force: true });
}

async function insertRows(conn: DuckDBConnection, table: string, rows: Row[]): Promise<void> {
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

async function countMainRows(conn: DuckDBConnection, mod: Pick<DatasetModule, 'tables'>): Promise<number> {
  let n = 0;
  for (const t of await mainTables(conn, mod)) {
    const [r] = await query<{ n: number }>(conn, `SELECT count(*) AS n FROM ${quoteIdent(t)}`);
    n += r?.n ?? 0;
  }
  return n;
}

/** Sync several datasets one after another; a failure of one does not stop the others. */
export async function runSync(names: string[], opts: RunSyncOptions): Promise<SyncReport[]> {
  const list = names.length ? names : SYNC_DATASETS;
  const reports: SyncReport[] = [];
  for (const name of list) {
    try {
      reports.push(await syncDataset(name, opts));
    } catch (e) {
      reports.push({
        dataset: name, status: 'failed', rows_loaded: 0, rows_rejected: 0, bytes_downloaded: 0, duration_ms: 0,
        files: [], error: (e as Error).message,
      });
    }
  }
  return reports;
}

