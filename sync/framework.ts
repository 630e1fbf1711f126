/**
 * The sync framework: discover → download → load into `<file>.new-<pid>` → verify → checkpoint, close →
 * atomic rename over the live file. Plus `mirrorStatus`, `runSql` and `exportMirror`.
 *
 * Crash safety: the live file is only ever replaced by rename(2) of a complete, checkpointed, closed
 * file in the same directory, so a SIGKILL at any point leaves either the old or the new file in place,
 * never a half-written one. Temp files (`<file>.new-<pid>`, its `.wal` and `.tmp` spill dir) of dead
 * processes are removed at the start of the next sync; downloads resume from `.part` files.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, rename } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { onFatalExit } from '../src/fatal.js';
import { attributionFor, DATASETS, datasetInfo } from '../src/mirror/catalog.js';
import { jsonConverter, loadDuckDB, query, type Param, type Row, type SyncLogEntry } from '../src/mirror/db.js';
import { cacheDir as defaultCacheDir, datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from '../src/mirror/paths.js';
import { REJECTS_DDL, SYNC_LOG_DDL } from '../src/mirror/schema.js';
import { fromOption, quoteIdent } from './common.js';
import { download, fetchText, sha256File, type RetryOptions } from './download.js';
import { isSyncDataset, loadModule, SYNC_DATASETS } from './registry.js';
import type {
  DatasetModule, LoadResult, PreviousState, ProgressSink, SyncEvent, SyncOptions, SyncReport, UpstreamFile,
} from './types.js';

export const TOOL_VERSION = '0.1.0';

/** Points where a test (or a debugger) may pause a sync: after download, after load, just before the rename. */
export type HookPoint = 'downloaded' | 'loaded' | 'before-rename';

