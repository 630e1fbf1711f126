/**
 * One ONS ASHE table file (.xls BIFF8 or .xlsx, read with SheetJS, @e965/xlsx) into flat rows.
 *
 * Layout (the real Home Geography Table 8.7a, 2020, in test/fixtures/earnings/): row 1 a title naming the
 * table, sub-table, measure and year ("Table 8.7a   Annual pay - Gross (£) - For all employee jobsa: United
 * Kingdom, 2020"); a three-row header whose last row reads Description, Code, (thousand), Median, change,
 * Mean, change, 10 ... 90; then one row per area, industry or occupation, local authorities indented with
 * leading spaces; a code-less "Not Classified" row; footnotes. One sheet per population (sex x working
 * pattern) plus "Notes". The header is found by its labels (not by row number) and each column by the
 * words of its three header cells, so a moved or added column is read right or refused, never misread.
 * Cells: numbers as published; the key's markers (x, .., :, -) become null and are named per field.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { checkWorkbookMembers } from '../../../../sync/formats/bounds.js';
import { levelOf, markerOf, measureOfSub, populationOfSheet, tableInfo, type AsheTable } from '../codes.js';
import type { Measure, Population } from '../routes.js';

export const PERCENTILES = [10, 20, 25, 30, 40, 60, 70, 75, 80, 90] as const;
/** Value fields of a row, in the order of the table's columns. */
export const VALUE_FIELDS = [
  'jobs_thousands', 'median', 'median_change', 'mean', 'mean_change', ...PERCENTILES.map((p) => `p${p}` as const),
] as const;
export type ValueField = (typeof VALUE_FIELDS)[number];

export interface AsheRow {
  population: Population;
  /** 1-based row number in the sheet. */
  line: number;
  /** Order within the sheet (ONS's order: UK, countries, regions, then areas within each). */
  seq: number;
  code: string;
  name: string;
  level: string;
  values: Record<ValueField, number | null>;
  /** Fields ONS suppressed (markers x and ..). */
  suppressed: ValueField[];
  /** Field -> marker for every null that a marker explains (suppressed or not). */
  markers: Partial<Record<ValueField, string>>;
}

export interface AsheReject {
  sheet: string;
  line: number;
  raw: string;
  reason: string;
}

export interface AsheFile {
  table: AsheTable;
  measure: Measure;
  year: number;
  rows: AsheRow[];
  rejects: AsheReject[];
  /** Rows without a code (Not Classified, All employees): not records; counted for the sync's message. */
  uncoded: number;
  sheets: string[];
}

const TITLE_RE = /Table\s+(\d{1,2})\.(\d{1,2})a\b/i;

/** Table, sub-table and year from the title cell, else from the file name ("... Table 8.7a ... 2020.xls"). */
function identify(title: string, fileName: string): { table: AsheTable; measure: Measure; year: number } {
  const m = TITLE_RE.exec(title) ?? TITLE_RE.exec(fileName);
  if (!m) throw new Error(`${fileName}: no 'Table N.Na' in the title or the file name; not an ASHE estimates table`);
  const table = tableInfo(m[1]!);
  if (!table) throw new Error(`${fileName}: ASHE Table ${m[1]} is not one this dataset loads (4, 7, 8, 14)`);
  const measure = measureOfSub(m[2]!);
  if (!measure) throw new Error(`${fileName}: ASHE sub-table ${m[1]}.${m[2]}a is not a loaded measure (x.1a, x.5a, x.7a)`);
  const years = [...title.matchAll(/\b((?:19|20)\d{2})\b/g)].map((y) => Number(y[1]));
  const fromName = [...fileName.matchAll(/\b((?:19|20)\d{2})\b/g)].map((y) => Number(y[1]));
  const year = years.at(-1) ?? fromName.at(-1);
  if (year === undefined) throw new Error(`${fileName}: no year in the title or the file name`);
  if (fromName.length && years.length && fromName.at(-1) !== year) {
    throw new Error(`${fileName}: the title says ${year}, the file name ${fromName.at(-1)}`);
  }
  return { table, measure, year };
}

type Cell = string | number | boolean | null;

