/**
 * Checks that a sync can prove what it loaded (docs/mirror.md "What a sync verifies"):
 *  - `incompleteReason`: a file that ends early. A server that sends no Content-Length (HTTP/1.0, a
 *    close-delimited body) ends the body by closing the connection, so a dropped connection looks like the
 *    end of the file. Checked from the file itself: a zip (and xlsx/ods, which are zips) must end with its
 *    end-of-central-directory record; a CSV's last line must be whole (a line end, or the first line's
 *    number of fields with every quote closed); a JSON file must parse.
 *  - `damagedReason`: a mirror file DuckDB cannot read whole (a checksum mismatch, a file cut short): every
 *    block of every table is read once.
 *  - `shrinkReason`: a full load of the same files as the previous full load with far fewer rows.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadDuckDB, query, quoteIdent } from '../src/mirror/db.js';
import { countEntries, isZipFile } from './formats/zip.js';

/** Share of rows a full reload of the same file(s) may lose against the previous load (default). */
export const DEFAULT_MAX_SHRINK = 0.1;

const ZIP_NAMES = /\.(zip|xlsx|ods|docx)$/i;
const CSV_NAMES = /\.(csv|txt|tsv)$/i;

function readAt(path: string, position: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(length);
    const n = readSync(fd, b, 0, length, position);
    return b.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Fields of one CSV line, quote-aware; `open` when a quoted field is not closed by the end of the line. */
export function csvFields(line: string, delim: string): { fields: number; open: boolean } {
  let fields = 1;
  let inQuote = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      if (inQuote && line[i + 1] === '"') i++;
      else inQuote = !inQuote;
    } else if (c === delim && !inQuote) fields++;
  }
  return { fields, open: inQuote };
}

/** The delimiter of a CSV from its first line: the most frequent of , | tab ; outside quotes. */
function delimiterOf(first: string): string {
  let best = ',';
  let most = -1;
  for (const d of [',', '|', '\t', ';']) {
    const n = csvFields(first, d).fields;
    if (n > most) {
      most = n;
      best = d;
    }
  }
  return best;
}

/** Why the CSV at `path` looks cut short, or undefined when its last line is whole. */
export function csvIncomplete(path: string): string | undefined {
  const size = statSync(path).size;
  if (size === 0) return 'the file is empty';
  const tail = readAt(path, Math.max(0, size - 65536), Math.min(size, 65536)).toString('latin1');
  if (tail.endsWith('\n')) return undefined;
  const head = readAt(path, 0, Math.min(size, 65536)).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  const first = head.split(/\r?\n/)[0] ?? '';
  const last = tail.slice(tail.lastIndexOf('\n') + 1);
  if (last === first) return undefined; // a one-line file
  const delim = delimiterOf(first);
  const want = csvFields(first, delim).fields;
  const got = csvFields(last, delim);
  if (got.open) return `its last line ends inside a quoted field (${JSON.stringify(last.slice(-40))})`;
  if (got.fields !== want) return `its last line has ${got.fields} fields, the first has ${want} (${JSON.stringify(last.slice(-40))})`;
  return undefined;
}

/** Why the zip at `path` looks cut short (no end-of-central-directory record, a directory past the end). */
export async function zipIncomplete(path: string): Promise<string | undefined> {
  if (statSync(path).size === 0) return 'the file is empty';
  // not a zip at all (an HTML error page, another format): the module's reader says what it is
  if (!isZipFile(path)) return undefined;
  try {
    await countEntries(path);
    return undefined;
  } catch (e) {
    return `its zip central directory cannot be read: ${(e as Error).message}`;
  }
}

/**
 * Why a file named as a CSV is not CSV text at all, or undefined: UTF-16 (a byte-order mark, or a NUL
 * byte beside most characters: Excel's "Unicode Text"), an Excel workbook renamed (.xls: the OLE2
 * signature; .xlsx: a zip), or other binary data (NUL bytes). Said before any completeness check, which
 * would call such a file "incomplete".
 */