export interface RunSyncOptions extends SyncOptions {
  env?: Env;
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

export class SyncError extends Error {
  constructor(message: string, readonly dataset: string) {
    super(message);
    this.name = 'SyncError';
  }
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

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove `<file>.new-<pid>` (+ .wal, .tmp) left by dead processes. Returns the names removed. */
export function cleanStaleTemps(mirrorDir: string, file: string): string[] {
  if (!existsSync(mirrorDir)) return [];
  const removed: string[] = [];
  const re = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.new-(\\d+)(\\.wal|\\.tmp)?$`);
  for (const entry of readdirSync(mirrorDir)) {
    const m = re.exec(entry);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && pidAlive(pid)) continue;
    rmSync(join(mirrorDir, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

/** A per-dataset lock file holding the pid; a lock of a dead process is taken over. */
function acquireLock(mirrorDir: string, file: string, dataset: string): () => void {
  const lock = join(mirrorDir, `${file}.sync-lock`);
  for (let i = 0; i < 2; i++) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      // Released on the normal path, and by the last-resort handler if the process crashes mid-sync.
      const unregister = onFatalExit(() => rmSync(lock, { force: true }));
      return () => {
        unregister();
        rmSync(lock, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      if (pid !== process.pid && pidAlive(pid)) {
        throw new SyncError(`another sync of ${dataset} is running (pid ${pid})`, dataset);
      }
      rmSync(lock, { force: true });
    }
  }
  throw new SyncError(`could not take the sync lock ${lock}`, dataset);
}

function fsyncPath(path: string): void {
  try {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort (directories on some platforms) */
  }
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

async function readPrevious(path: string): Promise<{ state: PreviousState; history: Row[]; shas: Set<string> }> {
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

const fmtBytes = (n: number): string => {
  const u = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < u.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 || i === 0 ? v.toFixed(0) : v.toFixed(1)} ${u[i]}`;
};
const fmtDuration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
};

/** Sync one dataset. Never leaves a half-written live file; throws SyncError on failure. */
export async function syncDataset(name: string, opts: RunSyncOptions = {}): Promise<SyncReport> {
  const env = opts.env ?? process.env;
  const mirror = opts.mirrorDir ?? defaultMirrorDir(env);
  const cache = opts.cacheDir ?? defaultCacheDir(env);
  const now = opts.now ?? (() => new Date());
  const emit = (e: SyncEvent) => opts.progress?.(e);
  const started = Date.now();
  const mod = await loadModule(name);
  const file = mod.file;
  mkdirSync(mirror, { recursive: true });
  mkdirSync(cache, { recursive: true });
  const livePath = datasetPath(name, mirror);
  const tempPath = join(mirror, `${file}.new-${process.pid}`);

  let release: (() => void) | undefined;
  let opened: Opened | undefined;
  try {
    release = acquireLock(mirror, file, name);
    const removed = cleanStaleTemps(mirror, file);
    if (removed.length) emit({ type: 'message', dataset: name, text: `removed stale temp files: ${removed.join(', ')}` });

    const prev = existsSync(livePath) ? await readPrevious(livePath) : undefined;

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
    if (!hashing.length && upToDate()) return upToDateReport();

    // 3. load into a new file beside the live one
    emit({ type: 'phase', dataset: name, phase: 'load', detail: incremental ? 'incremental' : 'full' });
    rmSync(tempPath, { force: true });
    rmSync(`${tempPath}.wal`, { force: true });
    if (incremental) await copyFile(livePath, tempPath);
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
      });
    } catch (e) {
      throw new SyncError(`${name}: load failed: ${(e as Error).message}`, name);
    } finally {
      clearInterval(poll);
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
        JSON.stringify(fileList()), TOOL_VERSION,
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
    rmSync(tempPath, { force: true });
    rmSync(`${tempPath}.wal`, { force: true });
    rmSync(`${tempPath}.tmp`, { recursive: true, force: true });
    const err = e instanceof SyncError ? e : new SyncError(`${name}: ${(e as Error).message}`, name);
    emit({ type: 'failed', dataset: name, error: err });
    throw err;
  } finally {
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

async function mainTables(conn: DuckDBConnection, mod?: Pick<DatasetModule, 'tables'>): Promise<string[]> {
  if (mod?.tables?.length) return [...mod.tables];
  const rows = await query<{ table_name: string }>(
    conn,
    "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary AND table_name NOT IN ('sync_log', 'rejects') ORDER BY table_name",
  );
  return rows.map((r) => r.table_name);
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
export async function runSync(names: string[], opts: RunSyncOptions = {}): Promise<SyncReport[]> {
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

// ---------------------------------------------------------------------------------------------------
// Progress: a bar on a TTY, one summary line per dataset otherwise.

export interface ProgressReporterOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Defaults to stream.isTTY. */
  tty?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

export function createProgressReporter(o: ProgressReporterOptions): ProgressSink {
  const tty = o.tty ?? !!o.stream.isTTY;
  let lastLen = 0;
  let lastDraw = 0;
  const draw = (line: string, force = false) => {
    if (!tty || o.quiet) return;
    const t = Date.now();
    if (!force && t - lastDraw < 100) return;
    lastDraw = t;
    const width = Math.max(20, (o.stream.columns ?? 100) - 1);
    const s = line.length > width ? line.slice(0, width) : line;
    o.stream.write(`\r${s}${' '.repeat(Math.max(0, lastLen - s.length))}`);
    lastLen = s.length;
  };
  const endLine = () => {
    if (tty && lastLen) o.stream.write('\r' + ' '.repeat(lastLen) + '\r');
    lastLen = 0;
  };
  let loadStart: number | undefined;
  return (e: SyncEvent) => {
    switch (e.type) {
      case 'phase':
        if (e.phase === 'load') loadStart = Date.now();
        // The download size, stated before a long download starts (also when not on a terminal).
        if (!tty && !o.quiet && e.phase === 'download' && e.detail) o.stream.write(`${e.dataset}: ${e.detail}\n`);
        if (tty) draw(`${e.dataset}: ${e.phase}${e.detail ? ` (${e.detail})` : ''}…`, true);
        break;
      case 'download': {
        const pct = e.total ? e.bytes / e.total : undefined;
        const barW = 24;
        const bar = pct === undefined ? '' : `[${'#'.repeat(Math.round(pct * barW)).padEnd(barW, '.')}] `;
        const eta = e.total && e.rate > 0 ? ` ETA ${fmtDuration(((e.total - e.bytes) / e.rate) * 1000)}` : '';
        draw(`${e.dataset} ${e.file} ${bar}${fmtBytes(e.bytes)}${e.total ? ` / ${fmtBytes(e.total)}` : ''}  ${fmtBytes(e.rate)}/s${eta}`);
        break;
      }
      case 'rows':
        draw(`${e.dataset}: loaded ${e.rows.toLocaleString('en-GB')} rows`, true);
        break;
      case 'load': {
        loadStart ??= Date.now();
        const barW = 24;
        const pct = Math.min(100, Math.max(0, e.percentage));
        const el = Date.now() - loadStart;
        const eta = pct > 1 ? ` ETA ${fmtDuration((el * (100 - pct)) / pct)}` : '';
        draw(`${e.dataset}: loading [${'#'.repeat(Math.round((pct / 100) * barW)).padEnd(barW, '.')}] ${pct.toFixed(0)}%${eta}`);
        break;
      }
      case 'retry': {
        // Say what it waits for: on a terminal always, otherwise with --verbose.
        const text = `${e.dataset}: ${e.reason}; retry ${e.attempt - 1} of ${e.attempts - 1} in ${(e.delayMs / 1000).toFixed(1)}s`;
        if (o.quiet) break;
        if (tty) draw(`${text}…`, true);
        else if (o.verbose) o.stream.write(`${text}\n`);
        break;
      }
      case 'message':
        if (o.verbose && !o.quiet) {
          endLine();
          o.stream.write(`${e.dataset}: ${e.text}\n`);
        }
        break;
      case 'done': {
        endLine();
        if (o.quiet) break;
        const r = e.report;
        if (r.status === 'up_to_date') {
          o.stream.write(`${r.dataset}: already up to date (${(r.rows_total ?? 0).toLocaleString('en-GB')} rows${r.as_of ? `, as of ${r.as_of}` : ''})\n`);
        } else {
          o.stream.write(
            `${r.dataset}: synced (${r.mode === 'incremental' ? 'incremental update' : 'full load'}) ` +
              `${r.rows_loaded.toLocaleString('en-GB')} rows loaded, ${r.rows_rejected.toLocaleString('en-GB')} rejected, ` +
              `${(r.rows_total ?? r.rows_loaded).toLocaleString('en-GB')} in the mirror; ` +
              `${r.bytes_downloaded ? `${fmtBytes(r.bytes_downloaded)} downloaded` : 'from a local file'} in ${fmtDuration(r.duration_ms)}${r.as_of ? `; as of ${r.as_of}` : ''}\n`,
          );
        }
        break;
      }
      case 'failed':
        endLine();
        o.stream.write(`${e.dataset}: sync failed: ${e.error.message}\n`);
        break;
    }
  };
}

// ---------------------------------------------------------------------------------------------------
// mirror status

export interface DatasetStatus {
  dataset: string;
  title: string;
  present: boolean;
  path: string;
  size_bytes: number;
  synced_at: string | null;
  published: string | null;
  as_of: string | null;
  rows: number | null;
  rows_rejected: number | null;
  mode: string | null;
  source_url: string | null;
  publisher_url: string;
  licence: string;
  attribution: string;
  cadence: string;
  stale: boolean | null;
  /** Why it is stale (or not synced). */
  note: string;
}

/**
 * Status of every dataset (or the named ones). Staleness: a dataset is stale when more than its
 * `staleAfterDays` (catalogue; e.g. 45 for the monthly price-paid data) have passed since the upstream
 * publication date it was synced from, or since the sync when the publisher states no date.
 */
export async function mirrorStatus(opts: { env?: Env; mirrorDir?: string; now?: () => Date; datasets?: string[] } = {}): Promise<DatasetStatus[]> {
  const env = opts.env ?? process.env;
  const dir = opts.mirrorDir ?? defaultMirrorDir(env);
  const now = (opts.now ?? (() => new Date()))();
  const out: DatasetStatus[] = [];
  for (const name of opts.datasets?.length ? opts.datasets : Object.keys(DATASETS)) {
    const info = datasetInfo(name);
    const path = datasetPath(name, dir);
    const base: DatasetStatus = {
      dataset: name, title: info.title, present: false, path, size_bytes: 0, synced_at: null, published: null,
      as_of: null, rows: null, rows_rejected: null, mode: null, source_url: null, publisher_url: info.sourceUrl,
      licence: info.licence, attribution: attributionFor(name, now.getUTCFullYear()),
      cadence: info.cadence, stale: null, note: `not synced: run 'publicdata sync ${name}' (about ${info.approxDownload})`,
    };
    if (!isDatasetPresent(name, dir)) {
      out.push(base);
      continue;
    }
    base.present = true;
    base.size_bytes = statSync(path).size;
    const prev = await readPrevious(path);
    const last = prev.history[prev.history.length - 1];
    if (last) {
      base.synced_at = String(last.synced_at);
      base.published = (last.published as string | null) ?? null;
      base.as_of = (last.as_of as string | null) ?? null;
      base.rows = (last.rows_total as number | null) ?? (last.rows_loaded as number);
      base.rows_rejected = last.rows_rejected as number;
      base.mode = String(last.mode);
      base.source_url = (last.source_url as string | null) ?? null;
      const ref = base.published ?? base.synced_at.slice(0, 10);
      const ageDays = Math.floor((now.getTime() - Date.parse(`${ref.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
      base.stale = ageDays > info.staleAfterDays;
      base.note = base.stale
        ? `stale: ${ageDays} days since ${base.published ? 'the upstream publication' : 'the last sync'} (updated ${info.cadence}); run 'publicdata sync ${name}'`
        : `fresh: ${ageDays} days since ${base.published ? 'the upstream publication' : 'the last sync'} (updated ${info.cadence})`;
    } else {
      base.note = `no sync_log in ${path}; run 'publicdata sync ${name} --force'`;
      base.stale = true;
    }
    out.push(base);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// publicdata sql

/** A string literal for DuckDB statements that take no bound parameters (ATTACH): quotes doubled. */
function sqlLiteral(s: string): string {
  if (s.includes('\0')) throw new Error('path contains a NUL byte');
  return `'${s.replace(/'/g, "''")}'`;
}

export interface SqlResult {
  columns: Array<{ name: string; type: string }>;
  rows: Row[];
  /** Datasets attached (schema names). */
  attached: string[];
}

/**
 * Run user SQL against every synced dataset, each ATTACHed READ_ONLY under its schema name (e.g.
 * `price_paid.price_paid`; unqualified table names resolve through the search path too). After attaching,
 * file system access is disabled and the configuration locked, so a query can neither write a dataset
 * file nor attach or read other files.
 */
export async function runSql(sql: string, opts: { env?: Env; mirrorDir?: string; params?: Param[]; maxRows?: number } = {}): Promise<SqlResult> {
  const env = opts.env ?? process.env;
  const dir = opts.mirrorDir ?? defaultMirrorDir(env);
  const duck = await loadDuckDB();
  const instance = await duck.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const attached: string[] = [];
    for (const [name, info] of Object.entries(DATASETS)) {
      if (!isDatasetPresent(name, dir)) continue;
      await conn.run(`ATTACH ${sqlLiteral(datasetPath(name, dir))} AS "${info.schema}" (READ_ONLY)`);
      attached.push(info.schema);
    }
    if (attached.length) await conn.run(`SET search_path = ${sqlLiteral(attached.map((s) => `${s}.main`).join(','))}`);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
    // With maxRows only that many rows are read from DuckDB (a chunk or so), not the whole result.
    const reader =
      opts.maxRows !== undefined
        ? await conn.streamAndReadUntil(sql, opts.maxRows, (opts.params ?? []) as never)
        : await conn.runAndReadAll(sql, (opts.params ?? []) as never);
    const names = reader.columnNames();
    const types = reader.columnTypes();
    const columns = names.map((n, i) => ({ name: n, type: types[i]!.toString() }));
    const conv = await jsonConverter();
    let rows = reader.convertRowObjects(conv) as Row[];
    if (opts.maxRows !== undefined) rows = rows.slice(0, opts.maxRows);
    return { columns, rows, attached };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}


// ---------------------------------------------------------------------------------------------------
// mirror export

export interface ExportOptions {
  format: 'parquet' | 'csv';
  outDir: string;
  datasets?: string[];
  env?: Env;
  mirrorDir?: string;
}

export interface ExportedTable {
  dataset: string;
  table: string;
  path: string;
  rows: number;
  partitioned_by?: string;
}

/**
 * Copy every table of the synced datasets to `<outDir>/<dataset>/<table>` with DuckDB COPY: Parquet
 * Hive-partitioned where the module says so (price_paid by year: `price_paid/year=2024/data_0.parquet`),
 * else one `<table>.parquet`; CSV as one `<table>.csv` with a header.
 */
export async function exportMirror(o: ExportOptions): Promise<ExportedTable[]> {
  const env = o.env ?? process.env;
  const dir = o.mirrorDir ?? defaultMirrorDir(env);
  const outDir = isAbsolute(o.outDir) ? o.outDir : resolve(o.outDir);
  const names = o.datasets?.length ? o.datasets : Object.keys(DATASETS).filter((n) => isDatasetPresent(n, dir));
  const duck = await loadDuckDB();
  const out: ExportedTable[] = [];
  for (const name of names) {
    const p = datasetPath(name, dir); // throws for an unknown dataset name
    if (!isDatasetPresent(name, dir)) throw new SyncError(`${name} is not synced: run 'publicdata sync ${name}'`, name);
    const mod = isSyncDataset(name) ? await loadModule(name).catch(() => undefined) : undefined;
    const instance = await duck.DuckDBInstance.create(p, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      const tables = [...(await mainTables(conn, mod)), 'sync_log'];
      for (const t of tables) {
        const q = quoteIdent(t);
        const dsDir = join(outDir, name);
        mkdirSync(dsDir, { recursive: true });
        const [cnt] = await query<{ n: number }>(conn, `SELECT count(*) AS n FROM ${q}`);
        const part = o.format === 'parquet' ? mod?.partitionBy?.[t] : undefined;
        const extra = part ? mod?.exportColumns?.[t] : undefined;
        const select = `SELECT *${extra ? `, ${extra}` : ''} FROM ${q}`;
        let target: string;
        if (o.format === 'parquet' && part) {
          target = join(dsDir, t);
          rmSync(target, { recursive: true, force: true });
          await conn.run(`COPY (${select}) TO ? (FORMAT parquet, PARTITION_BY (${quoteIdent(part)}), COMPRESSION zstd)`, [target]);
        } else if (o.format === 'parquet') {
          target = join(dsDir, `${t}.parquet`);
          await conn.run(`COPY (${select}) TO ? (FORMAT parquet, COMPRESSION zstd)`, [target]);
        } else {
          target = join(dsDir, `${t}.csv`);
          await conn.run(`COPY (${select}) TO ? (FORMAT csv, HEADER true)`, [target]);
        }
        out.push({ dataset: name, table: t, path: target, rows: cnt?.n ?? 0, ...(part ? { partitioned_by: part } : {}) });
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return out;
}

/** `publicdata mirror path [dataset]`: the mirror dir, or one dataset's file. */
export function mirrorPath(dataset?: string, opts: { env?: Env; mirrorDir?: string } = {}): string {
  const dir = opts.mirrorDir ?? defaultMirrorDir(opts.env ?? process.env);
  return dataset ? datasetPath(dataset, dir) : dir;
}


/** Parse `--years 2020-2025` (or a single `2024`) into SyncOptions.years; throws on nonsense. */
export function parseYearsOption(s: string): { from: number; to: number } {
  const m = /^\s*(\d{4})\s*(?:-\s*(\d{4}))?\s*$/.exec(s);
  if (!m) throw new Error(`--years must be YYYY or YYYY-YYYY, got '${s}'`);
  const from = Number(m[1]);
  const to = Number(m[2] ?? m[1]);
  if (from > to) throw new Error(`--years: ${from} is after ${to}`);
  if (from < 1995) throw new Error('--years: price paid data starts in 1995');
  return { from, to };
}
