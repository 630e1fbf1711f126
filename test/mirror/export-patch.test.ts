/**
 * The patch of a touched partition (src/mirror/export-patch.ts) when its fast path cannot be right: the
 * earlier file holds a row twice and the record removes one copy. Dropping rows by row hash drops both,
 * the row count disagrees with the fingerprint's, and the exact multiset difference (EXCEPT ALL) is
 * written instead. Expected rows are the table's own after the change (SQL over the table, not the patch).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { beginChanges, recordChanged } from '../../src/mirror/changes.js';
import { writePatched } from '../../src/mirror/export-patch.js';
import { planTable } from '../../src/mirror/export-table.js';

const root = mkdtempSync(join(tmpdir(), 'pd-patch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('a duplicate row with one copy removed: the exact multiset difference is written', async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`CREATE TABLE sync_log (synced_at TIMESTAMP); INSERT INTO sync_log VALUES (TIMESTAMP '2026-01-01')`);
  await c.run(`CREATE TABLE t (k INTEGER, y INTEGER, v VARCHAR)`);
  await c.run(`INSERT INTO t VALUES (1, 2020, 'a'), (1, 2020, 'a'), (2, 2020, 'b'), (5, 2021, 'e')`);
  const plan = await planTable(c, { name: 't', description: 'test', partitionBy: [{ column: 'year', expr: 'y' }], sortBy: ['k'] }, 'parquet');
  const fromDir = join(root, 'old');
  mkdirSync(join(fromDir, 'year=2020'), { recursive: true });
  const oldFile = join(fromDir, 'year=2020', 'data_0.parquet');
  await c.run(`COPY (SELECT k, y, v FROM t WHERE y = 2020) TO '${oldFile}' (FORMAT parquet)`);
  // the change: one copy of (1, 2020, 'a') removed, (3, 2020, 'c') added
  await beginChanges(c, 't');
  const one = `SELECT * FROM t WHERE rowid = (SELECT min(rowid) FROM t WHERE k = 1)`;
  await recordChanged(c, 't', 'removed', one);
  await c.run(`DELETE FROM t WHERE rowid = (SELECT min(rowid) FROM t WHERE k = 1)`);
  await c.run(`INSERT INTO t VALUES (3, 2020, 'c')`);
  await recordChanged(c, 't', 'added', `SELECT * FROM t WHERE k = 3`);
  const want = (await c.runAndReadAll(`SELECT k, y, v FROM t WHERE y = 2020 ORDER BY ALL`)).getRowObjectsJson();
  expect(want).toHaveLength(3);
  const old = new Map([['year=2020', { path: 'year=2020', values: { year: 2020 }, rows: 3, fingerprint: 'unused', files: [{ name: 'data_0.parquet', bytes: statSync(oldFile).size, rows: 3 }] }]]);
  const staging = join(root, 'staging');
  const out = await writePatched(c, plan, staging, fromDir, [{ values: { year: 2020 }, path: 'year=2020', rows: want.length, fingerprint: 'unused' }], old);
  expect(out.get('year=2020')?.[0]?.rows).toBe(3);
  const got = (await c.runAndReadAll(`SELECT k, y, v FROM read_parquet('${join(staging, 'year=2020', 'data_0.parquet')}') ORDER BY ALL`)).getRowObjectsJson();
  expect(got).toEqual(want);
});
