/**
 * The contract between the sync framework (sync/framework.ts, sync/download.ts) and one module per
 * upstream dataset (sync/<dataset>.ts). Pipeline: discover -> download -> stage (load into a new DuckDB
 * file beside the live one) -> verify -> atomic rename into place. See docs/mirror.md.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { PreviousState } from '../src/mirror/sync-log.js';

/**
 * A dataset's name: any name a domain manifest declares (src/registry.ts); `isSyncDataset` in
 * src/sync-runner.ts checks a name from the command line.
 */
export type DatasetName = string;

/** One upstream file to fetch. */
export interface UpstreamFile {
  url: string;
  /** File name to store in the cache dir (publisher's own name where possible). */
  name: string;
  /** Upstream publication date (YYYY-MM-DD) when the publisher states it (index page, file name). */
  published?: string;
  /** Approximate size shown on the publisher's page (e.g. "(52Mb)"), stated before downloading; not verified. */
  approxBytes?: number;
  /** Expected size or checksum when the publisher states them. */
  size?: number;
  sha256?: string;
  /** `update` files are applied incrementally to the existing data (price-paid monthly update). */
  kind?: 'full' | 'update';
  /** What the sync's summary should say about this file (schools: the previous day's GIAS file was taken). */
  note?: string;
  /** Request headers the publisher requires (the FSA API: `x-api-version: 2`). */
  headers?: Record<string, string>;
  /**
   * Load even when these exact bytes were loaded before: the module's scope changed (food-hygiene: an
   * unchanged authorities list with a different `--authorities`).
   */
  reload?: boolean;
}

export interface SyncOptions {
  /**
   * `--from FILE_OR_URL` (repeatable): skip discovery and use these files or URLs. An entry may also be a
   * local folder (its files whose names the module recognises, see `fromNames`) or a URL prefix ending in
   * `/` (the module's `discover` runs with that prefix as its base URL, as with PUBLICDATA_UPSTREAM_<NAME>).
   */
  from?: string | readonly string[];
  /** `--years 2020-2025` (price-paid yearly files). */
  years?: { from: number; to: number };
  /** `--days N` / `--months N` (accounts): the scope of dated upstream files. */
  days?: number;
  months?: number;
  /**
   * The lists of a dataset's own narrowing options (`--authorities 314,760` for food-hygiene, `--forces`
   * for crime), by option name: declared in its DatasetInfo `syncLists`.
   */
  lists?: Readonly<Record<string, readonly string[]>>;

  /** Full reload even when up to date; with `--from`, replaces the data instead of adding to it. */
  force?: boolean;
  /** `--replace`: a `--from` file replaces the data of a dataset that accumulates, instead of adding to it. */
  replace?: boolean;
  /**
   * `--allow-shrink`: accept more than `maxShrink` fewer rows than the live file held, in a unit a file
   * replaces (whatever the file's name) or in a full reload of the same files.
   */
  allowShrink?: boolean;
}

/** What the framework knows about the live file before a sync (added for incremental syncs). */
/** What a sync knows of the live file (read by src/mirror/sync-log.ts, which the framework imports). */
export type { PreviousState };

export interface DiscoverContext {
  /** Base URL for this dataset: env override, else PUBLICDATA_UPSTREAM_BASE prefix, else the publisher's. */
  baseUrl: string;
  /** Fetch text (index pages, JSON APIs) with the framework's retrying client. */
  fetchText(url: string): Promise<string>;
  /**
   * The size of a remote file in bytes (a one-byte ranged request), to state before a large download
   * whose size the publisher does not print; undefined when the server does not say.
   */
  sizeOf?(url: string): Promise<number | undefined>;
  options: SyncOptions;
  now(): Date;
  /** The live file, when the dataset has been synced before (lets discover pick an update file). */
  previous?: PreviousState;
}