/** The column of each field, from the three header rows (labels joined per column). */
function mapColumns(rows: Cell[][], h: number, where: string): { name: number; code: number; cols: Array<[ValueField, number]> } {
  const width = Math.max(...rows.slice(Math.max(0, h - 2), h + 1).map((r) => r.length));
  const label = (c: number) =>
    [h - 2, h - 1, h].filter((r) => r >= 0).map((r) => String(rows[r]?.[c] ?? '')).join(' ').replace(/\s+/g, ' ').trim().toLowerCase();
  let name = -1;
  let code = -1;
  const cols: Array<[ValueField, number]> = [];
  let last: 'median' | 'mean' | undefined;
  for (let c = 0; c < width; c++) {
    const l = label(c);
    const last5 = String(rows[h]?.[c] ?? '').trim();
    if (l === '') continue;
    if (name < 0 && /\bdescription\b/.test(l)) name = c;
    else if (code < 0 && /\bcode\b/.test(l)) code = c;
    else if (/\bjobs|\(thousand\)/.test(l)) cols.push(['jobs_thousands', c]);
    else if (/\bmedian\b/.test(l)) (cols.push(['median', c]), (last = 'median'));
    else if (/\bmean\b/.test(l)) (cols.push(['mean', c]), (last = 'mean'));
    else if (/\bchange\b/.test(l) && last) cols.push([`${last}_change`, c]);
    else if (/^\d{2}$/.test(last5) && (PERCENTILES as readonly number[]).includes(Number(last5))) cols.push([`p${last5}` as ValueField, c]);
  }
  const missing = VALUE_FIELDS.filter((f) => !f.endsWith('_change') && !cols.some(([g]) => g === f));
  if (name < 0 || code < 0 || missing.length) {
    throw new Error(`${where}: header lacks ${[name < 0 ? 'Description' : '', code < 0 ? 'Code' : '', ...missing].filter(Boolean).join(', ')}`);
  }
  return { name, code, cols };
}

/** The header's last row: the first row (of the first 20) with both a 'Description' and a 'Code' cell. */
function findHeader(rows: Cell[][]): number {
  for (let r = 0; r < Math.min(rows.length, 20); r++) {
    const cells = (rows[r] ?? []).map((v) => String(v ?? '').trim().toLowerCase());
    if (cells.includes('description') && cells.includes('code')) return r;
  }
  return -1;
}

type Parsed = { ok: true; value: number | null; marker?: string; suppressed?: boolean } | { ok: false };

function cellValue(v: Cell): Parsed {
  if (v === null || v === undefined) return { ok: true, value: null };
  if (typeof v === 'number') return Number.isFinite(v) ? { ok: true, value: v } : { ok: false };
  if (typeof v === 'boolean') return { ok: false };
  const t = v.trim();
  if (t === '') return { ok: true, value: null };
  const m = markerOf(t);
  if (m) return { ok: true, value: null, marker: m.marker, suppressed: m.suppressed };
  const n = t.replace(/,/g, '');
  return /^-?(\d+\.?\d*|\.\d+)$/.test(n) ? { ok: true, value: Number(n) } : { ok: false };
}

const sheetRows = (ws: XLSX.WorkSheet) => XLSX.utils.sheet_to_json<Cell[]>(ws, { header: 1, raw: true, defval: null, blankrows: true });

function parseSheet(rows: Cell[][], sheet: string, population: Population, file: AsheFile, where: string): void {
  const h = findHeader(rows);
  if (h < 0) throw new Error(`${where}: no header row with 'Description' and 'Code' in the first 20 rows`);
  const { name: nameCol, code: codeCol, cols } = mapColumns(rows, h, where);
  let seq = 0;
  for (let r = h + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const rawName = row[nameCol];
    const code = String(row[codeCol] ?? '').trim();
    const hasValues = cols.some(([, c]) => row[c] !== null && row[c] !== undefined && String(row[c]).trim() !== '');
    if (!code) {
      if (hasValues && typeof rawName === 'string' && rawName.trim()) file.uncoded++;
      continue; // footnotes, blank lines, Not Classified
    }
    const raw = () => JSON.stringify(row.slice(0, Math.max(...cols.map(([, c]) => c)) + 1));
    const name = typeof rawName === 'string' ? rawName.trim() : String(rawName ?? '').trim();
    const level = levelOf(file.table.family, code);
    if (!level || !name) {
      file.rejects.push({ sheet, line: r + 1, raw: raw(), reason: !name ? 'no description' : `code '${code}' is not a known ${file.table.family} code` });
      continue;
    }
    const values = {} as Record<ValueField, number | null>;
    for (const f of VALUE_FIELDS) values[f] = null;
    const suppressed: ValueField[] = [];
    const markers: Partial<Record<ValueField, string>> = {};
    let bad: string | undefined;
    for (const [f, c] of cols) {
      const p = cellValue(row[c] ?? null);
      if (!p.ok) {
        bad = `${f}: '${String(row[c])}' is neither a number nor a key marker`;
        break;
      }
      values[f] = p.value;
      if (p.marker) {
        markers[f] = p.marker;
        if (p.suppressed) suppressed.push(f);
      }
    }
    if (bad) {
      file.rejects.push({ sheet, line: r + 1, raw: raw(), reason: bad });
      continue;
    }
    file.rows.push({ population, line: r + 1, seq: seq++, code, name, level, values, suppressed, markers });
  }
}

