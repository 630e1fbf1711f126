/**
 * INVENTED upstream files of the example datasets (dataset.ts), in their format (test/fixtures/example/
 * README.md), and a plain reader of them for the tests' expected values (a line split, not the sync
 * module). test/fixtures/example/records-complete.csv and records-update.csv were written by
 * `recordsCsv(1, 300)` and `UPDATE_LINES`; big files are made here when a test needs one.
 */
const COLOURS = ['red', 'green', 'blue'] as const;
export const HEADER = 'id,colour,count,recorded_on,title';

/** Record i: colour COLOURS[i % 3], count (i * 37) % 1000, day 2023-01-01 plus 2i days, a title (commas and quotes on some). */
export function recordLine(i: number): string {
  const day = new Date(Date.UTC(2023, 0, 1) + 2 * i * 86_400_000).toISOString().slice(0, 10);
  const title = i % 11 === 0 ? `"Record ${i}, the ""eleventh"""` : i % 7 === 0 ? `"Record ${i}, a seventh"` : `Record ${i}`;
  return `${i},${COLOURS[i % 3]},${(i * 37) % 1000},${day},${title}`;
}

/** The records with ids from..to, header first, LF line ends. */
export function recordsCsv(from: number, to: number): string {
  const out = [HEADER];
  for (let i = from; i <= to; i++) out.push(recordLine(i));
  return `${out.join('\n')}\n`;
}

/** `n` records with ids from 1,000,001 (a file that takes a while to load), as one buffer. */
export function bigRecords(n: number): Buffer {
  const parts: string[] = [HEADER];
  for (let i = 1_000_001; i <= 1_000_000 + n; i++) parts.push(recordLine(i));
  return Buffer.from(`${parts.join('\n')}\n`);
}

/** The update file of the fixtures: 301 and 302 added, 5 changed, 10 deleted (net one more). */
export const UPDATE_LINES = [
  'change,id,colour,count,recorded_on,title',
  'A,301,red,5,2024-08-20,Record 301 added',
  'A,302,blue,6,2024-08-21,Record 302 added',
  'C,5,green,999,2023-01-11,Record 5 changed',
  'D,10,,,,',
];

export interface RecordRow { id: number; colour: string; count: number; recorded_on: string; title: string }

/** Split one CSV line (double-quoted fields with "" escapes). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (q && c === '"' && line[k + 1] === '"') (cur += '"'), k++;
    else if (c === '"') q = !q;
    else if (c === ',' && !q) out.push(cur), (cur = '');
    else cur += c;
  }
  out.push(cur);
  return out;
}

/** The rows of a records file (full format), read with a line split. */
export function readRecords(text: string): RecordRow[] {
  return text.trimEnd().split('\n').slice(1).map((l) => {
    const [id, colour, count, recorded_on, title] = fields(l.replace(/\r$/, ''));
    return { id: Number(id), colour: colour!, count: Number(count), recorded_on: recorded_on!, title: title! };
  });
}

/** Rows after an update file's changes (A/C replace the row of that id, D removes it). */
export function applyRecordsUpdate(rows: readonly RecordRow[], update: string): RecordRow[] {
  const by = new Map(rows.map((r) => [r.id, r]));
  for (const l of update.trimEnd().split('\n').slice(1)) {
    const [change, id, colour, count, recorded_on, title] = fields(l);
    by.delete(Number(id));
    if (change !== 'D') by.set(Number(id), { id: Number(id), colour: colour!, count: Number(count), recorded_on: recorded_on!, title: title! });
  }
  return [...by.values()];
}
