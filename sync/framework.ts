/**
 * The sync pipeline: discover → download → load into `<file>.new-<pid>` → verify → checkpoint, close →
 * atomic rename over the live file. One function per stage below; the lock and temp-file guards are in
 * lock.ts, downloads in download.ts, the integrity checks in integrity.ts, the progress display in
 * progress.ts; the read side (`mirror status`, `sql`, export) is in src/mirror/.
 *
 * Crash safety: the live file is only ever replaced by rename(2) of a complete, checkpointed, closed
 * file in the same directory, so a SIGKILL at any point leaves either the old or the new file in place,
 * never a half-written one. Temp files (`<file>.new-<pid>`, its `.wal` and `.tmp` spill dir) of dead
 * processes are removed at the start of the next sync; downloads resume from `.part` files.
 */
import { constants as fsConstants, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { copyFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { loadDuckDB } from '../src/mirror/db.js';
import { cacheDir as defaultCacheDir, mirrorDir as defaultMirrorDir, type Env } from '../src/mirror/paths.js';
import { REJECTS_DDL, SYNC_LOG_DDL } from '../src/mirror/schema.js';
import { readSyncHistory, type SyncHistory } from '../src/mirror/sync-log.js';
import { VERSION } from '../src/version.js';
import { download, fetchText, remoteSize, sha256File, type RetryOptions } from './download.js';
import { damagedReason, DEFAULT_MAX_SHRINK, incompleteReason, notCsvReason, shrinkAdvice, shrinkReason, unitShrinkMessage, unitShrinks } from './integrity.js';
import { duckdbLoadError } from './load-error.js';
import { acquireLock, cleanStaleTemps, fsyncPath, SyncError } from './lock.js';
import { fmtBytes } from './progress.js';
import {
  cleanupDownloads, closeQuietly, countMainRows, expandFrom, insertRows, latest, limiter, localPath, openWritable, removeTemp, type Opened,
} from './stage-helpers.js';
import type { DatasetModule, LoadResult, ProgressSink, SyncEvent, SyncOptions, SyncReport, UpstreamFile, Warm } from './types.js';

export { cleanStaleTemps, SyncError };
export { defaultSyncMemory } from './stage-helpers.js';

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
  /** `--keep-downloads`: keep downloaded files in the cache after the sync (default: removed once loaded and verified). */
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

type Got = UpstreamFile & { path: string; sha256: string; bytes: number; downloaded: boolean };

/** One dataset's sync in progress: what every stage reads and what the failure path cleans up. */
interface Run {
  name: string;
  mod: DatasetModule;
  opts: RunSyncOptions;
  env: Env;
  mirror: string;
  cache: string;
  now: () => Date;
  emit: (e: SyncEvent) => void;
  started: number;
  livePath: string;
  tempPath: string;
  /** The live file's history (undefined when there is none, or it is damaged and being rebuilt). */
  prev?: SyncHistory;
  /** Why the live file was found damaged (the sync then rebuilds it with a full load). */
  damaged?: string;
  /** What this sync does to the data already there, for the summary. */
  action?: NonNullable<SyncReport['action']>;
  opened?: Opened;
  warm?: Warm;
  /** The copy of the live file an incremental update starts during the download. */
  copying?: Promise<void>;
  got: Got[];
  bytesDownloaded: number;
}

/**
 * Sync one dataset through its module. Never leaves a half-written live file; throws SyncError on failure.
 * The module is handed in: which module a dataset name means is the sync runner's business
 * (src/sync-runner.ts, beside the registry), so the framework imports no registry and no domain.
 */
export async function syncModule(mod: DatasetModule, opts: RunSyncOptions): Promise<SyncReport> {
  const name = mod.name;
  const env = opts.env;
  const mirror = opts.mirrorDir ?? defaultMirrorDir(env);
  const cache = opts.cacheDir ?? defaultCacheDir(env);
  mkdirSync(mirror, { recursive: true });
  mkdirSync(cache, { recursive: true });
  const run: Run = {
    name, mod, opts, env, mirror, cache, now: opts.now ?? (() => new Date()), emit: (e) => opts.progress?.(e),
    started: Date.now(), livePath: join(mirror, mod.file), tempPath: join(mirror, `${mod.file}.new-${process.pid}`),
    got: [], bytesDownloaded: 0,
  };
  let release: (() => void) | undefined;
  try {
    release = acquireLock(mirror, mod.file, name);
    const removed = cleanStaleTemps(mirror, mod.file);
    if (removed.length) run.emit({ type: 'message', dataset: name, text: `removed stale temp files: ${removed.join(', ')}` });
    // DuckDB's native module first: loading it while the module's warm-up threads start took twice as
    // long (112 -> 220 ms measured, 2 cores), and they have discovery and the download to start in anyway
    if (mod.warmUp) await loadDuckDB();
    // started now, it warms up while the history is read, discovery runs and the files download
    run.warm = mod.warmUp?.(env);
    await readLiveFile(run);
    const files = await discoverFiles(run);
    if (!files.length && run.prev && !opts.from) return upToDate(run); // accounts: no new zip
    if (!files.length) throw new SyncError(`${name}: nothing to download`, name);
    const incremental = files.some((f) => f.kind === 'update');
    if (incremental && !run.prev) {
      if (run.damaged) throw new SyncError(`${name}: the mirror file is damaged (${run.damaged}); run 'publicdata sync ${name}' (a full load) to rebuild it before applying ${files.find((f) => f.kind === 'update')!.name}`, name);
      throw new SyncError(
        `${name}: ${files.find((f) => f.kind === 'update')!.name} is an update file, but there is no data to apply it to; run 'publicdata sync ${name}' (a full load) first`,
        name,
      );
    }
    if (incremental) startCopy(run);
    const hashing = await downloadFiles(run, files);
    await opts.hooks?.at?.('downloaded', name);
    if (!hashing.length && alreadyLoaded(run)) {
      await dropCopy(run);
      return upToDate(run);
    }
    const result = await loadFiles(run, incremental);
    if (hashing.length) {
      await Promise.all(hashing);
      if (alreadyLoaded(run)) {
        closeQuietly(run.opened);
        run.opened = undefined;
        removeTemp(run.tempPath);
        return upToDate(run);
      }
    }
    await opts.hooks?.at?.('loaded', name);
    const rowsTotal = await verifyLoad(run, result);
    const published = await writeSyncLog(run, result, rowsTotal, incremental);
    await swap(run);
    return synced(run, result, rowsTotal, published);
  } catch (e) {
    closeQuietly(run.opened);
    await dropCopy(run).catch(() => undefined); // a copy still being made is let finish, then removed
    removeTemp(run.tempPath);
    const err = e instanceof SyncError ? e : new SyncError(`${name}: ${(e as Error).message}`, name);
    run.emit({ type: 'failed', dataset: name, error: err });
    throw err;
  } finally {
    await run.warm?.dispose().catch(() => undefined);
    release?.();
  }
}

/**
 * The live file's history (one read-only open, with the module's own state), then a read of every block:
 * a file DuckDB cannot read whole is rebuilt by a full load instead of being called up to date or updated.
 */
async function readLiveFile(run: Run): Promise<void> {
  if (!existsSync(run.livePath)) return;
  const prev = await readSyncHistory(run.livePath, run.mod.readPrevious?.bind(run.mod));
  run.damaged = prev.damaged ?? (await damagedReason(run.livePath));
  if (run.damaged) {
    run.action = 'rebuilt';
    const what = /sync_log/.test(run.damaged) ? 'has no sync history, so what it holds cannot be told' : `is damaged (${run.damaged})`;
    run.emit({ type: 'message', dataset: run.name, text: `${run.livePath} ${what}; rebuilding it with a full load` });
    return;
  }
  run.prev = prev;
}

function retryOptions(run: Run): RetryOptions {
  const o = run.opts;
  return {
    ...(o.connectRetries !== undefined ? { connectRetries: o.connectRetries } : {}),
    ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
    onRetry: (n) => run.emit({ type: 'retry', dataset: run.name, ...n }),
  };
}

/**
 * The files to load: the module's discovery, or the `--from` entries. A `--from` file of a dataset that
 * accumulates (the module's `fromAdds`) is added to the data there (an update) unless `--replace`/`--force`.
 */
async function discoverFiles(run: Run): Promise<UpstreamFile[]> {
  const { mod, opts, prev } = run;
  run.emit({ type: 'phase', dataset: run.name, phase: 'discover' });
  const discoverWith = (baseUrl: string) =>
    mod.discover({
      baseUrl,
      fetchText: (u) => fetchText(u, { ...retryOptions(run), retries: opts.retries ?? 3 }),
      sizeOf: (u) => remoteSize(u),
      options: opts,
      now: run.now,
      ...(prev ? { previous: prev.state } : {}),
    });
  const froms = typeof opts.from === 'string' ? [opts.from] : [...(opts.from ?? [])];
  if (!froms.length) return discoverWith(resolveBaseUrl(mod, run.env));
  let files: UpstreamFile[] = [];
  for (const from of froms) {
    for (const f of await expandFrom(mod, from, discoverWith)) files.push({ ...f, ...(mod.classifyFrom?.(f.name) ?? {}) });
  }
  const seen = new Set<string>();
  files = files.filter((f) => (seen.has(f.url) ? false : (seen.add(f.url), true)));
  if (prev && !opts.replace && !opts.force && mod.fromAdds && files.every((f) => f.kind === 'update' || mod.fromAdds!(f.name))) {
    files = files.map((f) => ({ ...f, kind: 'update' as const }));
    run.action = 'added';
  } else if (prev && files.some((f) => f.kind !== 'update')) {
    run.action = 'replaced';
  }
  return files;
}

/**
 * An incremental update works on a copy of the live file (which answers until the rename), made while
 * the files download rather than after: COPYFILE_FICLONE makes it a copy-on-write clone where the file
 * system can (btrfs, XFS, APFS: constant time whatever the mirror's size), a plain copy elsewhere
 * (ext4: the size of the mirror, then overlapped by the download).
 */
function startCopy(run: Run): void {
  removeTemp(run.tempPath);
  run.copying = copyFile(run.livePath, run.tempPath, fsConstants.COPYFILE_FICLONE);
  run.copying.catch(() => undefined); // awaited before the load, or before the temp file is removed
}

async function dropCopy(run: Run): Promise<void> {
  await run.copying?.catch(() => undefined);
  rmSync(run.tempPath, { force: true });
}

/** `--from` files hashed at once (the rest wait their turn; the load does not wait for them). */
const HASH_CONCURRENCY = 2;

/**
 * Download the files (a local `--from` file is used in place) and check each is whole (integrity.ts).
 * Returns the hashing of local files, which runs while the load does (a 5 GB file takes ~20 s to hash
 * on one core); downloads were hashed while streaming.
 */
async function downloadFiles(run: Run, files: UpstreamFile[]): Promise<Array<Promise<void>>> {
  const { name, opts, mod } = run;
  const approx = files.reduce((n, f) => n + (f.approxBytes ?? 0), 0);
  run.emit({
    type: 'phase', dataset: name, phase: 'download',
    ...(approx ? { detail: `${files.length} file${files.length === 1 ? '' : 's'}, about ${fmtBytes(approx)} to download` } : {}),
  });
  const hashing: Array<Promise<void>> = [];
  const hashSlot = limiter(HASH_CONCURRENCY);
  for (const f of files) {
    const local = localPath(f.url);
    if (local) {
      if (!existsSync(local)) throw new SyncError(`${name}: no such file ${local}`, name);
      const wrong = notCsvReason(local, f.name);
      if (wrong) throw new SyncError(`${name}: ${local} is not a CSV: ${wrong}; kept the previous data`, name);
      const why = await incompleteReason(local, f.name);
      if (why) throw new SyncError(`${name}: ${local} looks incomplete: ${why}; kept the previous data`, name);
      const entry: Got = { ...f, url: local, path: local, sha256: '', bytes: statSync(local).size, downloaded: false };
      run.got.push(entry);
      const h = hashSlot(() => sha256File(local)).then((sha) => {
        if (f.sha256 && f.sha256.toLowerCase() !== sha) throw new SyncError(`${name}: checksum mismatch for ${local}`, name);
        entry.sha256 = sha;
      });
      h.catch(() => undefined); // awaited after the load; no unhandled rejection meanwhile
      hashing.push(h);
      continue;
    }
    const res = await download({
      url: f.url,
      dest: join(run.cache, name, f.name),
      ...(f.sha256 ? { expectedSha256: f.sha256 } : {}),
      ...(f.size !== undefined ? { expectedSize: f.size } : {}),
      ...(f.headers ? { headers: f.headers } : {}),
      ...retryOptions(run),
      retries: opts.retries ?? 5,
      ...(opts.maxBytesPerSecond ? { maxBytesPerSecond: opts.maxBytesPerSecond } : {}),
      checkComplete: (part) => incompleteReason(part, f.name),
      onProgress: (p) => run.emit({ type: 'download', dataset: name, file: f.name, ...p }),
    }).catch((e: Error) => {
      // a fixed or guessed URL that is not there: say where the file is published and how to pass it
      const hint = / HTTP 404$/.test(e.message) && !opts.from
        ? `; the file is not at that address (moved, or not published yet): download it from ${mod.sourceUrl} and run 'publicdata sync ${name} --from <the file>'`
        : '';
      throw new SyncError(`${name}: ${e.message}${hint}`, name);
    });
    const got: Got = { ...f, path: res.path, sha256: res.sha256, bytes: res.bytes, downloaded: true };
    const published = f.published ?? res.lastModified;
    if (published) got.published = published;
    run.got.push(got);
    run.bytesDownloaded += res.bytes;
    // With a Content-Length the size was checked while streaming; the content is checked too (a server
    // may state the length of what it had, a file cut short at the source).
    const wrong = notCsvReason(res.path, f.name);
    if (wrong) throw new SyncError(`${name}: ${f.url} is not a CSV: ${wrong}; kept the previous data`, name);
    const why = await incompleteReason(res.path, f.name);
    if (why) {
      rmSync(res.path, { force: true });
      throw new SyncError(`${name}: the download of ${f.url} is incomplete: ${why}; kept the previous data`, name);
    }
  }
  return hashing;
}

/**
 * Nothing to do (unless --force): an update whose files are all among the files the current mirror was
 * built from, or a full load of exactly those files (a full load of fewer replaces the data: not a no-op).
 */
function alreadyLoaded(run: Run): boolean {
  if (!run.prev || run.opts.force || run.got.some((g) => g.reload)) return false;
  const current = run.prev.current;
  const shas = new Set(run.got.map((g) => g.sha256));
  if (![...shas].every((s) => current.has(s))) return false;
  return run.got.some((g) => g.kind === 'update') || shas.size === current.size;
}

function fileList(run: Run): SyncReport['files'] {
  return run.got.map((g) => ({
    url: g.url, name: g.name, sha256: g.sha256, bytes: g.bytes, kind: g.kind ?? 'full',
    ...(g.published ? { published: g.published } : {}),
  }));
}

function upToDate(run: Run): SyncReport {
  cleanupDownloads(run.got, run.opts.keepDownloads);
  const last = run.prev?.state.lastSync;
  const report: SyncReport = {
    dataset: run.name, status: 'up_to_date', rows_loaded: 0, rows_rejected: 0,
    ...(last?.rows_total != null ? { rows_total: last.rows_total } : {}),
    bytes_downloaded: run.bytesDownloaded, duration_ms: Date.now() - run.started,
    ...(last?.as_of ? { as_of: last.as_of } : {}),
    path: run.livePath, files: fileList(run),
    note: 'already holds these files',
  };
  run.emit({ type: 'done', dataset: run.name, report });
  return report;
}

/** Load into a new file beside the live one: empty for a full load, the copy for an incremental one. */
async function loadFiles(run: Run, incremental: boolean): Promise<LoadResult> {
  const { name, mod, emit } = run;
  emit({ type: 'phase', dataset: name, phase: 'load', detail: incremental ? 'incremental' : 'full' });
  if (run.copying) await run.copying;
  else removeTemp(run.tempPath);
  run.opened = await openWritable(run.tempPath, run.opts, run.env, mod.memoryLimit);
  const { conn } = run.opened;
  await conn.run(SYNC_LOG_DDL);
  await conn.run(REJECTS_DDL);
  await conn.run('DELETE FROM rejects');
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
  // The dataset's scratch folder (zip members, staged files): emptied before the load, so what a killed
  // sync left there (earnings' stage-*, crime's extracted months) does not stay in the cache for ever,
  // and after it. The dataset's lock is held: no other sync of it uses the folder.
  const workDir = join(run.cache, name, 'extract');
  rmSync(workDir, { recursive: true, force: true });
  try {
    return await mod.load({
      conn,
      files: run.got.map(({ downloaded: _d, ...g }) => g),
      ...(run.prev ? { previousPath: run.livePath } : {}),
      options: run.opts,
      progress: (rows) => emit({ type: 'rows', dataset: name, rows }),
      mode: incremental ? 'incremental' : 'full',
      env: run.env,
      log: (text) => emit({ type: 'message', dataset: name, text }),
      status: (text, share) => emit({ type: 'status', dataset: name, text, ...(share ? { share } : {}) }),
      workDir,
      ...(run.warm ? { warm: run.warm } : {}),
      ...(run.opts.sleep ? { sleep: run.opts.sleep } : {}),
    });
  } catch (e) {
    // a DuckDB error reading a file (a malformed CSV): one line naming the file and the fix, not DuckDB's dump;
    // a module's own message as it is. Either way the live file is untouched, and the line says so.
    const given = run.got.map((g) => ({ path: g.path, shown: g.downloaded ? g.url : g.path }));
    const plain = duckdbLoadError(e, given, workDir);
    // (a module's message does not say it: the framework does, once)
    throw new SyncError(`${name}: ${plain ?? `load failed: ${(e as Error)?.message ?? String(e)}; kept the previous data`}`, name);
  } finally {
    clearInterval(poll);
    rmSync(workDir, { recursive: true, force: true });
    const w = run.warm;
    run.warm = undefined;
    await w?.dispose().catch(() => undefined);
  }
}

/**
 * Reject threshold, rows in the table(s) == rows loaded (full loads), no shrink beyond the module's share
 * against the previous load of the same files, then the module's own checks. Returns the rows in the
 * main table(s).
 */
async function verifyLoad(run: Run, result: LoadResult): Promise<number> {
  const { name, mod } = run;
  const conn = run.opened!.conn;
  run.emit({ type: 'phase', dataset: name, phase: 'verify' });
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
    const names = run.got.map((g) => g.name).sort();
    const maxShrink = mod.maxShrink ?? DEFAULT_MAX_SHRINK;
    // each unit a file replaced (a force-month, the register, an authority, an edition) against what it held, whatever the file's name
    if (!run.opts.allowShrink && mod.units && result.replaced?.length && run.prev && !run.damaged) {
      const drops = await unitShrinks(conn, run.livePath, mod.units, result.replaced, maxShrink);
      if (drops.length) throw new Error(`${unitShrinkMessage(mod.units.what, drops, maxShrink)}; if the publisher really removed them, run again with --allow-shrink`);
    }
    const shrink = run.opts.allowShrink || result.mode !== 'full' ? undefined : shrinkReason({
      rows: rowsTotal,
      previousRows: run.prev?.state.lastSync?.rows_total,
      sameFiles: !!run.prev && names.join('\n') === [...run.prev.lastFullNames].sort().join('\n'),
      maxShrink,
    });
    if (shrink) throw new Error(shrinkAdvice(shrink, result.badFiles ?? []));
    await mod.verify(conn, result);
  } catch (e) {
    throw new SyncError(`${name}: verification failed: ${(e as Error).message}; kept the previous data`, name);
  }
  return rowsTotal;
}

/** sync_log: the history of the previous file (full loads start from an empty file), then this sync. */
async function writeSyncLog(run: Run, result: LoadResult, rowsTotal: number, incremental: boolean): Promise<string | undefined> {
  const conn = run.opened!.conn;
  const { got } = run;
  if (!incremental && run.prev?.history.length) await insertRows(conn, 'sync_log', run.prev.history);
  const published = latest(got.map((g) => g.published));
  await conn.run(
    `INSERT INTO sync_log (dataset, source_url, published, sha256, bytes, rows_loaded, rows_rejected, rows_total, duration_ms, mode, as_of, synced_at, files, tool_version)
     VALUES (?, ?, CAST(? AS DATE), ?, ?, ?, ?, ?, ?, ?, CAST(? AS DATE), CAST(? AS TIMESTAMP), ?, ?)`,
    [
      run.name, got.map((g) => g.url).join(' '), published ?? null, got.map((g) => g.sha256).join(' '),
      got.reduce((s, g) => s + g.bytes, 0), result.rows, result.rejected, rowsTotal, Date.now() - run.started,
      result.mode, result.asOf ?? published ?? null, run.now().toISOString().replace('T', ' ').replace('Z', ''),
      JSON.stringify(fileList(run)), VERSION,
    ],
  );
  return published;
}

/** Checkpoint, close, fsync, atomic rename; then the downloads go (unless --keep-downloads). */
async function swap(run: Run): Promise<void> {
  const { name, tempPath } = run;
  run.emit({ type: 'phase', dataset: name, phase: 'swap' });
  const opened = run.opened!;
  await opened.conn.run('CHECKPOINT');
  opened.conn.closeSync();
  opened.instance.closeSync();
  run.opened = undefined;
  if (existsSync(`${tempPath}.wal`)) {
    // A checkpointed, closed database leaves no WAL; if one is there the file is not self-contained.
    throw new SyncError(`${name}: the new file still has a write-ahead log after checkpoint; kept the previous data`, name);
  }
  fsyncPath(tempPath);
  await run.opts.hooks?.at?.('before-rename', name);
  await rename(tempPath, run.livePath);
  fsyncPath(run.mirror);
  rmSync(`${tempPath}.tmp`, { recursive: true, force: true });
  cleanupDownloads(run.got, run.opts.keepDownloads);
}

const ACTION_NOTES: Record<NonNullable<SyncReport['action']>, string> = {
  added: 'added to the data already there (--replace replaces it instead)',
  replaced: 'replaced the data that was there',
  rebuilt: 'the mirror file was damaged: rebuilt with a full load',
  updated: 'applied as an update to the data already there',
};

function synced(run: Run, result: LoadResult, rowsTotal: number, published: string | undefined): SyncReport {
  // a module that merged into the data there (mode 'incremental': crime keeps the months and forces a
  // --from file does not carry) updated it, whatever the kind of the files given
  const merged = result.mode === 'incremental' && run.action === 'replaced';
  const action = merged ? 'updated' : run.action ?? (result.mode === 'incremental' ? 'updated' : run.prev ? 'replaced' : undefined);
  const notes = [action ? ACTION_NOTES[action] : undefined, result.note].filter(Boolean);
  const report: SyncReport = {
    dataset: run.name, status: 'synced', mode: result.mode, rows_loaded: result.rows, rows_rejected: result.rejected,
    rows_total: rowsTotal, bytes_downloaded: run.bytesDownloaded, duration_ms: Date.now() - run.started,
    ...(result.asOf ?? published ? { as_of: (result.asOf ?? published)! } : {}),
    ...(published ? { published } : {}),
    ...(action ? { action } : {}),
    ...(notes.length ? { note: notes.join('; ') } : {}),
    path: run.livePath, files: fileList(run),
  };
  run.emit({ type: 'phase', dataset: run.name, phase: 'done' });
  run.emit({ type: 'done', dataset: run.name, report });
  return report;
}
