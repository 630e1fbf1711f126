/**
 * The table format: what a person reads on a terminal, at 80 columns or more.
 *
 * - A record list prints as a table of the columns that fit the terminal, in their order; identifier
 *   columns (`id`, `*_id`, `entity`) are never dropped or wrapped; one longer than KEY_MAX (a 64-character
 *   crime id) is shortened with an ellipsis when the table does not fit, and a line under the table says
 *   so (the full id in `--wide` and `--format json`). Next come the route's answer columns
 *   (RouteSpec.measures: the count, rate, price, date or label it answers with), never dropped: a long
 *   one is cut with an ellipsis. A table that does not fit heads a dotted column by its last part where
 *   that is unique (`start_date` for `latest_inspection.start_date`). The columns left out are named
 *   under the table; `--wide` shows every column, as a table when they fit the terminal, else as a
 *   record view (one `field: value` block per record, values wrapped); `--format json` everything.
 * - Every line fits the width: notes under a table wrap at word boundaries (`wrapWords`).
 * - The answer's own fields beside the records (a total, a rate, the year) print under the table as a
 *   key-value list: the headline answer (income-tax total, student-loan total, employer cost).
 * - An object prints as a key-value list of its scalar fields; each list of objects inside it (NI bands,
 *   breakdowns) as its own small table headed by its path, rather than JSON in one cell.
 */
import { cell, flatten, getPath, type Row } from './records.js';
import { fitWidths, paint, table } from './render.js';
import type { RenderContext } from './types.js';
import { displayWidth, wrapWords } from './wrap.js';

export { wrapWords } from './wrap.js';

const cellWidth = (s: string): number => Math.max(0, ...s.split('\n').map(displayWidth));

/** Columns that identify a record: kept whole whatever the width. */
export const isKeyColumn = (c: string): boolean => /^(id|entity|entity_id|company_number|registration_number)$|(^|\.)id$|_id$/.test(c);

/** Widest an identifier column is shown (ellipsis included) when the table does not fit. */
export const KEY_MAX = 14;

/** A non-key column may wrap down to this width before it is dropped instead. */
const WRAP_MIN = 12;
/** Narrowest a measure column gets (padding included) when the terminal has no more room. */
const MEASURE_MIN = 5;
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
 * Choose the columns that fit `columns`: key columns first at their full width, then the route's measure
 * columns (`measures`, never dropped: cut to what room is left), then the others in order, each at its
 * natural width up to SOFT_MAX (wrapping beyond), while they fit; the rest are hidden. Space left over
 * goes back to the capped columns. `wide` keeps every column and narrows them to fit.
 */