/** SheetJS read options: values only (no formatted text, HTML, formulae, number formats or styles: a third faster on .xlsx). */
const READ_OPTS: XLSX.ParsingOptions = {
  dense: true, cellText: false, cellHTML: false, cellFormula: false, cellNF: false, cellStyles: false, bookVBA: false, sheetStubs: false,
};

/**
 * Why SheetJS could not read a file, in words: what the file is by its first bytes, and SheetJS's own
 * message only when it is one meant for people (a password, a bounds refusal), never a JavaScript
 * internal such as "Cannot read properties of undefined" (issue 37).
 */
function unreadable(bytes: Uint8Array, e: Error): string {
  const head = Buffer.from(bytes.subarray(0, 512));
  const own = !(e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError);
  const why = own && e.message ? ` (${e.message})` : '';
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return `an Excel .xls workbook that cannot be read${why}`;
  if (head[0] === 0x50 && head[1] === 0x4b) return `a zip that is not a readable .xlsx workbook${why}`;
  const text = head.toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (text.startsWith('<')) return `not a spreadsheet: it is ${/^<(!doctype html|html)/i.test(text) ? 'an HTML page' : 'XML text'}`;
  if (head.length === 0) return 'an empty file';
  return `not a spreadsheet${why}`;
}

/** Read one ASHE table file. Throws when it is not an ASHE estimates table this dataset loads. */
export function readAsheFile(path: string, fileName = basename(path)): AsheFile {
  return readAsheBytes(readFileSync(path), fileName);
}

/** One ASHE table file's bytes (as read from disk or inflated from its zip). Throws as readAsheFile does. */
export function readAsheBytes(bytes: Uint8Array, fileName: string): AsheFile {
  let wb: XLSX.WorkBook;
  try {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // a member that would unpack past the limits is refused before SheetJS inflates it (sync/formats/bounds.ts)
    checkWorkbookMembers(buf, fileName);
    wb = XLSX.read(buf, { type: 'buffer', ...READ_OPTS });
  } catch (e) {
    throw new Error(`${fileName}: ${unreadable(bytes, e as Error)}; give an ONS ASHE table (Table 4, 7, 8 or 14 as .xls, .xlsx or the ONS zip)`);
  }
  const firstData = wb.SheetNames.find((s) => populationOfSheet(s));
  if (!firstData) throw new Error(`${fileName}: no sheet named like All, Male, Full-Time ... (sheets: ${wb.SheetNames.join(', ')})`);
  // each sheet is turned into rows once (the first one's title cell is read from its rows)
  const rowsOf = new Map<string, Cell[][]>([[firstData, sheetRows(wb.Sheets[firstData]!)]]);
  const title = String(rowsOf.get(firstData)![0]?.[0] ?? '');
  const file: AsheFile = { ...identify(title, fileName), rows: [], rejects: [], uncoded: 0, sheets: [] };
  const seen = new Set<Population>();
  for (const sheet of wb.SheetNames) {
    const population = populationOfSheet(sheet);
    if (!population || seen.has(population)) continue;
    seen.add(population);
    file.sheets.push(sheet);
    const rows = rowsOf.get(sheet) ?? sheetRows(wb.Sheets[sheet]!);
    rowsOf.delete(sheet);
    parseSheet(rows, sheet, population, file, `${fileName} sheet '${sheet}'`);
  }
  return file;
}
