/**
 * The CSV lines DuckDB renders (src/mirror/csv-sql.ts) against the JavaScript CSV renderer they stand in
 * for (jsonConverter row objects through `toCsv`): the same bytes for each supported type and its edge
 * values; other types have no plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { jsonConverter } from '../../src/mirror/db.js';
import { csvLinePlan } from '../../src/mirror/csv-sql.js';
import { toCsv } from '../../src/output/records.js';

let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  await conn.run(`CREATE TYPE mood AS ENUM ('sad', 'a,b', 'say "hi"')`);
});
afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

/** The JS path's CSV body (header dropped) of a query's rows. */
async function jsCsv(sql: string): Promise<string> {
  const conv = await jsonConverter();
  const r = await conn.runAndReadAll(sql);
  const names = r.columnNames();
  const rows = r.convertRows(conv).map((v) => Object.fromEntries(names.map((n, c) => [n, v[c]])));
  const text = toCsv(rows);
  return text.slice(text.indexOf('\r\n') + 2);
}

async function plan(sql: string) {
  const p = await conn.prepare(sql);
  const cols = Array.from({ length: p.columnCount }, (_, i) => ({ name: p.columnName(i), type: p.columnType(i) }));
  p.destroySync();
  return csvLinePlan(sql, cols);
}

async function sqlCsv(sql: string): Promise<string> {
  const pl = await plan(sql);
  expect(pl, sql).toBeDefined();
  const r = await conn.runAndReadAll(pl!.sql);
  return r.getRows().map((row) => `${row[0] as string}\r\n`).join('');
}

const values = (type: string, vals: string[]) =>
  `SELECT v, i FROM (VALUES ${[...vals, 'NULL'].map((v, i) => `(${i}, CAST(${v} AS ${type}))`).join(', ')}) t(i, v) ORDER BY i`;

describe('DuckDB renders the JS path CSV byte for byte', () => {
  it('VARCHAR with quotes, commas, CR, LF, unicode; ENUM; UUID; DATE; BOOLEAN; NULL', async () => {
    const cases = [
      values('VARCHAR', [`'plain'`, `''`, `'a,b'`, `'say "hi"'`, `'cr' || chr(13) || 'lf' || chr(10)`, `'tab' || chr(9)`, `'é€😀'`, `'"'`]),
      values('mood', [`'sad'`, `'a,b'`, `'say "hi"'`]),
      values('UUID', [`'5bbe9cb3-6332-4eb0-9cd3-8737cea4a65a'`, `'{5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A}'`]),
      values('DATE', [`'2024-02-29'`, `'1995-01-01'`, `'0044-03-15 (BC)'`, `'infinity'`, `'-infinity'`]),
      values('BOOLEAN', ['true', 'false']),
    ];
    for (const q of cases) expect(await sqlCsv(q), q).toBe(await jsCsv(q));
    // the quoting rule, written out: a cell with a quote is quoted and the quote doubled
    expect(await sqlCsv(values('VARCHAR', [`'say "hi"'`]))).toBe('"say ""hi""",0\r\n,1\r\n');
  });

  it('integers of every width, beyond 2^53 as JavaScript writes the rounded number', async () => {
    for (const t of ['TINYINT', 'SMALLINT', 'INTEGER', 'UTINYINT', 'USMALLINT', 'UINTEGER']) {
      const q = values(t, ['0', '1', '42']);
      expect(await sqlCsv(q), q).toBe(await jsCsv(q));
    }
    const big = values('BIGINT', ['-1', '9007199254740992', '9007199254740993', '-9223372036854775808', '9223372036854775807']);
    expect(await sqlCsv(big)).toBe(await jsCsv(big));
    expect(await sqlCsv(big)).toContain('9223372036854776000,4'); // Number(2^63 - 1) as JavaScript writes it
    const huge = values('HUGEINT', ['170141183460469231731687303715884105727', '12345']);
    expect(await sqlCsv(huge)).toBe(await jsCsv(huge));
  });

  it('repeated column names keep the first place and the last value (a row object)', async () => {
    const q = `SELECT 1 AS a, 'x' AS b, 2 AS a`;
    expect(await sqlCsv(q)).toBe(await jsCsv(q));
    expect((await plan(q))!.columns).toEqual(['a', 'b']);
  });

  it('no plan for types without a rendering here (the JS path keeps them)', async () => {
    for (const q of [`SELECT 1.5::DOUBLE AS d`, `SELECT [1, 2] AS l`, `SELECT TIMESTAMP '2024-01-01 00:00:00' AS t`, `SELECT 1.5::DECIMAL(4,1) AS x`]) {
      expect(await plan(q), q).toBeUndefined();
    }
  });
});

// price-paid's address in SQL against formatAddress (a domain's own SQL): test/property/address-sql.test.ts