export function chooseColumns(cols: readonly string[], natural: readonly number[], columns: number, wide: boolean, measures: readonly string[] = []): ColumnChoice {
  const total = (ws: number[]) => ws.reduce((a, b) => a + b, 0) + ws.length + 1;
  if (columns <= 0 || total([...natural]) <= columns) return { shown: [...cols], hidden: [] };
  if (wide) return { shown: [...cols], hidden: [], widths: fitWidths([...natural], columns) };
  const keep = new Map<number, number>();
  const capped = (i: number) => Math.min(natural[i]!, Math.max(SOFT_MAX, displayWidth(cols[i]!) + 2));
  // Identifiers whole, unless that leaves the answer columns less than their header's width: then a long
  // one (a 64-character crime id) is shortened to KEY_MAX (its cells cut, said under the table).
  const keys = cols.map((_, i) => i).filter((i) => isKeyColumn(cols[i]!));
  const headerMin = (j: number) => Math.min(natural[j]!, displayWidth(cols[j]!) + 2);
  const answerMin = cols.reduce((a, c, j) => a + (!isKeyColumn(c) && measures.includes(c) ? headerMin(j) + 1 : 0), 0);
  const shorten = total(keys.map((i) => natural[i]!)) + answerMin > columns;
  for (const i of keys) keep.set(i, shorten ? Math.min(natural[i]!, KEY_MAX + 2) : natural[i]!);
  const isMeasure = (i: number) => !keep.has(i) && measures.includes(cols[i]!);
  // Measures: room is shared out in turn, each at most its capped width, leaving the later ones their
  // header's width; on a terminal too narrow even for that, a measure keeps MEASURE_MIN (header cut).
  const mIdx = cols.map((_, i) => i).filter(isMeasure);
  mIdx.forEach((i, n) => {
    const left = columns - total([...keep.values()]) - (mIdx.length - n); // one border each still to place
    const restMin = mIdx.slice(n + 1).reduce((a, j) => a + Math.min(natural[j]!, displayWidth(cols[j]!) + 2), 0);
    keep.set(i, Math.max(Math.min(natural[i]!, MEASURE_MIN), Math.min(capped(i), left - restMin)));
  });
  cols.forEach((c, i) => {
    if (keep.has(i)) return;
    const w = capped(i);
    const used = total([...keep.values()]) + w + 1;
    if (used <= columns) keep.set(i, w);
    else if (natural[i]! > WRAP_MIN && total([...keep.values()]) + WRAP_MIN + 1 <= columns) keep.set(i, Math.max(WRAP_MIN, columns - total([...keep.values()]) - 1));
  });
  const idx = [...keep.keys()].sort((a, b) => a - b);
  const widths = idx.map((i) => keep.get(i)!);
  // Give spare room back to the columns that were capped: measures first.
  let spare = columns - total(widths);
  const measureFirst = (j: number) => (measures.includes(cols[idx[j]!]!) ? 0 : 1);
  const order = [...idx.keys()].sort((a, b) => measureFirst(a) - measureFirst(b));
  for (const j of order) {
    if (spare <= 0) break;
    const grow = Math.min(spare, natural[idx[j]!]! - widths[j]!);
    if (grow > 0) (widths[j] = widths[j]! + grow), (spare -= grow);
  }
  return { shown: idx.map((i) => cols[i]!), hidden: cols.filter((_, i) => !keep.has(i)), widths };
}

/** Cut a one-line cell to `width` display characters, ending with an ellipsis when cut. */
const cut = (s: string, width: number): string => {
  const chars = [...s.replace(/\n/g, ' ')];
  return chars.length <= width ? chars.join('') : `${chars.slice(0, Math.max(1, width - 1)).join('')}…`;
};

/** Wrap one value to `width` characters a line (by characters: a record view never overflows). */
function wrapValue(v: string, width: number): string[] {
  const out: string[] = [];
  for (const line of v.split('\n')) {
    const chars = [...line];
    if (chars.length === 0) out.push('');
    for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
  }
  return out;
}

/**
 * The record view (`--wide` when the columns do not fit): one block of `field: value` lines a record,
 * values wrapped under themselves, a blank line between records.
 */
export function recordView(cols: readonly string[], body: readonly string[][], rc: Pick<RenderContext, 'color' | 'columns'>): string {
  const kw = Math.max(...cols.map(displayWidth));
  const vw = Math.max(8, rc.columns - kw - 2);
  const blocks = body.map((row) =>
    cols
      .map((c, i) => {
        const label = paint.bold(`${c}:`, rc.color) + ' '.repeat(kw - displayWidth(c) + 1);
        // a one-line value too long beside its label but not for a line of its own (a 64-character id): under it, whole
        const v = row[i]!;
        if (!v.includes('\n') && displayWidth(v) > vw && displayWidth(v) <= rc.columns - 2) return `${label.trimEnd()}\n  ${v}`;
        const [first = '', ...rest] = wrapValue(v, vw);
        return [`${label}${first}`, ...rest.map((l) => `${' '.repeat(kw + 2)}${l}`)].join('\n');
      })
      .join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
}

/** Rows drawn by one cli-table3 table (more are drawn in chunks of this many). */
const TABLE_CHUNK = 10_000;

/** Text cli-table3 and displayWidth measure alike: printable ASCII, Latin-1 (no soft hyphen), the ellipsis of a cut. */
const PLAIN = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u00ff\u2026]*$/;

/**
 * The body lines of a compact table (`│ cell │ cell │`, each cell padded to its column's width less the
 * padding), as cli-table3 draws them, when every cell of the shown columns is one line of PLAIN text that
 * fits its column; else undefined (cli-table3 wraps). cli-table3 takes ~45 µs a row (a 300,000-row `sql` to
 * a table: 14 s); this, about one.
 */
