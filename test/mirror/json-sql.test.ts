/**
 * The NDJSON lines DuckDB renders (src/mirror/json-sql.ts) against the JavaScript renderer they replace
 * (jsonConverter + a row object + JSON.stringify, as `publicdata sql` wrote every row before): the same
 * bytes for every column type and its edge values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { jsonConverter } from '../../src/mirror/db.js';
import { jsKeyOrder, jsonLinePlan } from '../../src/mirror/json-sql.js';

let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  await conn.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy "quoted"')`);
});
afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

/** The old renderer: every value through jsonConverter, a row object, JSON.stringify. */
async function jsLines(sql: string): Promise<string[]> {
  const conv = await jsonConverter();
  const r = await conn.runAndReadAll(sql);
  const names = r.columnNames();
  return r.convertRows(conv).map((v) => {
    const o: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) o[names[c]!] = v[c];
    return JSON.stringify(o);
  });
}

async function sqlLines(sql: string): Promise<string[] | undefined> {
  const p = await conn.prepare(sql);
  const cols = Array.from({ length: p.columnCount }, (_, i) => ({ name: p.columnName(i), type: p.columnType(i) }));
  p.destroySync();
  const plan = jsonLinePlan(sql, cols);
  if (!plan) return undefined;
  const r = await conn.runAndReadAll(plan.sql);
  return r.getRows().map((row) => row[0] as string);
}

const same = async (sql: string) => {
  const want = await jsLines(sql);
  const got = await sqlLines(sql);
  expect(got, sql).toBeDefined();
  for (let i = 0; i < want.length; i++) expect(got![i], `${sql}\nrow ${i}`).toBe(want[i]);
  expect(got!.length).toBe(want.length);
  return want;
};

/** Values of one type, one row each, NULL last. */
const values = (type: string, vals: string[]) => `SELECT v FROM (VALUES ${[...vals, 'NULL'].map((v, i) => `(${i}, CAST(${v} AS ${type}))`).join(', ')}) t(i, v) ORDER BY i`;