export function notCsvReason(path: string, name: string): string | undefined {
  if (!CSV_NAMES.test(name)) return undefined;
  const size = statSync(path).size;
  if (size === 0) return undefined;
  const head = readAt(path, 0, Math.min(size, 4096));
  const fix = `save it as "CSV UTF-8" (or get the publisher's CSV) and give that file`;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return `it is UTF-16 text, not a CSV in UTF-8 or Latin-1: ${fix}`;
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return `it is an Excel .xls workbook named as a CSV: ${fix}`;
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return `it is a zip file (an .xlsx workbook?) named as a CSV: ${fix}`;
  const nuls = head.reduce((n, b) => n + (b === 0 ? 1 : 0), 0);
  if (nuls > head.length / 4) return `it is UTF-16 text (every other byte is NUL), not a CSV in UTF-8 or Latin-1: ${fix}`;
  if (nuls > 0) return `it holds binary data (NUL bytes in its first ${head.length} bytes), not CSV text`;
  return undefined;
}

/**
 * Why the downloaded or given file looks incomplete, or undefined when it looks whole (or is of a kind we
 * cannot check: xls, XML, gzip members are checked when read). By name, then by content for zips.
 */
export async function incompleteReason(path: string, name: string): Promise<string | undefined> {
  if (ZIP_NAMES.test(name) || (statSync(path).size >= 4 && isZipFile(path))) return zipIncomplete(path);
  // not CSV text at all: whole as far as we can tell; the caller says what it is (notCsvReason)
  if (CSV_NAMES.test(name)) return notCsvReason(path, name) ? undefined : csvIncomplete(path);
  if (/\.json$/i.test(name)) {
    const fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    closeSync(fd);
    if (size > 64 * 1024 * 1024) return undefined;
    try {
      JSON.parse(readFileSync(path, 'utf8'));
      return undefined;
    } catch (e) {
      return `it is not complete JSON (${(e as Error).message})`;
    }
  }
  return undefined;
}

/**
 * Read every block of every table of a mirror file (DuckDB checks each block's checksum as it reads it).
 * Undefined when the whole file reads; else what DuckDB said. `tables` limits the scan (default: all).
 */
export async function damagedReason(path: string): Promise<string | undefined> {
  const duck = await loadDuckDB();
  let inst;
  try {
    inst = await duck.DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const conn = await inst.connect();
    try {
      await scanAll(conn);
    } finally {
      conn.closeSync();
    }
    return undefined;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  } finally {
    inst?.closeSync();
  }
}

/** Hash every column of every base table: each block is read (and its checksum checked) once. */
export async function scanAll(conn: DuckDBConnection): Promise<void> {
  const tables = await query<{ t: string }>(conn, 'SELECT table_name AS t FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary');
  for (const { t } of tables) await conn.run(`SELECT bit_xor(hash(COLUMNS(*))) FROM ${quoteIdent(t)}`);
}

/**
 * A full load of the same file names as the last full load that holds more than `maxShrink` fewer rows
 * than the mirror did: what a cut-short download whose cut fell on a line end looks like.
 */
export function shrinkReason(o: { rows: number; previousRows: number | null | undefined; sameFiles: boolean; maxShrink: number }): string | undefined {
  if (!o.sameFiles || !o.previousRows || o.rows >= o.previousRows * (1 - o.maxShrink)) return undefined;
  const pct = ((1 - o.rows / o.previousRows) * 100).toFixed(1);
  return `the new load has ${o.rows} rows, ${pct}% fewer than the ${o.previousRows} of the previous load of the same file(s) (more than the ${(o.maxShrink * 100).toFixed(0)}% allowed)`;
}

/**
 * Rows a unit may always lose: a small unit losing one or two rows (an authority of 7 establishments, one
 * closed) is ordinary, though it is more than 10%; emptied, a unit always counts as shrunk.
 */