function plainRows(body: readonly (readonly string[])[], index: readonly number[], widths: readonly number[]): string[] | undefined {
  const out: string[] = new Array(body.length);
  for (let r = 0; r < body.length; r++) {
    const row = body[r]!;
    let line = '│';
    for (let j = 0; j < index.length; j++) {
      const v = row[index[j]!]!;
      const room = widths[j]! - 2;
      if (v.length > room || !PLAIN.test(v)) return undefined;
      line += ` ${v}${' '.repeat(room - v.length)} │`;
    }
    out[r] = line;
  }
  return out;
}

type TableContext = Pick<RenderContext, 'color' | 'columns' | 'wide'> & { measures?: readonly string[] };

/** A record table fitted to the terminal, with a note naming the columns left out. */
export async function recordsTable(rows: readonly Row[], rc: TableContext): Promise<string> {
  const Table = await table();
  const flat = rows.map((r) => flatten(r));
  let cols: string[] = [];
  const seen = new Set<string>();
  for (const r of flat) for (const k of Object.keys(r)) if (!seen.has(k)) (seen.add(k), cols.push(k));
  // Columns empty in every row say nothing on a terminal (json and csv keep them).
  if (!rc.wide && rows.length > 1) cols = cols.filter((c) => flat.some((r) => cell(r[c]) !== ''));
  if (cols.length === 0) cols.push('value');
  let body = flat.map((r) => cols.map((c) => cell(r[c])));
  // a loop, not Math.max(...cells): spreading 300,000 cells overflows the call stack (sql to a table)
  const widthOf = (heads: readonly string[]) => heads.map((c, i) => body.reduce((w, row) => Math.max(w, cellWidth(row[i]!)), displayWidth(c)) + 2);
  const sum = (ws: readonly number[]) => ws.reduce((a, b) => a + b, 0) + ws.length + 1;
  let labels = cols;
  let natural = widthOf(labels);
  const fullWidth = sum(natural);
  if (rc.wide && rc.columns > 0 && fullWidth > rc.columns) return recordView(cols, body, rc);
  if (!rc.wide && rc.columns > 0 && fullWidth > rc.columns) {
    // Too wide: a dotted column headed by its last part where no other column ends the same way.
    const last = (c: string) => c.slice(c.lastIndexOf('.') + 1);
    labels = cols.map((c) => (cols.filter((o) => last(o) === last(c)).length === 1 ? last(c) : c));
    natural = widthOf(labels);
  }
  const choice = chooseColumns(cols, natural, rc.columns, rc.wide, rc.measures ?? []);
  const index = choice.shown.map((c) => cols.indexOf(c));
  // A measure narrower than its values is cut with an ellipsis (one line a record), never dropped; so is
  // a long identifier (said under the table).
  const cutAt = new Map<number, number>();
  const shortened: string[] = [];
  choice.shown.forEach((c, j) => {
    const w = choice.widths?.[j];
    if (w === undefined || w >= natural[index[j]!]!) return;
    if (isKeyColumn(c)) (cutAt.set(index[j]!, w - 2), shortened.push(c));
    else if (rc.measures?.includes(c)) cutAt.set(index[j]!, w - 2);
  });
  if (cutAt.size) body = body.map((row) => row.map((v, i) => (cutAt.has(i) ? cut(v, cutAt.get(i)!) : v)));
  const head = index.map((i) => paint.bold(labels[i]!, rc.color));
  const draw = (rows: readonly (readonly string[])[], withHead: boolean, colWidths?: number[]): string => {
    const t = new Table({
      ...(withHead ? { head } : {}),
      style: { head: [], border: [] },
      chars: COMPACT,
      wordWrap: true,
      ...(colWidths ? { colWidths } : {}),
    });
    for (const row of rows) t.push(index.map((i) => row[i]));
    return t.toString();
  };
  let out: string;
  const fixed = choice.widths ?? index.map((i) => natural[i]!);
  const fast = plainRows(body, index, fixed);
  if (fast) {
    // every cell one line that fits its column: cli-table3 draws the frame (top border, head, bottom
    // border), the rows are written here, as it writes them
    const frame = draw([], true, fixed).split('\n');
    out = `${[...frame.slice(0, -1), ...fast, frame.at(-1)!].join('\n')}\n`;
  } else if (body.length <= TABLE_CHUNK) out = `${draw(body, true, choice.widths)}\n`;
  else {
    // cli-table3 overflows the call stack past about 100,000 rows (`sql` of a big result to a table): drawn
    // in chunks at the same column widths, each chunk's inner borders dropped, so the lines are the same
    const widths = choice.widths ?? index.map((i) => natural[i]!);
    const parts: string[] = [];
    for (let at = 0; at < body.length; at += TABLE_CHUNK) {
      const lines = draw(body.slice(at, at + TABLE_CHUNK), at === 0, widths).split('\n');
      const last = at + TABLE_CHUNK >= body.length;
      parts.push(lines.slice(at === 0 ? 0 : 1, last ? lines.length : -1).join('\n'));
    }
    out = `${parts.join('\n')}\n`;
  }
  const notes: string[] = [];
  if (shortened.length) notes.push(`${shortened.join(', ')} shortened (--wide or --format json for the full value)`);
  if (choice.hidden.length) {
    const n = choice.hidden.length;
    notes.push(`${n} more column${n === 1 ? '' : 's'} (--wide or --format json): ${choice.hidden.join(', ')}`);
  }
  for (const note of notes) out += `${paint.dim(rc.columns > 0 ? wrapWords(note, rc.columns, '  ') : note, rc.color)}\n`;
  return out;
}