export interface LoadContext {
  /** Connection to the NEW dataset file being built (not the live one). */
  conn: DuckDBConnection;
  /** Local paths of the downloaded files, in discover order. */
  files: Array<UpstreamFile & { path: string }>;
  /** Path of the live dataset file, when one exists (incremental updates ATTACH it read-only or copy from it). */
  previousPath?: string;
  options: SyncOptions;
  /** Report progress (rows loaded so far). */
  progress(rows: number): void;
  /**
   * 'full': `conn` is an empty new file. 'incremental': `conn` is a byte copy of the live file (made by the
   * framework because a discovered file has kind 'update'); apply the changes in place.
   * Both: the framework has already created `sync_log` and `rejects` (see src/mirror/schema.ts); the module
   * inserts its rejected rows into `rejects (file, line, raw, reason)` itself and counts them in `rejected`.
   */
  mode?: 'full' | 'incremental';
  /** Free-text progress messages (shown with --verbose / in the TTY progress). */
  log?(message: string): void;
  /**
   * A transient progress line drawn on a terminal only (food-hygiene: files and bytes so far); with
   * `share` (done of total units, e.g. files) it is drawn behind a bar that fills as they are done.
   */
  status?(text: string, share?: { done: number; total: number }): void;
  /** The sync's environment (its thread setting, src/workers/settings.ts `syncThreads`, for modules that run worker threads). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A scratch directory in the cache for this dataset (zip members are extracted here, one at a time). A
   * copy of a given file made here (re-encoded, say) keeps that file's name: a DuckDB error reading the copy
   * then names the file given (sync/load-error.ts).
   */
  workDir?: string;
  /** What the module's `warmUp` started at the beginning of the sync. */
  warm?: Warm;
  /** How a module waits before retrying its own requests (the sync's; tests record the delays instead). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A module's warm-up handle (`DatasetModule.warmUp`). */
export interface Warm {
  dispose(): Promise<void>;
}

export interface LoadResult {
  rows: number;
  /** Rows that did not parse. The module itself stores them in `rejects` (created by the framework before load). */
  rejected: number;
  /** 'full' or 'incremental': `sync` says which it did. */
  mode: 'full' | 'incremental';
  /** The data's as-of date (latest month/date covered), for meta.as_of. */
  asOf?: string;
  /** What the summary should say about this load besides its counts (a repaired gap, a skipped file). */
  note?: string;
  /**
   * The units (`DatasetModule.units`) this load replaced, each with the file it came from: the framework
   * compares each one's rows with what the live file held (the per-unit shrink check, sync/integrity.ts).
   */
  replaced?: ReadonlyArray<{ unit: string; file: string }>;
  /** Files the load rejected whole (named in the shrink error, which then does not advise --allow-shrink). */
  badFiles?: readonly string[];
}

/**
 * What one file of a dataset replaces (a crime force-month, the schools register, an FSA authority, an
 * ASHE edition): `counts(db)` is a query of (unit VARCHAR, n BIGINT) rows over the tables of schema
 * prefix `db` ('' for the new file, 'shrink_prev.' for the live one); `what` names a unit in messages.
 */
export interface UnitCounts {
  what: string;
  counts(db: string): string;
}

export interface DatasetModule {
  name: DatasetName;
  title: string;
  /** meta.source, e.g. 'HM Land Registry'. */
  publisher: string;
  licence: string;
  /** The attribution line the licence asks for. */
  attribution: string;
  /** meta.source_url: the publisher's page for the data set. */
  sourceUrl: string;
  /** The publisher's default base URL (overridable per dataset by env `PUBLICDATA_UPSTREAM_<NAME>`). */
  defaultBaseUrl: string;
  /** Rough size of a full download, for "not synced" messages, e.g. '5 GB'. */
  approxDownload: string;
  /** DuckDB file name in the mirror dir, e.g. 'price_paid.duckdb'. */
  file: string;
  /** Max share of rejected rows before the sync fails and keeps the old data (default 0.01). */
  rejectThreshold?: number;
  /**
   * Max share of rows a full reload of the same file name(s) may lose against the previous load before
   * the sync fails and keeps the old data (default 0.1, sync/integrity.ts; `--allow-shrink` accepts it); the
   * same share bounds each of the module's `units`.
   */
  maxShrink?: number;
  /**
   * Optional: the units its files replace. A unit a load replaces (LoadResult.replaced) that would hold
   * more than `maxShrink` fewer rows than in the live file fails the sync unless --allow-shrink, whatever
   * the file's name and whether the load is full or incremental.
   */
  units?: UnitCounts;
  /**
   * Optional: the dataset accumulates (accounts zips, MOT years, price-paid yearly files): a `--from` file
   * whose name this accepts is ADDED to the data already there (loaded as an update, `mode: 'incremental'`)
   * unless `--replace` or `--force`. Without it `--from` replaces the data (a full load).
   */
  fromAdds?(name: string): boolean;
  /**
   * Optional: read the module's own state from the live file (accounts: the zips already loaded), on the
   * read-only connection the framework opens for the sync history; the result is `previous.module` in
   * discover (undefined when it throws, e.g. an older file without its table).
   */
  readPrevious?(conn: DuckDBConnection): Promise<unknown>;
  /**
   * Optional: start what the load will need and what takes a while to start (accounts: the extraction
   * worker threads), at the start of the sync so that it overlaps reading the history, discovery and the
   * download. The handle goes to `load` as `ctx.warm`; the framework disposes of it after the load (or
   * when the sync ends without one): `dispose` must be safe to call after the load has used the handle.
   */
  warmUp?(env: Readonly<Record<string, string | undefined>>): Warm | undefined;
  /** Find the upstream file(s). Not called with `--from`: the framework then uses that file (see classifyFrom). */
  discover(ctx: DiscoverContext): Promise<UpstreamFile[]>;
  load(ctx: LoadContext): Promise<LoadResult>;
  /**
   * The module's own sanity checks on the new file before the swap; throw to abort. The framework has
   * already checked the reject threshold and, for full loads, that the main table(s) hold `result.rows` rows.
   */
  verify(conn: DuckDBConnection, result: LoadResult): Promise<void>;
  /**
   * Optional: classify a `--from` file by its name (price-paid: `pp-monthly-update*.csv` → 'update').
   * Default: a full load.
   */
  classifyFrom?(name: string): Pick<UpstreamFile, 'kind' | 'published'>;
  /**
   * Optional: the publisher's file names this module reads (a `--from` folder contributes the files whose
   * names match). Without it a folder given to `--from` is an error.
   */
  fromNames?: RegExp;
  /** Optional: main tables and their row counts for `mirror status` (default: every table but sync_log/rejects). */
  tables?: readonly string[];
  /**
   * Optional: DuckDB memory_limit for this module's load ('3GB', or 'auto' = half the RAM, 1 to 3 GB, so a
   * big sort spills to disk). Default: DuckDB's own (80% of RAM). Env PUBLICDATA_SYNC_MEMORY overrides.
   */
  memoryLimit?: string;
}

/** Phases of one dataset's sync, in order (for progress sinks and test hooks). */
export type SyncPhase = 'discover' | 'download' | 'load' | 'verify' | 'swap' | 'done';

/** Events a sync reports to its progress sink; the CLI decides how to show them. */
export type SyncEvent =
  | { type: 'phase'; dataset: string; phase: SyncPhase; detail?: string }
  | { type: 'download'; dataset: string; file: string; bytes: number; total?: number; rate: number }
  | { type: 'rows'; dataset: string; rows: number }
  /** DuckDB's progress of the running load statement (0-100), polled by the framework. */
  | { type: 'load'; dataset: string; percentage: number }
  | { type: 'message'; dataset: string; text: string }
  /** A module's transient progress line (drawn on a terminal, dropped otherwise). */
  | { type: 'status'; dataset: string; text: string; share?: { done: number; total: number } }
  /** A request failed and will be tried again after `delayMs` (see RetryNotice in sync/download.ts). */
  | { type: 'retry'; dataset: string; url: string; attempt: number; attempts: number; delayMs: number; reason: string }
  | { type: 'done'; dataset: string; report: SyncReport }
  | { type: 'failed'; dataset: string; error: Error };

export type ProgressSink = (e: SyncEvent) => void;

/** The outcome of syncing one dataset. */
export interface SyncReport {
  dataset: string;
  status: 'synced' | 'up_to_date' | 'failed';
  mode?: 'full' | 'incremental';
  rows_loaded: number;
  rows_rejected: number;
  /** Rows in the main table(s) after the sync. */
  rows_total?: number;
  bytes_downloaded: number;
  duration_ms: number;
  as_of?: string;
  published?: string;
  path?: string;
  files: Array<{ url: string; name: string; sha256: string; bytes: number; kind: 'full' | 'update'; published?: string }>;
  /**
   * What the sync did to the data already there: 'added' (a `--from` file added to a dataset that
   * accumulates), 'replaced', 'updated' (an update file applied), 'rebuilt' (the damaged file rebuilt).
   */
  action?: 'added' | 'replaced' | 'updated' | 'rebuilt';
  /** The same in words, plus anything the load reported (a repaired gap). */
  note?: string;
  error?: string;
}