describe('DuckDB renders the JS path NDJSON byte for byte', () => {
  it('VARCHAR: quotes, backslashes, every control character, DEL, unicode, U+2028, emoji, `\\u00` text', async () => {
    const ctl = Array.from({ length: 32 }, (_, c) => `chr(${c})`).join(' || ');
    const lines = await same(values('VARCHAR', [
      `'plain'`, `''`, `'a"b\\c/d'`, ctl, `'x' || chr(11) || '\\u001F' || chr(31) || '\\\\u00'`, `'tab' || chr(9) || 'nl' || chr(10)`,
      `chr(127) || 'é€😀' || chr(8232) || chr(8233)`, `'\\u00e9 literal'`, `'It''s'`,
    ]));
    expect(lines[3]).toContain('\\u000b'); // lower-case hex, as JSON.stringify writes it
  });

  it('JSON, ENUM, UUID, BLOB, DATE, TIME', async () => {
    await same(values('JSON', [`'{"a": [1, 2]}'`, `'"s"'`, `'null'`]));
    await same(values('mood', [`'sad'`, `'happy "quoted"'`]));
    await same(values('UUID', [`'5bbe9cb3-6332-4eb0-9cd3-8737cea4a65a'`, `'{5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A}'`]));
    await same(values('BLOB', [`'\\xAA\\x00abc"'::BLOB`, `''::BLOB`]));
    await same(values('DATE', [`'2024-02-29'`, `'0044-03-15 (BC)'`, `'0500-01-01'`, `'12345-06-07'`, `'infinity'`, `'-infinity'`]));
    await same(values('TIME', [`'00:00:00'`, `'23:59:59.999999'`, `'12:34:56.5'`]));
  });

  it('integers of every width, beyond 2^53 too', async () => {
    for (const t of ['TINYINT', 'SMALLINT', 'INTEGER', 'UTINYINT', 'USMALLINT', 'UINTEGER']) await same(values(t, ['0', '1', '42']));
    await same(values('INTEGER', ['-2147483648', '2147483647']));
    await same(values('BIGINT', ['0', '-1', '9007199254740992', '9007199254740993', '-9007199254740993', '9223372036854775807', '-9223372036854775808', '1000000000000000000000'.slice(0, 19)]));
    await same(values('UBIGINT', ['18446744073709551615', '9007199254740993']));
    await same(values('HUGEINT', ['170141183460469231731687303715884105727', '-170141183460469231731687303715884105728', '123456789012345678901234567', '1000000000000000000000', '999999999999999999999', '12345']));
    await same(values('UHUGEINT', ['340282366920938463463374607431768211455', '7']));
  });

  it('DOUBLE, FLOAT, DECIMAL: JavaScript number text, NaN and infinities as strings, -0 as 0', async () => {
    const doubles = ['0', '-0.0', '1', '-1.5', '0.1', '100', '1e21', '1e20', '123456789012345680000', '1e-6', '1e-7', '1.5e-7', '0.000001234',
      '5e-324', '1.7976931348623157e308', '2.2250738585072014e-308', '1e16', '12345678.9', '3.141592653589793', '-123e-20', '9007199254740993',
      `'NaN'`, `'Infinity'`, `'-Infinity'`, '0.30000000000000004', '1e100', '4.35', '1234567890123456789012'];
    await same(values('DOUBLE', doubles));
    await same(values('FLOAT', ['0.1', '16777217', '3.4028235e38', '1e-45', `'NaN'`, '-2.5']));
    await same(values('DECIMAL(18,2)', ['1.25', '-0.01', '100.00', '9999999999999999.99', '0']));
    await same(values('DECIMAL(38,10)', ['1234567890123456789012345678.0123456789', '0.0000000001', '-3.3333333333']));
    await same(values('DECIMAL(4,1)', ['123.4', '0.5']));
    // random doubles over the whole range
    await same(`SELECT ((hash(i) % 2000001)::DOUBLE - 1000000) / ((hash(i * 7) % 999) + 1) * pow(10, (hash(i * 3) % 600)::INTEGER - 300) AS v FROM range(3000) t(i) ORDER BY i`);
    await same(`SELECT (i * 0.1)::DOUBLE AS v, (i / 7)::DOUBLE AS w, (i * 1e15)::DOUBLE AS x FROM range(2000) t(i) ORDER BY i`);
  });

  it('TIMESTAMP of every precision and TIMESTAMPTZ', async () => {
    const ts = [`'2026-11-21 10:11:12.5'`, `'2026-11-21 10:11:12.123456'`, `'1969-12-31 23:59:59.9999'`, `'0001-01-01 00:00:00'`,
      `'9999-12-31 23:59:59.999999'`, `'0001-01-01 12:00:00'::TIMESTAMP - INTERVAL 100 YEAR`, `'12345-01-01 00:00:00'`, `'infinity'`, `'-infinity'`, `'0500-06-01 01:02:03'`,
      `'0001-01-01 00:00:00'::TIMESTAMP - INTERVAL 1 DAY`, `'0001-01-01 00:00:00'::TIMESTAMP - INTERVAL 1 HOUR`];
    await same(values('TIMESTAMP', ts));
    await same(values('TIMESTAMP_S', ts.filter((t) => !t.startsWith("'12345"))));
    await same(values('TIMESTAMP_MS', ts));
    await same(values('TIMESTAMP_NS', [`'2026-11-21 10:11:12.123456789'`, `'1970-01-01 00:00:00'`, `'1969-12-31 23:59:59.999999999'`]));
    await conn.run(`SET TimeZone = 'UTC'`);
    await same(values('TIMESTAMPTZ', [`'2026-11-21 10:11:12.5+00'`, `'2026-06-21 10:11:12.123456+01'`, `'1969-12-31 23:59:59.9999+00'`,
      `'1900-01-01 00:00:00.0005+00'`, `'0001-01-01 00:00:00+00'`, `'9999-12-31 23:59:59.999+00'`, `'12345-01-01 00:00:00+00'`,
      `'1969-12-31 23:59:59.9995+00'`, `TIMESTAMPTZ '0001-01-01 00:00:00+00' - INTERVAL 1 YEAR`, `TIMESTAMPTZ '0001-01-01 00:00:00+00' - INTERVAL 44 YEAR`,
      `'275760-09-13 00:00:00+00'`]));
    // beyond a JS Date (and ±infinity): both paths fail with the same message
    for (const v of [`'275760-09-13 00:00:00.001+00'`, `'infinity'`, `'-infinity'`]) {
      const q = values('TIMESTAMPTZ', [v]);
      const old = await jsLines(q).then(() => 'no error', (e: Error) => e.message);
      expect(old).toMatch(/out of range for JS Date/);
      expect(await sqlLines(q).then(() => 'no error', (e: Error) => e.message)).toContain(old);
    }
  });

  it('BOOLEAN, NULL, and a row of every type with repeated, numeric and awkward column names', async () => {
    await same(values('BOOLEAN', ['true', 'false']));
    await same(`SELECT NULL AS n, 1 AS "1", 'x' AS b, 2 AS "0", 3 AS b, 'é "q"\\' AS "we""ird\\", 4 AS "10", 5 AS "01", 6 AS "-1",
      7::HUGEINT AS h, 1.5::DOUBLE AS d, DATE '2024-01-01' AS dt, TIMESTAMP '2024-01-01 01:02:03' AS ts, true AS yes`);
    expect(jsKeyOrder(['b', '2', 'a', '1', 'b'])).toEqual([['1', 3], ['2', 1], ['b', 4], ['a', 2]]);
  });

  it('keeps the JavaScript path for types without an SQL rendering', async () => {
    for (const sql of [`SELECT [1, 2] AS l`, `SELECT {'a': 1} AS s`, `SELECT MAP {'k': 1} AS m`, `SELECT INTERVAL 1 DAY AS i`, `SELECT 1 AS a, [1] AS l`]) {
      expect(await sqlLines(sql), sql).toBeUndefined();
    }
  });
});