/** A two-column key-value table, the value column wrapped to fit. */
export async function keyValueTable(entries: ReadonlyArray<[string, string]>, rc: Pick<RenderContext, 'color' | 'columns'>): Promise<string> {
  const Table = await table();
  const kw = Math.max(...entries.map(([k]) => displayWidth(k))) + 2;
  const vw = Math.max(...entries.map(([, v]) => cellWidth(v))) + 2;
  const fits = rc.columns <= 0 || kw + vw + 3 <= rc.columns;
  // Not fitting: the key column takes at most 40% of the width (a long dotted key breaks after a dot),
  // the value column the rest, so the table is never wider than the terminal.
  const keyW = fits ? kw : Math.max(WRAP_MIN, Math.min(kw, Math.min(vw, Math.floor(rc.columns * 0.4))));
  const valW = Math.max(WRAP_MIN, rc.columns - keyW - 3);
  const t = new Table({
    style: { head: [], border: [] },
    wordWrap: true,
    chars: COMPACT,
    ...(fits ? {} : { colWidths: [keyW, valW] }),
  });
  for (const [k, v] of entries) t.push([paint.bold(fits ? k : wrapWords(k.replace(/\./g, '. '), keyW - 2).replace(/\. /g, '.'), rc.color), v]);
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
export async function terminalView(
  data: unknown,
  records: readonly Row[] | undefined,
  recordPath: string | undefined,
  rc: RenderContext,
  measures?: readonly string[],
): Promise<string> {
  const parts: string[] = [];
  const inObject = data !== null && typeof data === 'object' && !Array.isArray(data);
  if (records?.length) parts.push(await recordsTable(records, measures ? { ...rc, measures } : rc));
  // no records: said first for a list answer; after the details for a record holding its list (crime outcomes)
  const none = records && !records.length ? `${paint.dim(`(no ${inObject && recordPath ? recordPath.split('.').pop()!.replace(/_/g, ' ') : 'records'})`, rc.color)}\n` : undefined;
  if (none && !inObject) parts.push(none);
  if (inObject) {
    const { scalars, lists } = split(data as Row, records ? recordPath : undefined);
    if (scalars.length) parts.push(await keyValueTable(scalars, rc));
    for (const [path, rows] of lists) {
      if (records && getPath(data, path) === records) continue;
      parts.push(`${paint.bold(path, rc.color)}\n${await recordsTable(rows, rc)}`);
    }
    if (none) parts.push(none);
  } else if (!records) {
    parts.push(`${cell(data)}\n`);
  }
  return parts.join('');
}
