/** `publicdata mirror status` and `mirror path`: what each dataset file holds, how fresh, from where. */
import { checkSummary, readChecks } from './check-record.js';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { attributionFor, type DatasetInfo } from './catalog.js';
import { cacheDir as defaultCacheDir, datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from './paths.js';
import { query } from './db.js';
import { readSyncHistory } from './sync-log.js';


export interface DatasetStatus {
  dataset: string;
  title: string;
  present: boolean;
  path: string;
  size_bytes: number;
  /**
   * Bytes of this dataset's download cache (`<cache dir>/<dataset>/`): partial downloads kept for resume,
   * and downloads kept with `sync --keep-downloads` (others are removed once loaded and verified).
   */
  cache_bytes: number;
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
  /** What the last `publicdata sync --check` found upstream (null: never checked). */
  upstream_check: string | null;
}

/**
 * Status of every dataset (or the named ones). Staleness: a dataset is stale when more than its
 * `staleAfterDays` (catalogue; e.g. 45 for the monthly price-paid data) have passed since the upstream
 * publication date it was synced from, or since the sync when the publisher states no date.
 */
export async function mirrorStatus(opts: { env: Env; mirrorDir?: string; cacheDir?: string; now?: () => Date; datasets: readonly DatasetInfo[] }): Promise<DatasetStatus[]> {
  const env = opts.env;
  const dir = opts.mirrorDir ?? defaultMirrorDir(env);
  const cache = opts.cacheDir ?? defaultCacheDir(env);
  const now = (opts.now ?? (() => new Date()))();
  const out: DatasetStatus[] = [];
  const checks = readChecks(dir);
  for (const info of opts.datasets) {
    const name = info.name;
    const path = datasetPath(info, dir);
    const base: DatasetStatus = {
      dataset: name, title: info.title, present: false, path, size_bytes: 0, cache_bytes: treeBytes(join(cache, name)), synced_at: null, published: null,
      as_of: null, rows: null, rows_rejected: null, mode: null, source_url: null, publisher_url: info.sourceUrl,
      licence: info.licence, attribution: attributionFor(info, now.getUTCFullYear()),
      cadence: info.cadence, stale: null, note: `not synced: run 'publicdata sync ${name}' (about ${info.approxDownload})`,
      upstream_check: checks[name] ? checkSummary(checks[name]) : null,
    };
    if (!isDatasetPresent(info, dir)) {
      out.push(base);
      continue;
    }
    base.present = true;
    base.size_bytes = statSync(path).size;
    const prev = await readSyncHistory(path, info.statusNotes ? (conn) => query<{ note: string }>(conn, info.statusNotes!) : undefined);
    const last = prev.history[prev.history.length - 1];
    if (last) {
      base.synced_at = String(last.synced_at);
      base.published = (last.published as string | null) ?? null;
      base.as_of = (last.as_of as string | null) ?? null;
      base.rows = (last.rows_total as number | null) ?? (last.rows_loaded as number);
      base.rows_rejected = last.rows_rejected as number;
      base.mode = String(last.mode);
      base.source_url = (last.source_url as string | null) ?? null;
      const { ref, since } = ageFrom(base, info);
      const ageDays = Math.floor((now.getTime() - Date.parse(`${ref.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
      base.stale = ageDays > info.staleAfterDays;
      base.note = base.stale
        ? `stale: ${ageDays} days since ${since} (updated ${info.cadence}); run 'publicdata sync ${name}'`
        : `fresh: ${ageDays} days since ${since} (updated ${info.cadence})`;
      const notes = prev.state.module as Array<{ note: string | null }> | undefined;
      for (const n of notes ?? []) if (n.note) base.note += `; ${n.note}`;
    } else if (prev.damaged && !/sync_log/.test(prev.damaged)) {
      base.note = `damaged: ${path} cannot be read (${prev.damaged}); run 'publicdata sync ${name}' to rebuild it`;
      base.stale = true;
    } else {
      base.note = `no sync_log in ${path}; run 'publicdata sync ${name} --force'`;
      base.stale = true;
    }
    out.push(base);
  }
  return out;
}

/**
 * The date a dataset's age counts from: the upstream publication it was synced from; for files loaded with
 * `--from` (a local path, not a URL) the data's own date (`as_of`) first, plus the days its publisher
 * usually takes to put it out (`publicationLagDays`: the date a live sync would count from), since a file
 * years old loaded today is not fresh and the only "publication" date a local file has is what its name states (the newest
 * of the files', where the data's date may be an older table's: schools); the sync itself only when
 * neither is known, and then a local load says that it states no date.
 */
function ageFrom(s: DatasetStatus, info: DatasetInfo): { ref: string; since: string } {
  const local = s.source_url !== null && s.source_url !== '' && !/^[a-z]+:\/\//i.test(s.source_url);
  if (local && s.as_of) {
    const lag = info.publicationLagDays ?? 0;
    const day = s.as_of.slice(0, 10);
    if (!lag) return { ref: s.as_of, since: `the data's date, ${day} (loaded from a local file)` };
    const out = new Date(Date.parse(`${day}T00:00:00Z`) + lag * 86_400_000).toISOString().slice(0, 10);
    // it was out by the time it was loaded: never later than the sync (a register extracted the day it
    // is loaded gets no days from the lag; the age is never negative)
    const synced = s.synced_at?.slice(0, 10);
    if (synced !== undefined && synced < out) return { ref: synced, since: `the last sync, ${synced} (loaded from a local file of data of ${day})` };
    return { ref: out, since: `${out}, about when data of ${day} came out (loaded from a local file)` };
  }
  if (s.published) return { ref: s.published, since: 'the upstream publication' };
  return { ref: s.synced_at!, since: local ? 'the last sync (loaded from a local file that states no date of its data)' : 'the last sync' };
}

/** Total size of the files under `dir` (0 when it does not exist). */
export function treeBytes(dir: string): number {
  let n = 0;
  try {
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!e.isFile()) continue;
      try {
        n += statSync(join((e as { parentPath?: string; path?: string }).parentPath ?? (e as { path?: string }).path ?? dir, e.name)).size;
      } catch {
        /* removed meanwhile */
      }
    }
  } catch {
    /* no cache for this dataset */
  }
  return n;
}

/** `publicdata mirror path [dataset]`: the mirror dir, or one dataset's file. */
export function mirrorPath(dataset: DatasetInfo | undefined, opts: { env: Env; mirrorDir?: string }): string {
  const dir = opts.mirrorDir ?? defaultMirrorDir(opts.env);
  return dataset ? datasetPath(dataset, dir) : dir;
}
