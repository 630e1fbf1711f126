/**
 * The table format: what a person reads on a terminal, at 80 columns or more.
 *
 * - A record list prints as a table of the columns that fit the terminal, in their order; identifier
 *   columns (`id`, `*_id`, `entity`) are never dropped or wrapped, so what `... show ID` needs is always
 *   whole. The columns left out are named under the table; `--wide` shows every column (wrapped to fit),
 *   `--format json` everything.
 * - The answer's own fields beside the records (a total, a rate, the year) print under the table as a
 *   key-value list: the headline answer (income-tax total, student-loan total, employer cost).
 * - An object prints as a key-value list of its scalar fields; each list of objects inside it (NI bands,
 *   breakdowns) as its own small table headed by its path, rather than JSON in one cell.
 */
import { cell, flatten, getPath, type Row } from './records.js';
import { fitWidths, paint, table } from './render.js';
import type { RenderContext } from './types.js';

const displayWidth = (s: string): number => [...s.replace(/\u001b\[[0-9;]*m/g, '')].length;
const cellWidth = (s: string): number => Math.max(0, ...s.split('\n').map(displayWidth));

/** Columns that identify a record: kept whole whatever the width. */
export const isKeyColumn = (c: string): boolean => /^(id|entity|entity_id|company_number|registration_number)$|(^|\.)id$|_id$/.test(c);

/** A non-key column may wrap down to this width before it is dropped instead. */
const WRAP_MIN = 12;
/** Widest a non-key column grows to while other columns are still waiting for room. */
const SOFT_MAX = 32;

/** No rule between rows: records read as a list. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

export interface ColumnChoice {
  shown: string[];
  hidden: string[];
  /** Widths (with padding) for the shown columns, or undefined when they fit as they are. */
  widths?: number[];
}

/**
 * Choose the columns that fit `columns`: key columns first at their full width, then the others in
 * order, each at its natural width up to SOFT_MAX (wrapping beyond), while they fit; the rest are hidden.
 * Space left over goes back to the wrapped columns. `wide` keeps every column and narrows them to fit.
 */
export function chooseColumns(cols: readonly string[], natural: readonly number[], columns: number, wide: boolean): ColumnChoice {
  const total = (ws: number[]) => ws.reduce((a, b) => a + b, 0) + ws.length + 1;
  if (columns <= 0 || total([...natural]) <= columns) return { shown: [...cols], hidden: [] };
  if (wide) return { shown: [...cols], hidden: [], widths: fitWidths([...natural], columns) };
  const keep = new Map<number, number>();
  cols.forEach((c, i) => {
    if (isKeyColumn(c)) keep.set(i, natural[i]!);
  });
  cols.forEach((c, i) => {
    if (keep.has(i)) return;
    const w = Math.min(natural[i]!, Math.max(SOFT_MAX, displayWidth(c) + 2));
    const used = total([...keep.values()]) + w + 1;
    if (used <= columns) keep.set(i, w);
    else if (natural[i]! > WRAP_MIN && total([...keep.values()]) + WRAP_MIN + 1 <= columns) keep.set(i, Math.max(WRAP_MIN, columns - total([...keep.values()]) - 1));
  });
  const idx = [...keep.keys()].sort((a, b) => a - b);
  const widths = idx.map((i) => keep.get(i)!);
  // Give spare room back to the columns that were capped.
  let spare = columns - total(widths);
  for (let j = 0; j < idx.length && spare > 0; j++) {
    const grow = Math.min(spare, natural[idx[j]!]! - widths[j]!);
    if (grow > 0) (widths[j] = widths[j]! + grow), (spare -= grow);
  }
  return { shown: idx.map((i) => cols[i]!), hidden: cols.filter((_, i) => !keep.has(i)), widths };
}

