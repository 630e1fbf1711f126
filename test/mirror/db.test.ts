/** The mirror's read side (src/mirror/): paths, openDataset, values as JSON, not-synced errors, provenance, on the example datasets' catalogue entries. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  cacheDir, closeAll, dataDir, datasetNotSynced, datasetPath, isDatasetPresent, mirrorDir, openDataset,
  provenanceMeta, query, SYNC_LOG_DDL, REJECTS_DDL,
} from '../../src/mirror/index.js';
import { pagedQuery, Where } from '../../src/mirror/db.js';
import { ApiError } from '../../src/contract/errors.js';
import { ds } from '../support/datasets.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pd-mirror-'));
  const db = await DuckDBInstance.create(join(dir, 'example_records.duckdb'));
  const c = await db.connect();
  await c.run(SYNC_LOG_DDL);
  await c.run(REJECTS_DDL);
  await c.run(`CREATE TABLE t AS SELECT 9007199254740991::BIGINT AS big, 12::HUGEINT AS huge, 1.25::DECIMAL(6,2) AS dec,
     DATE '2024-11-15' AS d, TIMESTAMP '2026-11-21 10:11:12.5' AS ts, '{5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A}'::UUID AS u,
     NULL::INTEGER AS n, 'x' AS s, 3 AS i`);
  await c.run(`INSERT INTO sync_log (dataset, rows_loaded, rows_rejected, duration_ms, mode, as_of, synced_at)
     VALUES ('example-records', 1, 0, 5, 'full', DATE '2026-10-31', TIMESTAMP '2026-11-20 08:00:00'),
            ('example-records', 1, 0, 5, 'full', DATE '2026-09-30', TIMESTAMP '2026-10-20 08:00:00')`);
  await c.run('CREATE TABLE p AS SELECT range::INTEGER AS x FROM range(1, 8)');
  await c.run('CHECKPOINT');
  c.closeSync();
  db.closeSync();
});
afterAll(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('mirror paths', () => {
  it('uses PUBLICDATA_DATA_DIR', () => {
    const env = { PUBLICDATA_DATA_DIR: '/x/data' };
    expect(dataDir(env)).toBe('/x/data');
    expect(mirrorDir(env)).toBe('/x/data/mirror');
    expect(cacheDir(env)).toBe('/x/data/cache');
    expect(cacheDir({ ...env, PUBLICDATA_CACHE_DIR: '/c' })).toBe('/c');
    expect(dataDir({})).toMatch(/publicdata$/);
  });
  it('isDatasetPresent is a cheap file check', () => {
    expect(isDatasetPresent(ds('example-records'), dir)).toBe(true);
    expect(isDatasetPresent(ds('example-events'), dir)).toBe(false);
    expect(datasetPath(ds('example-events'), dir)).toBe(join(dir, 'example_events.duckdb'));
  });
});

describe('openDataset / query', () => {
  it('converts values to JSON-friendly types', async () => {
    const conn = await openDataset(ds('example-records'), dir);
    const [row] = await query(conn, 'SELECT * FROM t WHERE s = ? AND i = $2', ['x', 3]);
    expect(row).toEqual({
      big: 9007199254740991, huge: 12, dec: 1.25, d: '2024-11-15', ts: '2026-11-21T10:11:12.500Z',
      u: '5bbe9cb3-6332-4eb0-9cd3-8737cea4a65a', n: null, s: 'x', i: 3,
    });
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
  });
  it('is read-only and cached', async () => {
    const a = await openDataset(ds('example-records'), dir);
    const b = await openDataset(ds('example-records'), dir);
    expect(a).toBe(b);
    await expect(a.run('CREATE TABLE z (a INT)')).rejects.toThrow(/read-only/i);
  });
  it('missing dataset → 503 dataset_not_synced naming the sync command', async () => {
    await expect(openDataset(ds('example-events'), dir)).rejects.toBeInstanceOf(ApiError);
    const e = datasetNotSynced(ds('example-records'));
    expect(e.status).toBe(503);
    expect(e.code).toBe('dataset_not_synced');
    expect(e.message).toContain("publicdata sync example-records");
    // the size the catalogue states (test/support/example-domain/dataset.ts)
    expect(e.message).toContain('20 KB');
    expect(e.message).toMatch(/API key|PUBLICDATA_API_KEY/);
  });
  it('provenanceMeta takes as_of from the newest sync_log row', async () => {
    const conn = await openDataset(ds('example-records'), dir);
    expect(await provenanceMeta(ds('example-records'), conn)).toEqual({
      api_version: 'v1', licence: 'Invented test data (no licence needed)', source: 'Example Publisher (invented for tests)',
      source_url: 'https://publisher.example/records', as_of: '2026-10-31',
    });
  });
});

describe('pagedQuery totalInPage: the page carries its total (one query)', () => {
  // table p holds x = 1..7
  const page = async (n: number, where = new Where(), totalInPage = true) => {
    const conn = await openDataset(ds('example-records'), dir);
    return pagedQuery(conn, { from: 'p', columns: 'x, x * ? AS y', columnParams: [10], where, orderBy: 'x DESC', page: n, perPage: 3, totalInPage });
  };
  it('pages 1 to 3 of 7 rows: the rows of each page, total 7, no extra column', async () => {
    expect(await page(1)).toEqual({ rows: [{ x: 7, y: 70 }, { x: 6, y: 60 }, { x: 5, y: 50 }], total: 7 });
    expect(await page(3)).toEqual({ rows: [{ x: 1, y: 10 }], total: 7 });
  });
  it('a page past the end: no rows, the total from a count; nothing matching: total 0', async () => {
    expect(await page(4)).toEqual({ rows: [], total: 7 });
    expect(await page(1, new Where().add('x > ?', 5))).toEqual({ rows: [{ x: 7, y: 70 }, { x: 6, y: 60 }], total: 2 });
    expect(await page(1, new Where().add('x > ?', 99))).toEqual({ rows: [], total: 0 });
  });
  it('the same answer as the count and the page asked for apart', async () => {
    for (const n of [1, 2, 3, 4]) expect(await page(n)).toEqual(await page(n, new Where(), false));
  });
});
