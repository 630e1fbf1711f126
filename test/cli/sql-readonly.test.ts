/**
 * `publicdata sql` is read-only whatever the statement (issue 21 item 8): nothing but one query runs, so
 * no statement can write the dataset files, attach or install anything, or change a setting; one
 * statement per call, and an empty query is a clear error. Checked by hashing every file under the data
 * directory before and after each refused statement, and by querying the mirror afterwards.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';

/** The example domain's invented records (a header line, then 300 records). */
const PP = join(__dirname, '..', 'fixtures', 'example', 'records-complete.csv');
const env = isolatedEnv({ CI: '1' });
const rows = readFileSync(PP, 'utf8').trim().split('\n').length - 1;
let dbPath = '';

/** Every file under a directory with the sha256 of its bytes (sql-tmp, the spill area, left out). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[p] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  expect((await runCli(['sync', 'example-records', '--from', PP], { env })).code).toBe(0);
  dbPath = (await runCli(['mirror', 'path', 'example-records'], { env })).stdout.trim();
  expect(statSync(dbPath).isFile()).toBe(true);
}, 120_000);

async function count(): Promise<number> {
  return json(await runCli(['sql', 'SELECT count(*) AS n FROM example_records.records'], { env })).data[0].n;
}

describe('sql is read-only', () => {
  it('COPY … TO the dataset file is refused in every output format, and the file is untouched', async () => {
    const before = snapshot(env.PUBLICDATA_DATA_DIR!);
    const lit = dbPath.replace(/'/g, "''");
    for (const format of ['json', 'ndjson', 'csv', 'table']) {
      const r = await runCli(['sql', `COPY (SELECT 'x' AS x) TO '${lit}' (FORMAT csv, USE_TMP_FILE false)`, '--format', format], { env });
      expect(r.code).toBe(2);
      // csv and table print errors on stderr only; json and ndjson print the envelope on stdout too.
      if (format === 'json' || format === 'ndjson') expect(json(r).error.message).toMatch(/^sql is read-only: .* this is a COPY statement\.$/);
      expect(r.stderr).toMatch(/^error invalid_parameter: sql is read-only: .* this is a COPY statement\.\n$/);
    }
    expect(snapshot(env.PUBLICDATA_DATA_DIR!)).toEqual(before);
    expect(await count()).toBe(rows);
  });

  it('refuses every kind of statement that is not a query, changing no file', async () => {
    const dir = env.PUBLICDATA_DATA_DIR!;
    const before = snapshot(dir);
    const lit = dbPath.replace(/'/g, "''");
    const statements: Array<[string, string]> = [
      [`ATTACH '${join(dir, 'other.duckdb')}' AS other`, 'ATTACH'],
      [`ATTACH '${lit}' AS again`, 'ATTACH'],
      ['INSTALL httpfs', 'INSTALL'],
      ['LOAD json', 'LOAD'],
      ["SET memory_limit = '8GB'", 'SET'],
      ['RESET memory_limit', 'RESET'],
      ['USE example_records', 'USE'],
      ['PRAGMA enable_profiling', 'PRAGMA'],
      [`EXPORT DATABASE '${join(dir, 'exported')}'`, 'EXPORT'],
      ['CREATE TABLE t AS SELECT 1 AS x', 'CREATE'],
      ['CREATE TEMP TABLE t AS SELECT 1 AS x', 'CREATE'],
      ['INSERT INTO example_records.records SELECT * FROM example_records.records LIMIT 1', 'INSERT'],
      ['DELETE FROM example_records.records', 'DELETE'],
      ['CHECKPOINT example_records', 'CHECKPOINT'],
      ['DETACH example_records', 'DETACH'],
      ['BEGIN TRANSACTION', 'BEGIN'],
      [`EXPLAIN ANALYZE COPY (SELECT 1) TO '${join(dir, 'x.csv')}'`, 'EXPLAIN'],
    ];
    for (const [sql, kind] of statements) {
      const r = await runCli(['sql', sql], { env });
      expect(r.code, sql).toBe(2);
      const e = json(r).error;
      expect(e.code, sql).toBe('invalid_parameter');
      expect(e.message, sql).toMatch(new RegExp(`^sql is read-only: .* this is an? ${kind} statement\\.$`));
    }
    expect(snapshot(dir)).toEqual(before);
    expect(await count()).toBe(rows);
  });

  it('runs one statement per call: two are a clear error and neither runs', async () => {
    const r = await runCli(['sql', 'select 1 AS a; select 2 AS b', '--format', 'ndjson'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('"a"');
    expect(JSON.parse(r.stdout).error.message).toBe('sql: one statement per call; this has 2. Run each one separately.');
    // A query that ends in a semicolon is still one statement.
    expect(json(await runCli(['sql', 'SELECT 41 + 1 AS n;'], { env })).data).toEqual([{ n: 42 }]);
  });

  it('a result naming a column twice is refused in every format before anything is written (one would be lost)', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'table']) {
      for (const sql of ['select 1 AS a, 2 AS a', 'select * from (select 1 AS x) l join (select 2 AS x) r on true']) {
        const r = await runCli(['sql', sql, '--format', format], { env });
        expect([format, sql, r.code]).toEqual([format, sql, 2]);
        expect(r.stdout + r.stderr).toMatch(/names a column twice \('(a|x)'\)/);
        expect(r.stdout).not.toMatch(/"a":|"x":|^a\b|^x\b/m);
      }
    }
    // distinct names: both columns there
    expect(json(await runCli(['sql', 'select 1 AS a, 2 AS b'], { env })).data).toEqual([{ a: 1, b: 2 }]);
  });

  it('an empty query (or only a comment) is a clear error, not a native-callback message', async () => {
    for (const sql of ['', '   ', ';', ' -- nothing here', '/* nor here */']) {
      const r = await runCli(['sql', sql], { env });
      expect(r.code, JSON.stringify(sql)).toBe(2);
      const e = json(r).error;
      expect(e.message, JSON.stringify(sql)).toMatch(/^sql: no SQL statement given/);
      expect(e.message).not.toMatch(/native callback/i);
    }
  });

  it('every form of query still runs: WITH, FROM-first, DESCRIBE, SUMMARIZE, VALUES', async () => {
    const q = (sql: string) => runCli(['sql', sql, '--format', 'ndjson'], { env });
    const lines = (r: { stdout: string }) => r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines(await q('WITH c AS (SELECT count(*) AS n FROM example_records.records) SELECT n FROM c'))).toEqual([{ n: rows }]);
    expect(lines(await q('FROM example_records.records SELECT count(*) AS n'))).toEqual([{ n: rows }]);
    expect(lines(await q('DESCRIBE example_records.records')).map((c) => c.column_name)).toContain('count');
    expect(lines(await q('SUMMARIZE SELECT count FROM example_records.records'))[0].count).toBe(rows);
    expect(lines(await q('VALUES (1), (2)'))).toEqual([{ col0: 1 }, { col0: 2 }]);
  });
});
