/**
 * NDJSON lines rendered by DuckDB, byte for byte what the JavaScript renderer writes.
 *
 * The JavaScript path converts every value to a JS value (`jsonConverter` in db.ts), builds one object per
 * row (`row[name] = value`) and `JSON.stringify`s it: ~0.4 µs of work per value on the main thread, which
 * made a full-table export several times slower than DuckDB's own `COPY … (FORMAT json)`. Here the same
 * text is an SQL expression over the query's columns, so DuckDB's threads build it and JavaScript (or
 * `COPY … TO` a pipe, see sql.ts) only moves one string per row. Each column type gets the expression that
 * reproduces its JavaScript rendering exactly (`test/mirror/json-sql.test.ts` compares both on every
 * type, edge values included); a query with a column type that has none (LIST, STRUCT, MAP, ARRAY,
 * UNION, INTERVAL, VARIANT, GEOMETRY, BIT, BIGNUM, TIME_TZ, TIME_NS) keeps the JavaScript path.
 *
 * The rules, from `jsonConverter` and `JSON.stringify`:
 *  - keys: the column names in JavaScript object order (a name repeated keeps its first place and its last
 *    value; names that are array indexes, `"0"`, `"42"`, come first in ascending order), JSON-escaped;
 *  - VARCHAR (JSON and ENUM too), UUID, BLOB (DuckDB's `\xAA` text), DATE, TIME: the text DuckDB
 *    casts it to, as a JSON string (DATE ±infinity as the JS value's text of its day number, ±(2^31 - 1)). `to_json` escapes as JSON.stringify does except that it writes the
 *    hex digits of `\u00XX` in upper case: a line holding `\u00` is rebuilt with a hand-written escape;
 *  - integers up to 32 bits: decimal; 64- and 128-bit: decimal within ±2^53, else the nearest double
 *    written as JavaScript writes numbers; FLOAT, DOUBLE and DECIMAL: the double (DuckDB's cast, as the
 *    converter's) written as JavaScript writes numbers (`jsNumberSql`), NaN and ±Infinity as the strings
 *    `"NaN"`, `"Infinity"`, `"-Infinity"`, -0 as `0`;
 *  - TIMESTAMP (all precisions): `YYYY-MM-DDTHH:MM:SS.mmmZ` (milliseconds truncated), for years 1 to
 *    9999; others (BC, 10000 and later) as DuckDB's text, as the converter does; ±infinity as the
 *    converter writes its sentinel (INFINITY_TEXT);
 *  - TIMESTAMPTZ: the instant in UTC as Date#toISOString writes it (the converter goes through a JS Date,
 *    which truncates the microseconds towards zero; years outside 0 to 9999 as ±YYYYYY), and the same
 *    error as the converter's beyond a Date's range (±infinity included);
 *  - BOOLEAN `true`/`false`; NULL `null`.
 */
import type { DuckDBType } from '@duckdb/node-api';

/** A string as an SQL literal ('…', quotes doubled). */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** The keys of a row object built from these column names, in JavaScript's order, each with the column that wins. */
export function jsKeyOrder(names: readonly string[]): Array<[key: string, column: number]> {
  const o: Record<string, number> = {};
  names.forEach((n, i) => (o[n] = i));
  return Object.entries(o);
}

/**
 * JavaScript's Number#toString of a DOUBLE expression `d` that DuckDB writes with an exponent
 * (`1e+16`, `-1.2345e-07`: one digit before the point, the shortest digits that round-trip, as
 * JavaScript's): the digits laid out by ECMAScript's rules, plain for exponents -7 < e < 21
 * (`10000000000000000`, `-0.00000012345`), else `d.ddde±x` without the exponent's leading zeros.
 */
function jsExponentNumberSql(d: string): string {
  const s = `CAST(${d} AS VARCHAR)`;
  const m = `split_part(${s}, 'e', 1)`;
  const e = `CAST(split_part(${s}, 'e', 2) AS INTEGER)`;
  const D = `replace(ltrim(${m}, '-'), '.', '')`;
  const sign = `CASE WHEN ${d} < 0 THEN '-' ELSE '' END`;
  return `CASE WHEN ${e} BETWEEN -6 AND -1 THEN ${sign} || '0.' || repeat('0', -${e} - 1) || ${D}
    WHEN ${e} BETWEEN 0 AND 20 THEN ${sign} || CASE WHEN length(${D}) <= ${e} + 1 THEN ${D} || repeat('0', ${e} + 1 - length(${D}))
      ELSE ${D}[:${e} + 1] || '.' || ${D}[${e} + 2:] END
    ELSE ${m} || 'e' || CASE WHEN ${e} < 0 THEN '-' ELSE '+' END || CAST(abs(${e}) AS VARCHAR) END`;
}

