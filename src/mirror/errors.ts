import { ApiError } from '../contract/errors.js';
import type { DatasetInfo } from './catalog.js';

/** 503 `dataset_not_synced`: names the exact sync command, the download size and the live alternative. */
export function datasetNotSynced(info: DatasetInfo): ApiError {
  return new ApiError(
    503,
    'dataset_not_synced',
    `The local mirror has no ${info.title} data. Run 'publicdata sync ${info.name}' to download it ` +
      `(about ${info.approxDownload}), or set PUBLICDATA_API_KEY (or run 'publicdata auth login') to have the API serve it live.`,
  );
}

/** DuckDB's words for a file it cannot read whole: a block checksum mismatch, a file cut short, not a database. */
const DAMAGE = /Corrupt database file|Could not read enough bytes|does not match stored checksum|not a valid DuckDB database|database file .* (?:is|was) (?:corrupt|truncated)|Serialization Error|IO Error: (?:Could not read|Corrupt)/i;

/** True when a DuckDB error says the file itself is damaged (not a bad query). */
export function isDamageError(e: unknown): boolean {
  return DAMAGE.test((e as Error)?.message ?? String(e));
}

/** 503 `dataset_damaged`: names the damaged file and the sync that rebuilds it. */
export function datasetDamaged(info: DatasetInfo, path: string, e: unknown): ApiError {
  const what = ((e as Error)?.message ?? String(e)).split('\n')[0];
  return new ApiError(
    503,
    'dataset_damaged',
    `The mirror file ${path} (${info.title}) is damaged and cannot be read (${what}). Run 'publicdata sync ${info.name}' to rebuild it.`,
  );
}
