/**
 * SQL of the load: one SELECT per file mapping its header onto the mirror columns (every value read as text,
 * converted in SQL; blank and `NULL` cells are NULL), and the derived columns of the tables.
 */
import { quoteIdent } from '../../../mirror/db.js';
import { noLineBreak } from '../../../../sync/open-quote.js';
import { normaliseHeader, type Col, type Kind } from './columns.js';

export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** `read_csv` of a file with every header column as VARCHAR (no type sniffing; a malformed line fails the load). */
function readCsvAllText(header: readonly string[]): string {
  const cols = header.map((h) => `${sqlString(h)}: 'VARCHAR'`).join(', ');
  return `read_csv(?, header = true, columns = {${cols}}, quote = '"', escape = '"', strict_mode = false, null_padding = true, ignore_errors = false)`;
}

/** Blank and the literal `NULL` the management information writes are NULL. */
const blank = (x: string) => `nullif(nullif(trim(${x}), ''), 'NULL')`;

function typed(kind: Kind, raw: string | undefined): string {
  if (!raw) return kind === 'int' ? 'CAST(NULL AS INTEGER)' : kind === 'text' ? 'CAST(NULL AS VARCHAR)' : 'CAST(NULL AS DATE)';
  const c = blank(quoteIdent(raw));
  switch (kind) {
    case 'text': return c;
    case 'int': return `TRY_CAST(${c} AS INTEGER)`;
    // GIAS: dd-mm-yyyy; Ofsted: dd/mm/yyyy
    case 'date_dash': return `try_strptime(${c}, '%d-%m-%Y')::DATE`;
    case 'date_slash': return `try_strptime(${c}, '%d/%m/%Y')::DATE`;
  }
}

/** A non-blank value that does not parse as its kind makes the row a reject (text always parses). */
function parses(kind: Kind, raw: string | undefined): string {
  if (!raw || kind === 'text') return 'true';
  return `(${blank(quoteIdent(raw))} IS NULL OR ${typed(kind, raw)} IS NOT NULL)`;
}

/** The file's own header name of each wanted column (by normalised name), and the wanted columns it lacks. */
export function mapColumns(header: readonly string[], cols: readonly Col[]): { source: Map<string, string>; missing: string[] } {
  const byNorm = new Map<string, string>();
  for (const h of header) if (!byNorm.has(normaliseHeader(h))) byNorm.set(normaliseHeader(h), h);
  const source = new Map<string, string>();
  const missing: string[] = [];
  for (const c of cols) {
    let h = byNorm.get(normaliseHeader(c.header));
    // `Web link` (graded layout) or `Web Link (opens in new window)` (report cards)
    if (!h && c.column === 'web_link') h = [...byNorm.entries()].find(([n]) => n.startsWith('web_link'))?.[1];
    if (h) source.set(c.column, h);
    else missing.push(c.header);
  }
  return { source, missing };
}

function selectParts(header: readonly string[], cols: readonly Col[], tableCols: readonly Col[]): { columns: string; ok: string } {
  const { source } = mapColumns(header, cols);
  const parts: string[] = [];
  const checks: string[] = [];
  for (const c of tableCols) {
    const raw = source.get(c.column);
    parts.push(`${typed(c.kind, raw)} AS ${quoteIdent(c.column)}`);
    checks.push(c.column === 'urn' ? `${typed('int', raw)} IS NOT NULL` : parses(c.kind, raw));
  }
  // a line break in any column (those the mirror does not keep too; a parse alone is not enough: DuckDB
  // reads '5\n' as 5) is a quote never closed that took in the lines after it (sync/open-quote.ts;
  // `refuseOpenQuote` in index.ts)
  checks.push(noLineBreak(header.map(quoteIdent)));
  return { columns: parts.join(', '), ok: checks.join(' AND ') };
}

/**
 * `SELECT <typed columns>, <ok> AS ok FROM read_csv(?)` of one file onto `tableCols` in order (those the
 * file's layout `cols` lacks, or the file lacks, are NULL). `ok` is false for a row to reject: no integer URN,
 * a non-blank value that does not parse as its kind, or a line break in any other column.
 */
export function fileSelect(header: readonly string[], cols: readonly Col[], tableCols: readonly Col[]): string {
  const { columns, ok } = selectParts(header, cols, tableCols);
  return `SELECT ${columns}, (${ok}) AS ok FROM ${readCsvAllText(header)}`;
}

/** The rejected rows of one file with their line number and raw text (the rare path: the file is read again). */
export function rejectSelect(header: readonly string[], cols: readonly Col[], tableCols: readonly Col[]): string {
  const { ok } = selectParts(header, cols, tableCols);
  const raw = `concat_ws(',', ${header.map((h) => `coalesce(${quoteIdent(h)}, '')`).join(', ')})`;
  return `SELECT line, raw FROM (SELECT (${ok}) AS ok, row_number() OVER () + 1 AS line, ${raw} AS raw FROM ${readCsvAllText(header)})
    WHERE NOT ok ORDER BY line LIMIT 1000`;
}

