/** Sync a dataset into `mirror` from local files through the real sync framework (`--from`), caching under `src`. */
import { join } from 'node:path';
import { syncDataset } from '../../src/sync-runner.js';

export const syncFrom = (name: string, mirror: string, src: string, from: string | string[], extra: Record<string, unknown> = {}) =>
  syncDataset(name as never, { mirrorDir: mirror, cacheDir: join(src, 'cache'), env: {}, from, ...extra });
