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
