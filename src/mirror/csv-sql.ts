/**
 * CSV lines rendered by DuckDB, byte for byte what the JavaScript CSV renderer writes for the same rows
 * (`toCsv` in src/output/records.ts over the row objects `jsonConverter` gives: one line per row, the
 * header apart). Used where a streamed answer's records are plain columns (`--all` on the local backend,
 * src/mirror/db.ts `streamRendered`), so that JavaScript moves one string per row instead of building
 * and rendering an object.
 *
 * The rules, from `cell` and `csvCell`: NULL is empty; BOOLEAN `true`/`false`; integers as JavaScript
 * writes the number the converter makes (64- and 128-bit beyond ±2^53 as the nearest double, as in
 * json-sql.ts); VARCHAR, ENUM, UUID and DATE the text DuckDB casts them to (DATE ±infinity as in
 * json-sql.ts). A cell holding `"`, `,`, CR or LF is quoted with its quotes doubled. Columns of any other
 * type have no rendering here (the caller keeps the JavaScript path). Columns are in the row object's key
 * order (`jsKeyOrder`). Text is rendered as stored: @duckdb/node-api drops a leading U+FEFF from each
 * string it reads, so a caller comparing with values read into JavaScript reads them the same way in its
 * query (price-paid's `asRead`).
 */
import type { DuckDBType } from '@duckdb/node-api';
import { booleanOrIntegerSql, jsKeyOrder } from './json-sql.js';

/** The cell text of column `c` of type `type` (never NULL: the caller handles NULL), or undefined. */
function cellSql(c: string, type: DuckDBType): string | undefined {
  const exact = booleanOrIntegerSql(c, type);
  if (exact !== undefined) return exact;
  switch (type.typeId) {
    case 13: // DATE: ±infinity as the JS value's text of its day number, ±(2^31 - 1) (as in json-sql.ts)
      return `CASE WHEN isfinite(${c}) THEN CAST(${c} AS VARCHAR) WHEN ${c} > DATE '2000-01-01' THEN '5881580-07-11' ELSE '5877642-06-24 (BC)' END`;
    case 17: case 23: case 27: // VARCHAR ENUM UUID
      return `CAST(${c} AS VARCHAR)`;
    default:
      return undefined;
  }
}

/** `s` as a CSV cell: quoted, quotes doubled, when it holds `"`, `,`, CR or LF. */
const quoted = (s: string) => `CASE WHEN regexp_matches(${s}, '[",\\r\\n]') THEN '"' || replace(${s}, '"', '""') || '"' ELSE ${s} END`;

export interface CsvLinePlan {
  /** `SELECT <one VARCHAR per row> AS line FROM (<query>) …`: the rows as CSV lines (no line break). */
  sql: string;
  /** The header's column names, in order. */
  columns: string[];
}

/**
 * The plan that renders `query`'s rows as CSV lines in SQL, or undefined when a column type has no SQL
 * rendering. `query` is wrapped as a subquery with its columns renamed c0, c1, ….
 */
export function csvLinePlan(query: string, columns: ReadonlyArray<{ name: string; type: DuckDBType }>): CsvLinePlan | undefined {
  const keys = jsKeyOrder(columns.map((c) => c.name));
  if (keys.length === 0) return undefined;
  const parts: string[] = [];
  for (const [, col] of keys) {
    const c = `c${col}`;
    const v = cellSql(c, columns[col]!.type);
    if (v === undefined) return undefined;
    // Only VARCHAR-like text can hold a character that needs quoting.
    const text = [17, 23, 27].includes(columns[col]!.type.typeId) ? quoted(`(${v})`) : v;
    parts.push(`(CASE WHEN ${c} IS NULL THEN '' ELSE ${text} END)`);
  }
  const from = `FROM (\n${query}\n) AS t(${columns.map((_, i) => `c${i}`).join(', ')})`;
  return { sql: `SELECT ${parts.join(` || ',' || `)} AS line ${from}`, columns: keys.map(([k]) => k) };
}
