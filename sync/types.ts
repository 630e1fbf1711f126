/**
 * The contract between the sync framework (sync/framework.ts, sync/download.ts) and one module per
 * upstream dataset (sync/<dataset>.ts). Pipeline: discover -> download -> stage (load into a new DuckDB
 * file beside the live one) -> verify -> atomic rename into place. See docs/mirror.md.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

export type DatasetName =
  | 'bank-holidays'
  | 'listed-buildings'
  | 'conservation-areas'
  | 'hpi'
  | 'council-tax'
  | 'price-paid';

/** One upstream file to fetch. */
export interface UpstreamFile {
  url: string;
  /** File name to store in the cache dir (publisher's own name where possible). */
  name: string;
  /** Upstream publication date (YYYY-MM-DD) when the publisher states it (index page, file name). */
  published?: string;
  /** Expected size or checksum when the publisher states them. */
  size?: number;
  sha256?: string;
  /** `update` files are applied incrementally to the existing data (price-paid monthly update). */
  kind?: 'full' | 'update';
}

export interface SyncOptions {
  /** `--from FILE_OR_URL`: skip discovery and use this file or URL. */
  from?: string;
  /** `--years 2020-2025` (price-paid yearly files). */
  years?: { from: number; to: number };
  force?: boolean;
}

export interface DiscoverContext {
  /** Base URL for this dataset: env override, else PUBLICDATA_UPSTREAM_BASE prefix, else the publisher's. */
  baseUrl: string;
  /** Fetch text (index pages, JSON APIs) with the framework's retrying client. */
  fetchText(url: string): Promise<string>;
  options: SyncOptions;
  now(): Date;
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
}

export interface LoadResult {
  rows: number;
  /** Rows that did not parse; the framework stores them in the `rejects` table. */
  rejected: number;
  /** 'full' or 'incremental': `sync` says which it did. */
  mode: 'full' | 'incremental';
  /** The data's as-of date (latest month/date covered), for meta.as_of. */
  asOf?: string;
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
  discover(ctx: DiscoverContext): Promise<UpstreamFile[]>;
  load(ctx: LoadContext): Promise<LoadResult>;
  /** Sanity checks on the new file before the swap; throw to abort. */
  verify(conn: DuckDBConnection, result: LoadResult): Promise<void>;
}
