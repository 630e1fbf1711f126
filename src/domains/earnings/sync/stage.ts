/**
 * A parsed table file as staging CSV: the `earnings` table's columns in order, one line per row, built on
 * the worker that parsed the workbook. The load writes each file's CSV to a staging folder and inserts them
 * all with one DuckDB read_csv (STAGE_CSV_OPTIONS) rather than appending row by row on the main thread
 * (the appender's per-value calls and flushes were a third of a sync's main-thread time).
 * Encoding: strings double-quoted ("" for a quote), NULL as \N unquoted, numbers as JavaScript prints them
 * (the shortest text that reads back to the same double).
 */
import { socVersion } from '../codes.js';
import type { Status } from './discover.js';
import { VALUE_FIELDS, type AsheFile } from './sheet.js';

/** A table file's staged rows with everything else the load needs about it. */
export interface StagedFile extends Omit<AsheFile, 'rows'> {
  rowCount: number;
  csv: string;
}

const NULL = '\\N';
const q = (s: string) => (s.includes('"') ? `"${s.replace(/"/g, '""')}"` : `"${s}"`);

/** The file's rows as CSV lines, in the column order of EARNINGS_DDL (sync/index.ts). */
export function stageFile(f: AsheFile, status: Status, source: string): StagedFile {
  const fixed = [q(f.table.family), q(f.table.table), String(f.year), f.table.basis ? q(f.table.basis) : NULL].join(',');
  const tail = `${q(status)}`;
  const soc = f.table.family === 'occupation' ? q(socVersion(f.year)) : NULL;
  const src = q(source);
  const lines: string[] = [];
  for (const r of f.rows) {
    let values = '';
    for (const k of VALUE_FIELDS) {
      const v = r.values[k];
      values += v === null ? `,${NULL}` : `,${v}`;
    }
    const markers = r.suppressed.length === 0 && Object.keys(r.markers).length === 0 ? '"{}"' : q(JSON.stringify(r.markers));
    lines.push(
      `${fixed},${q(r.population)},${q(f.measure)},${q(r.code)},${q(r.name)},${q(r.level)},${r.seq}${values},${tail},${q(r.suppressed.join(','))},${markers},${soc},${src}\n`,
    );
  }
  const { rows, ...rest } = f;
  return { ...rest, rowCount: rows.length, csv: lines.join('') };
}

/** read_csv options matching stageFile's encoding (the column types are the table's: see index.ts). */
export const STAGE_CSV_OPTIONS = `header = false, delim = ',', quote = '"', escape = '"', nullstr = '\\N', allow_quoted_nulls = false, auto_detect = false`;