/**
 * JSON text of a DOUBLE expression as the JS path writes it (NaN and infinities as strings). DuckDB writes
 * plain notation (`123.5`, `100.0`) for 1e-4 <= |x| < 1e16, a range where JavaScript does too with the
 * same digits, so there it is DuckDB's text without a trailing `.0`; only the rare rest (an exponent
 * in DuckDB's text) is laid out from its digits and exponent.
 */
export function jsNumberSql(d: string): string {
  const s = `CAST(${d} AS VARCHAR)`;
  return `CASE WHEN ${d} = 0 THEN '0'
    WHEN NOT contains(${s}, 'e') AND isfinite(${d}) THEN CASE WHEN suffix(${s}, '.0') THEN ${s}[:-3] ELSE ${s} END
    WHEN isnan(${d}) THEN '"NaN"' WHEN ${d} = 'Infinity'::DOUBLE THEN '"Infinity"'
    WHEN ${d} = '-Infinity'::DOUBLE THEN '"-Infinity"' ELSE ${jsExponentNumberSql(d)} END`;
}

/** JSON string of a VARCHAR expression, escaped as JSON.stringify does (control characters by hand). */
function jsonStringByHand(v: string): string {
  let x = `replace(replace(${v}, '\\', '\\\\'), '"', '\\"')`;
  const named: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
  for (let c = 0; c < 32; c++) x = `replace(${x}, chr(${c}), '${named[c] ?? `\\u${c.toString(16).padStart(4, '0')}`}')`;
  return `('"' || ${x} || '"')`;
}

/**
 * The JS path's text of ±infinity per timestamp type: the converter reads DuckDB's sentinel (±(2^63 - 1))
 * as a count of seconds, milliseconds or nanoseconds, so only TIMESTAMP says `infinity`.
 */
const INFINITY_TEXT: Record<number, [string, string]> = {
  12: ['infinity', '-infinity'],
  20: ['292277026596-12-04 15:30:07', '292277022658-01-27 (BC) 08:29:53'],
  21: ['292278994-08-17 07:12:55.807', '292275056-05-16 (BC) 16:47:04.193'],
  22: ['2262-04-11T23:47:16.854Z', '1677-09-21T00:12:43.145Z'],
};

/** A TIMESTAMP_NS floored to the millisecond (a cast to TIMESTAMP truncates towards 1970; the JS text is cut). */
const nsToMs = (c: string) => `epoch_ms((epoch_ns(${c}) - (epoch_ns(${c}) % 1000000 + 1000000) % 1000000) // 1000000)`;

const TIMESTAMP_FORMAT = `'%Y-%m-%dT%H:%M:%S.%gZ'`;

/**
 * The JSON text of column `c` (an SQL expression) of type `type`, or undefined when the type has no
 * SQL rendering identical to the JS path. `byHand`: VARCHARs escaped by hand (the rare-line rebuild).
 */
/**
 * The text JavaScript gives a BOOLEAN or integer column's value (the same in JSON and in CSV), or
 * undefined for other types. Shared by valueSql and csv-sql.ts.
 */
export function booleanOrIntegerSql(c: string, type: DuckDBType): string | undefined {
  switch (type.typeId) {
    case 1: // BOOLEAN
      return `CASE WHEN ${c} THEN 'true' ELSE 'false' END`;
    case 2: case 3: case 4: case 6: case 7: case 8: // TINYINT SMALLINT INTEGER UTINYINT USMALLINT UINTEGER
      return `CAST(${c} AS VARCHAR)`;
    case 5: case 9: case 16: case 32: // BIGINT UBIGINT HUGEINT UHUGEINT: Number(bigint) rounds beyond 2^53
      return `CASE WHEN ${type.typeId === 5 || type.typeId === 16 ? `${c} >= -9007199254740992 AND ` : ''}${c} <= 9007199254740992 THEN CAST(${c} AS VARCHAR)
        ELSE ${jsNumberSql(`CAST(CAST(${c} AS VARCHAR) AS DOUBLE)`)} END`;
    default:
      return undefined;
  }
}