export const UNIT_SHRINK_SLACK = 2;

/** Whether a unit of `before` rows holding `after` has shrunk beyond `maxShrink` (and the slack), or was emptied. */
export function unitShrunk(before: number, after: number, maxShrink: number): boolean {
  if (before > 0 && after === 0) return true;
  return before - after > Math.max(Math.floor(before * maxShrink), UNIT_SHRINK_SLACK);
}

/** A unit that would lose more than the allowed share of its rows. */
export interface UnitShrink {
  unit: string;
  file: string;
  before: number;
  after: number;
}

/**
 * The units a load replaced (`replaced`) that hold more than `maxShrink` fewer rows in the new file (`conn`)
 * than in the live file at `previousPath`: a short but well-formed file (a CSV cut at a line end, a header
 * alone, a register of a newer date with 3 of 7 schools) replacing its unit. Units the live file did not
 * hold are new, not shrunk. An older live file without the tables gives none (nothing to compare).
 */
export async function unitShrinks(
  conn: DuckDBConnection, previousPath: string, units: { counts(db: string): string },
  replaced: ReadonlyArray<{ unit: string; file: string }>, maxShrink: number,
): Promise<UnitShrink[]> {
  if (!replaced.length) return [];
  await conn.run(`ATTACH '${previousPath.replace(/'/g, "''")}' AS shrink_prev (READ_ONLY)`);
  try {
    let before: Array<{ unit: string; n: number }>;
    try {
      before = await query<{ unit: string; n: number }>(conn, units.counts('shrink_prev.'));
    } catch {
      return [];
    }
    const held = new Map(before.map((r) => [String(r.unit), Number(r.n)]));
    const wanted = replaced.filter((r) => (held.get(r.unit) ?? 0) > 0);
    if (!wanted.length) return [];
    const now = new Map((await query<{ unit: string; n: number }>(conn, units.counts(''))).map((r) => [String(r.unit), Number(r.n)]));
    const out: UnitShrink[] = [];
    const seen = new Set<string>();
    for (const r of wanted) {
      if (seen.has(r.unit)) continue;
      seen.add(r.unit);
      const b = held.get(r.unit)!;
      const a = now.get(r.unit) ?? 0;
      if (unitShrunk(b, a, maxShrink)) out.push({ unit: r.unit, file: r.file, before: b, after: a });
    }
    return out;
  } finally {
    await conn.run('DETACH shrink_prev');
  }
}

/** The words of unit shrinks: which file, which unit, from how many rows to how many. */
export function unitShrinkMessage(what: string, shrinks: readonly UnitShrink[], maxShrink: number): string {
  const one = (s: UnitShrink) =>
    `${s.file}: ${what} ${s.unit} would go from ${s.before} rows to ${s.after} (${((1 - s.after / s.before) * 100).toFixed(1)}% fewer)`;
  const shown = shrinks.slice(0, 5).map(one).join('; ');
  const more = shrinks.length > 5 ? `; and ${shrinks.length - 5} more ${what}s` : '';
  return `${shown}${more}: more than the ${(maxShrink * 100).toFixed(0)}% (or ${UNIT_SHRINK_SLACK} rows) one ${what} may lose, so the file looks cut short or empty`;
}

/**
 * The whole-table shrink error with its advice: when the load rejected files whole, they are the cause to
 * fix and are named (--allow-shrink would delete what they held); otherwise --allow-shrink for a real removal.
 */
export function shrinkAdvice(reason: string, badFiles: readonly string[]): string {
  if (!badFiles.length) return `${reason}; if the publisher really removed them, run again with --allow-shrink`;
  const shown = `${badFiles.slice(0, 5).join(', ')}${badFiles.length > 5 ? ', …' : ''}`;
  return `${reason}; ${badFiles.length} file(s) were rejected: ${shown}: give them whole again (or leave them out): --allow-shrink would delete what they held`;
}
