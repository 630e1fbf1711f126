/**
 * Shipped reference data: every YAML file under `data/` is compiled to JSON under `data/build/` by scripts/build-data.mjs.
 * Loaded lazily and cached; works both from the built `dist/` and from sources under vitest.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Package root: `dist/src/data.js` and the bundle `dist/cli/*.js` are two levels down, `src/data.ts` one. */
export const PACKAGE_ROOT = /[\\/]dist[\\/][^\\/]+$/.test(here) ? join(here, '..', '..') : join(here, '..');
export const DATA_DIR = join(PACKAGE_ROOT, 'data');

const cache = new Map<string, unknown>();

/** Load `data/build/<rel>.json` (compiled from `data/<rel>.yaml`). */
export function loadData<T>(rel: string): T {
  let v = cache.get(rel);
  if (v === undefined) {
    v = JSON.parse(readFileSync(join(DATA_DIR, 'build', `${rel}.json`), 'utf8'));
    cache.set(rel, v);
  }
  return v as T;
}

/** Load a shipped JSON file as is (e.g. `data/calendar/bank-holidays.json`). */
export function loadJsonFile<T>(rel: string): T {
  let v = cache.get(`file:${rel}`);
  if (v === undefined) {
    v = JSON.parse(readFileSync(join(DATA_DIR, rel), 'utf8'));
    cache.set(`file:${rel}`, v);
  }
  return v as T;
}