function valueSql(c: string, type: DuckDBType, byHand: boolean): string | undefined {
  const str = (v: string) => (byHand ? jsonStringByHand(v) : `to_json(${v})::VARCHAR`);
  const exact = booleanOrIntegerSql(c, type);
  if (exact !== undefined) return exact;
  switch (type.typeId) {
    case 10: case 11: case 19: // FLOAT DOUBLE DECIMAL
      return jsNumberSql(`CAST(${c} AS DOUBLE)`);
    case 12: case 20: case 21: case 22: { // TIMESTAMP _S _MS _NS
      const [pos, neg] = INFINITY_TEXT[type.typeId]!;
      return `CASE WHEN NOT isfinite(${c}) THEN CASE WHEN ${c} > TIMESTAMP '2000-01-01' THEN ${sqlString(JSON.stringify(pos))} ELSE ${sqlString(JSON.stringify(neg))} END
        WHEN year(${c}) BETWEEN 1 AND 9999 AND NOT CAST(${c} AS VARCHAR) LIKE '%(BC)%'
        THEN '"' || strftime(${type.typeId === 22 ? nsToMs(c) : `CAST(${c} AS TIMESTAMP)`}, ${TIMESTAMP_FORMAT}) || '"'
        -- 1 BC is ISO year 0, which the JS path writes as a Date ("0000-12-31T…"), not as DuckDB's "(BC)" text
        WHEN year(${c}) = 0 THEN '"0000' || strftime(${type.typeId === 22 ? nsToMs(c) : `CAST(${c} AS TIMESTAMP)`}, ${sqlString(TIMESTAMP_FORMAT.slice(3, -1))}) || '"'
        ELSE ${str(`CAST(${c} AS VARCHAR)`)} END`;
    }
    case 31: { // TIMESTAMPTZ: Date(micros / 1000n) (truncated towards zero), toISOString; out of its range an error
      const ms = `(epoch_us(${c}) // 1000)`;
      const ts = `epoch_ms(${ms})`;
      const y = `year(${ts})`;
      return `CASE WHEN NOT isfinite(${c}) OR abs(${ms}) > 8640000000000000
        THEN error('TIMESTAMPTZ value out of range for JS Date: ' || coalesce(CAST(epoch_us(${c}) AS VARCHAR), CASE WHEN ${c} > TIMESTAMPTZ '2000-01-01 00:00:00+00' THEN '9223372036854775807' ELSE '-9223372036854775807' END) || ' micros')
        ELSE '"' || CASE WHEN ${y} BETWEEN 0 AND 9999 THEN lpad(CAST(${y} AS VARCHAR), 4, '0') WHEN ${y} < 0 THEN '-' || lpad(CAST(-${y} AS VARCHAR), 6, '0')
          ELSE '+' || lpad(CAST(${y} AS VARCHAR), 6, '0') END || strftime(${ts}, '-%m-%dT%H:%M:%S.%gZ') || '"' END`;
    }
    case 13: // DATE: the JS value's text of ±infinity is the date of its day number (±(2^31 - 1))
      return `CASE WHEN isfinite(${c}) THEN ${str(`CAST(${c} AS VARCHAR)`)} WHEN ${c} > DATE '2000-01-01' THEN '"5881580-07-11"' ELSE '"5877642-06-24 (BC)"' END`;
    case 14: case 17: case 18: case 23: case 27: // TIME VARCHAR BLOB ENUM UUID
      return str(`CAST(${c} AS VARCHAR)`);
    case 36: // SQLNULL
      return `'null'`;
    default:
      return undefined;
  }
}

export interface JsonLinePlan {
  /** `SELECT <one VARCHAR per row> FROM (<query>) …`: the query's rows as NDJSON lines (no newline). */
  sql: string;
}

/**
 * The plan that renders `query`'s rows as NDJSON lines in SQL, or undefined when a column type has no
 * SQL rendering. `query` is wrapped as a subquery with its columns renamed c0, c1, … (so any column
 * name, repeated or not, is fine).
 */
export function jsonLinePlan(query: string, columns: ReadonlyArray<{ name: string; type: DuckDBType }>): JsonLinePlan | undefined {
  const keys = jsKeyOrder(columns.map((c) => c.name));
  const line = (byHand: boolean): string | undefined => {
    const parts: string[] = [];
    let lit = '{';
    for (const [i, [key, col]] of keys.entries()) {
      lit += `${i ? ',' : ''}${JSON.stringify(key)}:`;
      const c = `c${col}`;
      const v = valueSql(c, columns[col]!.type, byHand);
      if (v === undefined) return undefined;
      parts.push(sqlString(lit), `(CASE WHEN ${c} IS NULL THEN 'null' ELSE ${v} END)`);
      lit = '';
    }
    parts.push(sqlString(`${lit}}`));
    return parts.join(' || ');
  };
  const fast = line(false);
  const slow = line(true);
  if (fast === undefined || slow === undefined) return undefined;
  const from = `FROM (\n${query}\n) AS t(${columns.map((_, i) => `c${i}`).join(', ')})`;
  return {
    // `\u00` marks a control character, whose hex digits to_json writes in upper case: rebuild that line by hand.
    sql: `SELECT CASE WHEN contains(l, '\\u00') THEN ${slow} ELSE l END AS line FROM (SELECT ${fast} AS l, * ${from})`,
  };
}