/** A record table fitted to the terminal, with a note naming the columns left out. */
export async function recordsTable(rows: readonly Row[], rc: Pick<RenderContext, 'color' | 'columns' | 'wide'>): Promise<string> {
  const Table = await table();
  const flat = rows.map((r) => flatten(r));
  let cols: string[] = [];
  const seen = new Set<string>();
  for (const r of flat) for (const k of Object.keys(r)) if (!seen.has(k)) (seen.add(k), cols.push(k));
  // Columns empty in every row say nothing on a terminal (json and csv keep them).
  if (!rc.wide && rows.length > 1) cols = cols.filter((c) => flat.some((r) => cell(r[c]) !== ''));
  if (cols.length === 0) cols.push('value');
  const body = flat.map((r) => cols.map((c) => cell(r[c])));
  const natural = cols.map((c, i) => Math.max(displayWidth(c), ...body.map((row) => cellWidth(row[i]!))) + 2);
  const choice = chooseColumns(cols, natural, rc.columns, rc.wide);
  const index = choice.shown.map((c) => cols.indexOf(c));
  const t = new Table({
    head: choice.shown.map((c) => paint.bold(c, rc.color)),
    style: { head: [], border: [] },
    chars: COMPACT,
    wordWrap: true,
    ...(choice.widths ? { colWidths: choice.widths } : {}),
  });
  for (const row of body) t.push(index.map((i) => row[i]));
  let out = `${t.toString()}\n`;
  if (choice.hidden.length) {
    const n = choice.hidden.length;
    let note = `${n} more column${n === 1 ? '' : 's'} (--wide or --format json): ${choice.hidden.join(', ')}`;
    if (rc.columns > 0 && displayWidth(note) > rc.columns) note = `${note.slice(0, Math.max(10, rc.columns - 1))}…`;
    out += `${paint.dim(note, rc.color)}\n`;
  }
  return out;
}

/** A two-column key-value table, the value column wrapped to fit. */
export async function keyValueTable(entries: ReadonlyArray<[string, string]>, rc: Pick<RenderContext, 'color' | 'columns'>): Promise<string> {
  const Table = await table();
  const kw = Math.max(...entries.map(([k]) => displayWidth(k))) + 2;
  const vw = Math.max(...entries.map(([, v]) => cellWidth(v))) + 2;
  const fits = rc.columns <= 0 || kw + vw + 3 <= rc.columns;
  const t = new Table({
    style: { head: [], border: [] },
    wordWrap: true,
    chars: COMPACT,
    ...(fits ? {} : { colWidths: [kw, Math.max(WRAP_MIN, rc.columns - kw - 3)] }),
  });
  for (const [k, v] of entries) t.push([paint.bold(k, rc.color), v]);
  return `${t.toString()}\n`;
}

const isObjectList = (v: unknown): v is Row[] => Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x));

/** Scalar leaves of an object as key-value entries; lists of objects collected apart (path -> rows). */
function split(obj: Row, skip: string | undefined, prefix = '', scalars: Array<[string, string]> = [], lists: Array<[string, Row[]]> = []) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (key === skip || key === 'pagination') continue;
    if (isObjectList(v)) lists.push([key, v]);
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) split(v as Row, skip, key, scalars, lists);
    else scalars.push([key, cell(v)]);
  }
  return { scalars, lists };
}

/**
 * The table view of an answer's data. `records` is the record list when the answer has one (at
 * `recordPath` inside the data object, or the data itself).
 */
export async function terminalView(data: unknown, records: readonly Row[] | undefined, recordPath: string | undefined, rc: RenderContext): Promise<string> {
  const parts: string[] = [];
  if (records) parts.push(records.length ? await recordsTable(records, rc) : `${paint.dim('(no records)', rc.color)}\n`);
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const { scalars, lists } = split(data as Row, records ? recordPath : undefined);
    if (scalars.length) parts.push(await keyValueTable(scalars, rc));
    for (const [path, rows] of lists) {
      if (records && getPath(data, path) === records) continue;
      parts.push(`${paint.bold(path, rc.color)}\n${await recordsTable(rows, rc)}`);
    }
  } else if (!records) {
    parts.push(`${cell(data)}\n`);
  }
  return parts.join('');
}
