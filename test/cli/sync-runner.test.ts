/**
 * The sync runner (src/sync-runner.ts) is handed its module loaders: it imports a dataset's module only
 * when that dataset is synced, names the datasets it knows for an unknown one, and runs the framework's
 * pipeline on the module it is given.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSyncRunner } from '../../src/sync-runner.js';
import type { DatasetModule } from '../../sync/types.js';

/** A module whose discovery finds no file (the pipeline then fails before any download or open). */
const empty = (name: string): DatasetModule => ({
  name, title: name, publisher: 'test', licence: 'test', attribution: 'test', sourceUrl: 'http://127.0.0.1:9/', defaultBaseUrl: 'http://127.0.0.1:9',
  approxDownload: '0', file: `${name}.duckdb`,
  discover: async () => [],
  load: async () => { throw new Error('not reached'); },
  verify: async () => undefined,
});

describe('the sync runner with injected module loaders', () => {
  it('loads a module only when its dataset is synced, and runs the pipeline on it', async () => {
    const loaded: string[] = [];
    const runner = createSyncRunner({
      one: async () => (loaded.push('one'), empty('one')),
      two: async () => (loaded.push('two'), empty('two')),
    });
    expect(runner.datasets).toEqual(['one', 'two']);
    expect(runner.isSyncDataset('two')).toBe(true);
    expect(runner.isSyncDataset('three')).toBe(false);
    expect(loaded).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'publicdata-runner-'));
    const opts = { env: {}, mirrorDir: join(dir, 'mirror'), cacheDir: join(dir, 'cache') };
    await expect(runner.syncDataset('two', opts)).rejects.toThrow('two: nothing to download');
    expect(loaded).toEqual(['two']);
    const reports = await runner.runSync([], opts);
    expect(reports.map((r) => [r.dataset, r.status, r.error])).toEqual([
      ['one', 'failed', 'one: nothing to download'],
      ['two', 'failed', 'two: nothing to download'],
    ]);
  });

  it('an unknown dataset names the known ones, and fails alone in a run of several', async () => {
    const runner = createSyncRunner({ one: async () => empty('one') });
    await expect(runner.loadModule('nope')).rejects.toThrow("Unknown dataset 'nope'. Known datasets: one.");
    const dir = mkdtempSync(join(tmpdir(), 'publicdata-runner-'));
    const reports = await runner.runSync(['nope', 'one'], { env: {}, mirrorDir: join(dir, 'm'), cacheDir: join(dir, 'c') });
    expect(reports.map((r) => [r.dataset, r.status, r.error])).toEqual([
      ['nope', 'failed', "Unknown dataset 'nope'. Known datasets: one."],
      ['one', 'failed', 'one: nothing to download'],
    ]);
  });
});
