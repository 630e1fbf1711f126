/**
 * Publishers rename and re-case CSV columns between releases (STATS19 `accident_*` → `collision_*`; DfT
 * traffic `lgvs` → `LGVs`, `Region_name` → `region_name`). A loader names the columns it wants and maps
 * a file's header onto them through an alias table, case-insensitively; then it reads every column as
 * text and converts in SQL, so a sniffer never guesses a type.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent } from '../../../../sync/common.js';
import { noLineBreak, refuseOpenQuote, type NoBreakFormat } from '../../../../sync/open-quote.js';

/** Column kinds a loader converts from text. */
export type ColumnKind = 'text' | 'int' | 'bigint' | 'double' | 'date' | 'time';

export interface ColumnSpec {
  /** Table column name. */
  column: string;
  kind: ColumnKind;
  /** The canonical header name, when it differs from the table column (`date` → collision_date). */
  header?: string;
  /** Required: a row without a value is rejected (and a file without the column refused). */
  required?: boolean;
}

/** A header name as the alias tables spell it: lower case, `(`, `)`, `?` dropped, `-` and spaces as `_`. */
export function normaliseHeader(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[()?]/g, '')
    .replace(/[\s-]+/g, '_');
}

/**
 * Map a file's header onto the wanted columns: `header name → canonical name` for every header column
 * that is wanted (directly or through `aliases`, keyed by normalised name). Returns, per wanted canonical
 * header, the file's own header name (undefined when the file lacks it), and the file's columns not used.
 */
export function mapHeader(
  header: readonly string[],
  wanted: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): { source: Map<string, string>; unused: string[] } {
  const want = new Set(wanted);
  const source = new Map<string, string>();
  const unused: string[] = [];
  for (const h of header) {
    const n = normaliseHeader(h);
    const canonical = aliases[n] ?? n;
    if (want.has(canonical) && !source.has(canonical)) source.set(canonical, h);
    else unused.push(h);
  }
  return { source, unused };
}

/** `nullif` of blank text and the literal `NULL` some releases write for missing values. */
export function blank(sqlText: string): string {
  return `nullif(nullif(trim(${sqlText}), ''), 'NULL')`;
}

/** The SQL expression turning one raw text column into its typed value (NULL when absent or blank). */
export function typedExpr(kind: ColumnKind, rawIdent: string | undefined): string {
  if (!rawIdent) return kind === 'text' ? 'CAST(NULL AS VARCHAR)' : `CAST(NULL AS ${sqlType(kind)})`;
  const c = blank(quoteIdent(rawIdent));
  switch (kind) {
    case 'text':
      return c;
    case 'int':
      return `TRY_CAST(${c} AS INTEGER)`;
    case 'bigint':
      // numbers may arrive as 2.28e+08 / 1.15E+09: parse as a double, round half away from zero
      return `CAST(round(TRY_CAST(${c} AS DOUBLE)) AS BIGINT)`;
    case 'double':
      return `TRY_CAST(${c} AS DOUBLE)`;
    case 'date':
      return `coalesce(try_strptime(${c}, '%d/%m/%Y'), try_strptime(${c}, '%Y-%m-%d'))::DATE`;
    case 'time':
      // HH:MM (publisher) or HH:MM:SS → 'HH:MM:SS'
      return `strftime(coalesce(try_strptime(${c}, '%H:%M'), try_strptime(${c}, '%H:%M:%S')), '%H:%M:%S')`;
  }
}

/** True when the raw value is blank or parses as its kind (a row failing this for any column is rejected). */
export function parsesExpr(kind: ColumnKind, rawIdent: string | undefined): string {
  if (!rawIdent || kind === 'text') return 'true';
  return `(${blank(quoteIdent(rawIdent))} IS NULL OR ${typedExpr(kind, rawIdent)} IS NOT NULL)`;
}

export function sqlType(kind: ColumnKind): string {
  return { text: 'VARCHAR', int: 'INTEGER', bigint: 'BIGINT', double: 'DOUBLE', date: 'DATE', time: 'VARCHAR' }[kind];
}

/** `read_csv` of a file with every header column as VARCHAR (no type sniffing). */
export function readCsvAllText(header: readonly string[]): string {
  const cols = header.map((h) => `${sqlString(h)}: 'VARCHAR'`).join(', ');
  return `read_csv(?, header = true, columns = {${cols}}, quote = '"', escape = '"', strict_mode = false, null_padding = true, ignore_errors = false)`;
}

export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * SQL: true when no field of the row holds a line break. The STATS19 and road traffic files have one record
 * a line (no field of the real excerpts spans lines; docs/mirror.md): a break is a quote never closed that
 * took in the lines after it (sync/open-quote.ts). Every column, parsed or not: a number, date or time with a
 * break after it still parses, and the columns not kept are checked by nothing else.
 */
export function noBreakInRow(header: readonly string[]): string {
  return noLineBreak(header.map(quoteIdent));
}

/**
 * A file's rejected rows (those failing `ok`) into `rejects` as `file` (the first 1,000 by line, with their
 * raw text, the file read again: the rare path); refused first when one holds a line break (`noBreakInRow`).
 */
export async function storeFileRejects(
  conn: DuckDBConnection,
  f: { label: string; path: string; header: readonly string[] },
  ok: string,
  reason: string,
  format: NoBreakFormat,
): Promise<void> {
  const rows = `SELECT line, raw FROM (SELECT row_number() OVER () + 1 AS line, concat_ws(',', ${f.header.map((h) => `coalesce(${quoteIdent(h)}, '')`).join(', ')}) AS raw, (${ok}) AS ok
    FROM ${readCsvAllText(f.header)}) WHERE NOT ok`;
  await refuseOpenQuote(conn, `SELECT ? AS file, raw AS text FROM (${rows})`, format, [f.label, f.path]);
  await conn.run(`INSERT INTO rejects SELECT ?, line, raw, ? FROM (${rows}) ORDER BY line LIMIT 1000`, [f.label, reason, f.path]);
}
