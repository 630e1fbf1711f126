/**
 * sync/load-error.ts on DuckDB's real errors (issue 37): each malformed file below is read with read_csv by a
 * real DuckDB, and the error it raises is said in one line naming the file, the line DuckDB names, and what is
 * wrong. The whole syncs are tested per dataset (test/crime/load-error.test.ts, test/schools/load-error.test.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { duckdbLoadError, parseDuckdbError } from '../../sync/load-error.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-load-error-'));
const given = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
/** The error DuckDB raises running `sql` with `params`. */
async function duckError(sql: string, params: string[]): Promise<Error> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run(sql, params);
  } catch (e) {
    return e as Error;
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  throw new Error(`no error from ${sql}`);
}
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1},${i * 2}\n`).join('');

describe('duckdbLoadError', () => {
  it('a value of the wrong type past the sniffer: the line, the column, the value, the file given', async () => {
    // 30,000 good lines, then "x" where a number goes: line 30,002 (the header is line 1)
    const p = given('numbers.csv', `a,b\n${numbers(30_000)}x,3\n`);
    const e = await duckError(`SELECT * FROM read_csv(?, header = true, columns = {'a': 'INTEGER', 'b': 'INTEGER'})`, [p]);
    expect(e.message.split('\n').length).toBeGreaterThan(10);
    const line = duckdbLoadError(e, [{ path: p, shown: '/given/numbers.csv' }])!;
    expect(line).toBe(
      '/given/numbers.csv is not a well-formed CSV of the expected format: line 30002, column a, holds "x", which is not a valid INTEGER; ' +
        "download it again (or check it is the publisher's file, whole and unedited) and run the sync again; kept the previous data",
    );
  });

  it('a line with more fields than the header (strict reader): the copy in the work folder is traced to the file given by name', async () => {
    const work = join(dir, 'extract');
    mkdirSync(work, { recursive: true });
    const copy = join(work, 'register.csv');
    writeFileSync(copy, `a,b\n${numbers(30_000)}1,2,3,4\n${numbers(10)}`); // the bad line is line 30,002
    const e = await duckError(`SELECT * FROM read_csv(?, header = true, columns = {'a': 'VARCHAR', 'b': 'VARCHAR'}, quote = '"', escape = '"')`, [copy]);
    const line = duckdbLoadError(e, [{ path: '/somewhere/register.csv', shown: '/somewhere/register.csv' }, { path: '/somewhere/other.csv', shown: '/somewhere/other.csv' }], work)!;
    expect(line).toMatch(/^\/somewhere\/register\.csv is not a well-formed CSV of the expected format: line 30002 has more fields than the 2 expected; /);
    // a copy under another name: said to come from the files given
    const renamed = duckdbLoadError(e, [{ path: '/somewhere/given.csv', shown: '/somewhere/given.csv' }], work)!;
    expect(renamed).toMatch(/^register\.csv \(from \/somewhere\/given\.csv\) is not a well-formed CSV/);
  });

  it('a file that is not there: not called malformed; a module\'s own error is left to the caller', async () => {
    const missing = join(dir, 'gone.csv');
    const e = await duckError('SELECT * FROM read_csv(?, header = true)', [missing]);
    expect(duckdbLoadError(e, [{ path: missing, shown: missing }])).toBe(`load failed (${missing}): the file is not there (removed while the sync ran?); kept the previous data`);
    expect(parseDuckdbError(new Error('schools: a first sync needs both files'))).toBeUndefined();
    expect(duckdbLoadError(new Error('the authorities list is not JSON (Unexpected token)'), [])).toBeUndefined();
  });

  it('a module\'s words before DuckDB\'s are kept; a cast in its SQL (no CSV line named) is not the file\'s fault', () => {
    const e = new Error('month 2024-01: Conversion Error: Could not convert string \'x\' to INT32 when casting from source column a\n\nLINE 1: SELECT …');
    expect(parseDuckdbError(e)).toMatchObject({ kind: 'Conversion', prefix: 'month 2024-01', fileFault: false });
    expect(duckdbLoadError(e, [{ path: '/a.csv', shown: '/a.csv' }])).toBe('month 2024-01: load failed (/a.csv): column a holds "x", which is not a valid INT32; kept the previous data');
  });
});

describe('duckdbLoadError: a conversion error of a module\'s own SQL, not of the CSV reader', () => {
  // DuckDB's reader names the line and the column it converts ("CSV Error on Line: 3", 'Error when converting
  // column "a"') and lists its options ("file = …"); a cast in a SELECT names only the cast's source column
  // and the SQL ("LINE 1: SELECT CAST(s AS INTEGER) FROM t")
  const workbook = [{ path: '/given/table4.xlsx', shown: '/given/table4.xlsx' }];
  const notCsv = (line: string) => {
    expect(line).not.toContain('not a well-formed CSV');
    expect(line).not.toContain('download it again');
  };

  it('a cast in a SELECT over a VARCHAR table (values read from a workbook, say): load failed, the file given, the value', async () => {
    const e = await duckError("CREATE TABLE t AS SELECT * FROM (VALUES ('1'), ('abc')) v(s); SELECT CAST(s AS INTEGER) AS n FROM t", []);
    expect(e.message).toContain('when casting from source column s');
    expect(e.message).not.toContain('CSV Error on Line');
    const line = duckdbLoadError(e, workbook)!;
    expect(line).toBe('load failed (/given/table4.xlsx): column s holds "abc", which is not a valid INT32; kept the previous data');
    notCsv(line);
  });

  it('a cast of a CSV read as text (all_varchar): the reader read the file; the cast is the module\'s', async () => {
    const p = given('small.csv', 'a,b\n1,2\nx,3\n');
    const e = await duckError('SELECT CAST(a AS INTEGER) FROM read_csv(?, header = true, all_varchar = true)', [p]);
    const line = duckdbLoadError(e, [{ path: p, shown: '/given/small.csv' }])!;
    expect(line).toBe('load failed (/given/small.csv): column a holds "x", which is not a valid INT32; kept the previous data');
    notCsv(line);
  });

  it('a cast with no column named and no file given: the value alone', async () => {
    const e = await duckError("SELECT CAST('abc' AS INTEGER)", []);
    expect(duckdbLoadError(e, [])).toBe('load failed: "abc" is not a valid INT32; kept the previous data');
  });

  it('the same value read by the CSV reader as a typed column: the file is blamed, with the line', async () => {
    const p = given('typed.csv', 'a,b\n1,2\nx,3\n');
    const e = await duckError(`SELECT * FROM read_csv(?, header = true, columns = {'a': 'INTEGER', 'b': 'INTEGER'})`, [p]);
    expect(duckdbLoadError(e, [{ path: p, shown: '/given/typed.csv' }])).toBe(
      '/given/typed.csv is not a well-formed CSV of the expected format: line 3, column a, holds "x", which is not a valid INTEGER; ' +
        "download it again (or check it is the publisher's file, whole and unedited) and run the sync again; kept the previous data",
    );
  });
});

describe('duckdbLoadError: not the file\'s fault', () => {
  it('a full disk while DuckDB writes: the path it names, not "not a well-formed CSV"', () => {
    const e = new Error('IO Error: Could not write file "/cache/crime/extract/stage.duckdb.wal": No space left on device\n\nLINE 1: INSERT …');
    expect(duckdbLoadError(e, [{ path: '/in/2024-01.zip', shown: '/in/2024-01.zip' }], '/cache/crime/extract')).toBe(
      'load failed (/cache/crime/extract/stage.duckdb.wal): the disk is full; kept the previous data',
    );
  });
});
