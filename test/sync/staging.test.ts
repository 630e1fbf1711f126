/**
 * sync/staging.ts: the staging database of a load is a file in the load's work folder, attached as
 * `stage`; its tables are dropped before it is detached, and the file goes whether the load succeeds or fails.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { STAGE_DB, withStaging } from '../../sync/staging.js';

const root = mkdtempSync(join(tmpdir(), 'pd-staging-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function open() {
  const db = await DuckDBInstance.create(join(root, `mirror-${Math.random().toString(36).slice(2)}.duckdb`));
  return { db, conn: await db.connect() };
}
const attached = async (conn: Awaited<ReturnType<typeof open>>['conn']) =>
  (await conn.runAndReadAll('SELECT database_name FROM duckdb_databases() ORDER BY 1')).getRows().map((r) => String(r[0]));

describe('withStaging', () => {
  it('stages in <workDir>/stage.duckdb, the mirror gets the sorted rows, the file is gone after', async () => {
    const { db, conn } = await open();
    const workDir = join(root, 'work-a');
    mkdirSync(workDir);
    const seen: string[] = [];
    const out = await withStaging({ conn, workDir }, 'test', async (dir) => {
      expect(dir).toBe(workDir);
      seen.push(...readdirSync(workDir));
      await conn.run(`CREATE TABLE ${STAGE_DB}.s AS SELECT * FROM (VALUES (3), (1), (2)) t(x)`);
      await conn.run(`CREATE TABLE main_t AS SELECT x FROM ${STAGE_DB}.s ORDER BY x`);
      return 'done';
    });
    expect(out).toBe('done');
    expect(seen).toContain('stage.duckdb');
    expect(readdirSync(workDir)).toEqual([]);
    expect(await attached(conn)).not.toContain('stage');
    expect((await conn.runAndReadAll('SELECT x FROM main_t')).getRows().map((r) => Number(r[0]))).toEqual([1, 2, 3]);
    conn.closeSync();
    db.closeSync();
  });

  it('a failing load: the error passes through, the staging file is detached and deleted; no work folder: its own temp folder goes too', async () => {
    const { db, conn } = await open();
    let dir = '';
    await expect(
      withStaging({ conn }, 'test', async (d) => {
        dir = d;
        await conn.run(`CREATE TABLE ${STAGE_DB}.s AS SELECT range AS x FROM range(1000)`);
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    expect(dir.startsWith(tmpdir())).toBe(true);
    expect(existsSync(dir)).toBe(false);
    expect(await attached(conn)).not.toContain('stage');
    conn.closeSync();
    db.closeSync();
  });
});
