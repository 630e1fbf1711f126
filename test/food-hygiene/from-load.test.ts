/**
 * A dataset loaded with `--from` (issue 37), shown by the four real FSA files of 2020:
 *  - `mirror status` counts its age from the data's date (the newest ExtractDate), not from the sync: a
 *    file years old loaded today is stale;
 *  - `mirror export`: the lake's sync_log names the files it was built from by their names only
 *    (`local:<name>`), never by the folder they sat in on the machine that synced.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { exportMirror } from '../../src/mirror/export.js';
import { mirrorStatus } from '../../src/mirror/status.js';
import { DATASETS } from '../../src/registry.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, tempDir } from '../support/mirror-helper.js';
import { AUTHORITIES, extractDate, fileName, FIXTURE_DIR } from './fixture.js';

let dir: string;
beforeAll(async () => {
  dir = tempDir('pd-food-export-');
  await syncDataset('food-hygiene', { env: {}, mirrorDir: join(dir, 'mirror'), cacheDir: join(dir, 'cache'), from: FIXTURE_DIR });
});
afterAll(async () => {
  await closeAll();
  await cleanup([dir]);
});

describe('mirror status of a --from load', () => {
  it("counts the age from the data's date, the newest extract date of the files", async () => {
    const newest = AUTHORITIES.map((a) => extractDate(fileName(a.code))).sort().pop()!;
    const now = new Date('2026-11-29T12:00:00Z');
    const days = Math.floor((now.getTime() - Date.parse(`${newest}T00:00:00Z`)) / 86_400_000);
    const [st] = await mirrorStatus({ env: {}, mirrorDir: join(dir, 'mirror'), cacheDir: join(dir, 'cache'), now: () => now, datasets: DATASETS.filter((d) => d.name === 'food-hygiene') });
    expect(st).toMatchObject({ as_of: newest, published: null, stale: true });
    expect(st!.note).toMatch(new RegExp(`^stale: ${days} days since the data's date, ${newest} \\(loaded from a local file\\)`));
  });
});

describe('the lake of a --from load', () => {
  it("keeps each local file's name and drops the folder it was in", async () => {
    const out = join(dir, 'lake');
    await exportMirror({ format: 'parquet', outDir: out, datasets: ['food-hygiene'], catalogue: DATASETS, env: {}, mirrorDir: join(dir, 'mirror') });
    const files = readdirSync(join(out, 'food-hygiene', 'sync_log')).filter((f) => f.endsWith('.parquet'));
    expect(files.length).toBe(1);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const r = await c.runAndReadAll('SELECT source_url, files FROM read_parquet($1)', [join(out, 'food-hygiene', 'sync_log', files[0]!)]);
      const [row] = r.getRowObjects() as Array<{ source_url: string; files: string }>;
      const names = AUTHORITIES.map((a) => fileName(a.code)).sort();
      expect(row!.source_url.split(' ').sort()).toEqual(names.map((n) => `local:${n}`));
      const listed = JSON.parse(row!.files) as Array<{ url: string; name: string; sha256: string }>;
      expect(listed.map((f) => f.url).sort()).toEqual(names.map((n) => `local:${n}`));
      expect(listed.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true); // the rest of each entry kept
      expect(JSON.stringify(row)).not.toContain(FIXTURE_DIR);
    } finally {
      c.closeSync();
    }
  });
});
