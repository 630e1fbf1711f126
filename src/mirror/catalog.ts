/**
 * Static facts about every mirror dataset: file name, publisher, licence, rough download size and
 * update cadence. Used by handlers (provenance, "not synced" errors) and `mirror status` without
 * importing any sync module; sync/<dataset>.ts modules may spread these into their DatasetModule.
 * Each domain declares its datasets' facts in src/domains/<domain>/datasets.ts (data only); this is their
 * union (src/domains/datasets.ts), not derived from the registry, whose manifests reach the handlers that
 * read this module.
 */
import { DATASET_INFOS } from '../domains/datasets.js';
import type { DatasetExportSpec } from './export-spec.js';

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
   * What `mirror export` writes (tables incl. dimensions or joined views, Hive partitions, sort order);
   * see src/mirror/export-spec.ts. Without it the dataset's tables are exported as they are, unpartitioned.
   */
  export?: DatasetExportSpec;
}

/** Every domain's datasets by name, in registry order. */
export const DATASETS: Readonly<Record<string, DatasetInfo>> = Object.fromEntries(DATASET_INFOS.map((d) => [d.name, d]));

export function datasetInfo(name: string): DatasetInfo {
  const d = DATASETS[name];
  if (!d) throw new Error(`Unknown dataset '${name}'. Known: ${Object.keys(DATASETS).join(', ')}.`);
  return d;
}

/** The attribution line with the year filled in. */
export function attributionFor(name: string, year: number): string {
  return datasetInfo(name).attribution.replace('{year}', String(year));
}
