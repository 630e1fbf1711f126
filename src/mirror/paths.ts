/**
 * Where the mirror, the download cache and the saved config live. No DuckDB here: this module is cheap
 * to import (used by `--source auto`).
 *
 *   config dir env PUBLICDATA_CONFIG_DIR, else env-paths('publicdata', {suffix: ''}).config
 *
 *   data dir   env PUBLICDATA_DATA_DIR, else env-paths('publicdata', {suffix: ''}).data
 *   mirror dir <data dir>/mirror            one DuckDB file per dataset (e.g. price_paid.duckdb)
 *   cache dir  env PUBLICDATA_CACHE_DIR, else <data dir>/cache when PUBLICDATA_DATA_DIR is set,
 *              else env-paths('publicdata', {suffix: ''}).cache   (downloads, resumable `.part` files)
 */
import envPaths from 'env-paths';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetInfo } from './catalog.js';

export type Env = Record<string, string | undefined>;

let defaults: { data: string; cache: string; config: string } | undefined;
function osPaths(): { data: string; cache: string; config: string } {
  if (!defaults) {
    const p = envPaths('publicdata', { suffix: '' });
    defaults = { data: p.data, cache: p.cache, config: p.config };
  }
  return defaults;
}

/** Where `publicdata auth login` keeps config.json: env PUBLICDATA_CONFIG_DIR, else the XDG config dir. */
export function configDir(env: Env): string {
  return env.PUBLICDATA_CONFIG_DIR?.trim() || osPaths().config;
}

export function dataDir(env: Env): string {
  return env.PUBLICDATA_DATA_DIR || osPaths().data;
}

export function mirrorDir(env: Env): string {
  return join(dataDir(env), 'mirror');
}

export function cacheDir(env: Env): string {
  if (env.PUBLICDATA_CACHE_DIR) return env.PUBLICDATA_CACHE_DIR;
  if (env.PUBLICDATA_DATA_DIR) return join(env.PUBLICDATA_DATA_DIR, 'cache');
  return osPaths().cache;
}

/** Absolute path of a dataset's DuckDB file (whether or not it exists). */
export function datasetPath(info: DatasetInfo, dir: string): string {
  return join(dir, info.file);
}

let datasetProbe: ((name: string) => void) | undefined;
/**
 * Tests: be told the name of every dataset looked at (isDatasetPresent, and openDataset through it), to
 * check that a route declared to read no mirror file reads none (`serve` caches those answers).
 */
export function probeDatasetAccess(fn: ((name: string) => void) | undefined): void {
  datasetProbe = fn;
}

/** Cheap check (one stat) that a dataset has been synced: its file exists and is not empty. */
export function isDatasetPresent(info: DatasetInfo, dir: string): boolean {
  datasetProbe?.(info.name);
  try {
    const p = datasetPath(info, dir);
    return existsSync(p) && statSync(p).size > 0;
  } catch {
    return false;
  }
}
