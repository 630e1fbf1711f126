/**
 * The static facts of a mirror dataset: file name, publisher, licence, rough download size and update
 * cadence. Each domain declares its datasets' facts in src/domains/<domain>/datasets.ts (data only) and
 * passes those objects to the mirror (openDataset, provenanceMeta, datasetNotSynced): the mirror takes
 * dataset objects, never names, so it needs no list of them. The catalogue of every dataset is derived
 * from the registry (DATASETS in src/registry.ts) and handed to what lists them all (`mirror status`,
 * `sql`, `mirror export`, `serve`).
 */
import type { DatasetExportSpec } from './export-spec.js';

/**
 * A `publicdata sync` option that narrows a dataset to some of its parts, as a comma-separated list
 * (`--authorities 314,760`, `--forces metropolitan`): declared with the dataset, so the sync command needs
 * no line of its own per dataset. The module reads the list as `options.lists[name]`.
 */
export interface SyncListOption {
  /** The option's name: `--<name> <placeholder>`, and its key in SyncOptions.lists. */
  name: string;
  placeholder: string;
  description: string;
  /** A regular expression (source, anchored) every item must match. */
  item: string;
  /** What the items look like, for the error message (e.g. "FSA authority codes such as 314,760"). */
  example: string;
}

/**
 * A `publicdata sync` option that chooses the dates a dataset loads (`--years 2020-2025`, `--days 30`,
 * `--months 24`), declared with the dataset: its bounds, default, help text and (for years) the first year
 * the data holds. The sync command builds its options, help and checks from these declarations, so it names
 * no dataset; the module reads the parsed value as `options.years` / `options.days` / `options.months`.
 */
export type DateScopeOption = YearsScopeOption | CountScopeOption;

interface ScopeOptionBase {
  /** What the option chooses for this dataset, for `sync --help` (prefixed with the dataset's name). */
  description: string;
  /** A value `sync --help` shows in an example (`2020-2025`, `30`). */
  example?: string;
  /**
   * The option only chooses which upstream files discovery fetches: a `--from` file or folder skips
   * discovery, so `publicdata sync` refuses them together (usage error) instead of ignoring the option; a
   * `--from` URL prefix ending in `/` runs discovery and takes it.
   */
  discoveryOnly?: boolean;
}

/** `--years YYYY[-YYYY]`: SyncOptions.years. */
export interface YearsScopeOption extends ScopeOptionBase {
  name: 'years';
  /** What the dataset loads without the option, for the help (e.g. "2021 to the latest final year"). */
  default?: string;
  /** The first year the data holds: an earlier `--years` is a usage error saying `what`. */
  firstYear?: { year: number; what: string };
}

/** `--days N` / `--months N`: the newest N days or months, SyncOptions.days / months. */
export interface CountScopeOption extends ScopeOptionBase {
  name: 'days' | 'months';
  /** The largest N taken (1 is the smallest). */
  max: number;
  /** N without the option (the module reads its default from this declaration). */
  default?: number;
}

export interface DatasetInfo {
  name: string;
  title: string;
  /** DuckDB file name inside the mirror dir. */
  file: string;
  /** SQL schema name under which `publicdata sql` ATTACHes the file. */
  schema: string;
  /** meta.source */
  publisher: string;
  /** meta.source_url: the publisher's page for the data set. */
  sourceUrl: string;
  licence: string;
  attribution: string;
  /** Rough size of a full download, for "not synced" messages. */
  approxDownload: string;
  /** How often the publisher updates it. */
  cadence: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  /** Days after the last sync (or after the upstream publication date) before `mirror status` calls it stale. */
  staleAfterDays: number;
  /**
   * About how many days the publisher takes from the data's own date (`as_of`: ASHE's April reference
   * period) to publishing it. A `--from` load, which has no publication date, counts its age from `as_of`
   * plus this, the date a live sync would count from, so the newest edition loaded from a file is not
   * called stale before a newer one can exist. Default 0 (the data's date is its publication: a daily
   * extract).
   */
  publicationLagDays?: number;
  /** Sync options that narrow this dataset to some of its parts (see SyncListOption). */
  syncLists?: readonly SyncListOption[];
  /** Sync options that choose the dates this dataset loads (see DateScopeOption). */
  dateScope?: readonly DateScopeOption[];
  /**
   * What `mirror export` writes (tables incl. dimensions or joined views, Hive partitions, sort order);
   * see src/mirror/export-spec.ts. Without it the dataset's tables are exported as they are, unpartitioned.
   */
  export?: DatasetExportSpec;
  /**
   * A query on the dataset file whose rows (one `note` VARCHAR column) `mirror status` adds to the
   * dataset's note: what the data holds that a user should know (schools: the inspections of schools
   * not in the register). A file without what the query reads (an older layout) adds nothing.
   */
  statusNotes?: string;
}

/** The attribution line with the year filled in. */
export function attributionFor(info: DatasetInfo, year: number): string {
  return info.attribution.replaceAll('{year}', String(year));
}
