/**
 * The local mirror: one read-only DuckDB file per dataset under `<data dir>/mirror`.
 * Importing this module does not load DuckDB; the first query does.
 */
export { dataDir, mirrorDir, cacheDir, datasetPath, isDatasetPresent } from './paths.js';
export type { Env } from './paths.js';
export { attributionFor } from './catalog.js';
export type { DatasetInfo } from './catalog.js';
export { datasetNotSynced } from './errors.js';
export { openDataset, closeAll, query, queryOne, provenanceMeta, lastSync, loadDuckDB, jsonConverter } from './db.js';
export type { Row, Param, SyncLogEntry } from './db.js';
export { SYNC_LOG_DDL, REJECTS_DDL } from './schema.js';
