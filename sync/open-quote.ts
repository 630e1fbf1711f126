/**
 * A quote left open in a CSV read leniently (`read_csv(..., strict_mode = false)`): DuckDB then reads every
 * line after it, up to `max_line_size`, as one field of one row. That row is one reject standing for the
 * thousands of rows it took in (neither the reject limit nor the per-unit shrink check sees them), or, the
 * open quote in the last columns, a row that passes its checks with a giant field. For a format that has no
 * field over several lines, a row holding a line break is such a row: the load is refused by name, with the
 * lines it took in (docs/mirror.md, "When a sync is stopped or a file is wrong").
 *
 * A module (1) adds `noLineBreak(columns)` to the check its rows pass (the row then fails and keeps its raw
 * text, or carries the text in a column set only for such rows: no second pass over the data), and (2) calls
 * `refuseOpenQuote` with the rows that failed it, and `refuseOpenQuoteInRejects` before DuckDB's reject
 * tables are emptied (a row with too few columns, the open quote in an early column, is a structural reject).
 */
import { basename } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne, type Param } from '../src/mirror/db.js';

/** How a format is named in the refusal: `police.uk CSV`, and why a line break cannot be its own. */
export interface NoBreakFormat {
  /** `police.uk CSV` in "x.csv is not a well-formed police.uk CSV". */
  what: string;
  /** `police.uk files have no field over several lines`. */
  why: string;
}

/**
 * SQL: true when none of `columns` (expressions, e.g. `r.context` or a quoted identifier) holds a line break.
 * Column by column, not one concat of them all: no string built per row (companies' 55 columns: 0.73 s of
 * CPU per 200,000 rows as one concat, 0.61 s column by column, 0.33 s without the check).
 */
export function noLineBreak(columns: readonly string[]): string {
  return `NOT (${columns.map((c) => `coalesce(contains(${c}, chr(10)), false)`).join(' OR ')})`;
}

/** SQL: the lines a text spans (its line breaks plus one). */
function linesOf(text: string): string {
  return `((length(${text}) - length(replace(${text}, chr(10), '')))::INTEGER + 1)`;
}

/** The refusal: one line naming the file and the lines one field took in. */
function openQuoteError(file: string, lines: number, format: NoBreakFormat): Error {
  return new Error(
    `${basename(file)} is not a well-formed ${format.what}: a quoted field that is never closed takes in ${lines} lines as one field (${format.why}); download it again (or check it is the publisher's file, whole and unedited) and run the sync again`,
  );
}

/**
 * Refuse the load when a row of `rows` (SQL selecting `file` and `text`: the rows that failed their check,
 * with their raw text) holds a line break; the first one found is named.
 */
export async function refuseOpenQuote(conn: DuckDBConnection, rows: string, format: NoBreakFormat, params: Param[] = []): Promise<void> {
  const hit = await queryOne<{ file: string; lines: number }>(
    conn,
    // trimmed of line ends: DuckDB's csv_line of a CRLF file starts with the `\n` of the line before, and a
    // last line may end with its own; a line break left is inside the row
    `SELECT file, ${linesOf('text')} AS lines FROM (SELECT file, trim(text, chr(13) || chr(10)) AS text FROM (${rows})) WHERE contains(text, chr(10)) LIMIT 1`,
    params,
  );
  if (hit) throw openQuoteError(hit.file, hit.lines, format);
}

/**
 * The same for DuckDB's structural rejects (`store_rejects`: too few columns, the open quote in an early
 * column), read before `storeStructuralRejects` empties the reject tables.
 */
export async function refuseOpenQuoteInRejects(conn: DuckDBConnection, format: NoBreakFormat): Promise<void> {
  const exists = await queryOne<{ n: number }>(
    conn,
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'reject_errors' AND temporary",
  );
  if (!exists?.n) return;
  await refuseOpenQuote(conn, 'SELECT s.file_path AS file, e.csv_line AS text FROM reject_errors e JOIN reject_scans s USING (scan_id, file_id)', format);
}
