import { ApiError } from '../contract/errors.js';
import { datasetInfo } from './catalog.js';

/** 503 `dataset_not_synced`: names the exact sync command, the download size and the live alternative. */
export function datasetNotSynced(name: string): ApiError {
  const info = datasetInfo(name);
  return new ApiError(
    503,
    'dataset_not_synced',
    `The local mirror has no ${info.title} data. Run 'publicdata sync ${name}' to download it ` +
      `(about ${info.approxDownload}), or set PUBLICDATA_API_KEY (or run 'publicdata auth login') to have the API serve it live.`,
  );
}
