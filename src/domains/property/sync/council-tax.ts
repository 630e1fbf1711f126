/**
 * `publicdata sync council-tax`: MHCLG "Council Tax levels set by local authorities in England <year> to <year+1>",
 * Table 9 (area council tax for a dwelling occupied by two adults, bands A to H, including parish and
 * adult social care precepts), published as an OpenDocument spreadsheet (e.g. Tables_1-9_2026-27.ods).
 *
 * The ODS is read with SheetJS (@e965/xlsx, the project's one spreadsheet reader: docs/energy.md), only the
 * Table 9 sheet parsed. Nothing is read at a fixed offset: the sheet is found by name (Table_9, Table 9),
 * the header row by its eight band columns A..H, the code column by its ONS codes, the name column by its
 * heading (else the text column beside the codes), the financial year from "YYYY to YYYY" in the sheet's
 * title (else the file name). Numbers come from the cells' values (office:value), rounded to pence as the
 * sheet displays them.
 * Rows kept: billing authorities (ONS codes E06, E07, E08, E09); totals and regional rows are left out.
 */
import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { checkWorkbookMembers } from '../../../../sync/formats/bounds.js';
import { queryOne } from '../../../mirror/db.js';
import { catalogFields, discoverFromPages } from '../../../../sync/common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { COUNCIL_TAX_INFO } from '../datasets.js';

// ---------------------------------------------------------------------------------------------------
// The spreadsheet, through SheetJS

/** A cell as Table 9 is read: its text as the sheet shows it (`1,541.36`) and, for a number cell, its value. */
export interface SheetCell {
  text: string;
  value?: number;
}

/** A sheet as rows of cells, 0-based (row r is spreadsheet row r + 1); empty cells and rows are undefined / []. */
export interface SheetTable {
  name: string;
  rows: Array<Array<SheetCell | undefined>>;
}

function cellOf(c: XLSX.CellObject | undefined): SheetCell | undefined {
  if (!c || c.t === 'z') return undefined;
  if (c.t === 'n') return { text: c.w ?? String(c.v), value: c.v as number };
  const text = c.w ?? (c.v === undefined ? '' : c.v instanceof Date ? c.v.toISOString() : String(c.v));
  return text === '' ? undefined : { text };
}

/**
 * The sheets of an OpenDocument spreadsheet whose names `wanted` accepts, read with SheetJS: the sheet names
 * first (bookSheets), then only those sheets (dense). SheetJS expands column and row repeats and leaves out
 * trailing empty runs (a row 16,384 columns wide, ~1M empty rows); covered (merged) cells are empty.
 * Anything that is not an ODS (another spreadsheet format, or a file SheetJS cannot read) is refused.
 */
export function readOdsSheets(file: Uint8Array, wanted: (name: string) => boolean): SheetTable[] {
  let names: string[];
  let wb: XLSX.WorkBook;
  try {
    checkWorkbookMembers(file, 'the spreadsheet'); // bounded before SheetJS inflates it (sync/formats/bounds.ts)
    const book = XLSX.read(file, { type: 'array', bookSheets: true }) as XLSX.WorkBook & { bookType?: string };
    if (book.bookType !== 'ods') throw new Error(`read as ${book.bookType ?? 'plain text'}`);
    names = book.SheetNames.filter(wanted);
    if (names.length === 0) return [];
    wb = XLSX.read(file, { type: 'array', sheets: names, dense: true });
  } catch (e) {
    throw new Error(`not an OpenDocument spreadsheet (${(e as Error).message})`);
  }
  return names.map((name) => {
    const data = wb.Sheets[name]?.['!data'] ?? [];
    const rows: SheetTable['rows'] = [];
    for (let r = 0; r < data.length; r++) {
      const row = data[r];
      rows.push(row ? Array.from(row, cellOf) : []);
    }
    return { name, rows };
  });
}

// ---------------------------------------------------------------------------------------------------
// Table 9

export interface CouncilTaxRow {
  authority_code: string;
  authority_name: string;
  financial_year: string;
  band: string;
  amount: number;
}

export const BANDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
const BILLING_AUTHORITY_RE = /^E0[6-9]\d{6}$/;
const ONS_CODE_RE = /^[EWSNK]\d{8}$/;

export function isTable9(name: string): boolean {
  return /^table[\s_-]*9$/i.test(name.trim());
}

const norm = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** 'YYYY-YY' from "2026 to 2027", "2026-27", "2026/27" or "2026-2027"; null when none. */
export function financialYearIn(text: string): string | null {
  for (const m of text.matchAll(/(\d{4})\s*(?:to|-|–|\/)\s*(\d{4}|\d{2})(?!\d)/g)) {
    const y = Number(m[1]);
    const ok = m[2]!.length === 4 ? Number(m[2]) === y + 1 : Number(m[2]) === (y + 1) % 100;
    if (ok && y >= 1990 && y < 2100) return `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
  }
  return null;
}

/** Column of band A in a header row whose eight consecutive cells read A..H ("A", "Band A", "Band A (6/9)"...). */
function bandColumns(row: Array<SheetCell | undefined>): number | null {
  const letter = (c: SheetCell | undefined) => /^(?:band\s*)?([A-H])(?![a-z])/i.exec(norm(c?.text))?.[1]?.toUpperCase();
  for (let i = 0; i + 7 < row.length; i++) {
    if (BANDS.every((b, k) => letter(row[i + k]) === b)) return i;
  }
  return null;
}

function amountOf(c: SheetCell | undefined): number | null {
  if (!c) return null;
  let v: number;
  if (c.value !== undefined) v = c.value;
  else {
    const t = c.text.replace(/[£,\s]/g, '');
    if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
    v = Number(t);
  }
  if (!Number.isFinite(v) || v <= 0) return null;
  return Math.round(v * 100) / 100;
}

export interface Table9Result {
  rows: CouncilTaxRow[];
  /** Band cells of billing-authority rows that held no usable amount. */
  rejected: number;
  financialYear: string;
  authorities: number;
}

/** Extract the billing-authority band amounts of a Table 9 sheet. `fileName` is the fallback for the year. */
export function parseTable9(table: SheetTable, fileName = ''): Table9Result {
  const headerIdx = table.rows.findIndex((r) => bandColumns(r) !== null);
  if (headerIdx < 0) throw new Error(`${table.name}: no header row with band columns A to H`);
  const bandA = bandColumns(table.rows[headerIdx]!)!;
  const body = table.rows.slice(headerIdx + 1);

  // Code column: the column left of the bands where most cells are ONS codes.
  let codeCol = -1;
  let best = 0;
  for (let c = 0; c < bandA; c++) {
    const n = body.filter((r) => ONS_CODE_RE.test(norm(r[c]?.text))).length;
    if (n > best) [best, codeCol] = [n, c];
  }
  if (codeCol < 0) throw new Error(`${table.name}: no column of ONS authority codes`);

  // Name column: a heading naming the authority (header row or the two rows above it), else the next text column.
  const headings = table.rows.slice(Math.max(0, headerIdx - 2), headerIdx + 1);
  let nameCol = -1;
  for (let c = 0; c < bandA && nameCol < 0; c++) {
    if (c === codeCol) continue;
    if (headings.some((r) => /(billing\s+authority|local\s+authority|authority\s+name|^authority$|^name$)/i.test(norm(r[c]?.text)))) nameCol = c;
  }
  if (nameCol < 0) {
    for (let c = codeCol + 1; c < bandA && nameCol < 0; c++) {
      const texts = body.filter((r) => ONS_CODE_RE.test(norm(r[codeCol]?.text))).map((r) => norm(r[c]?.text));
      if (texts.filter((t) => /[A-Za-z]{3}/.test(t)).length > texts.length / 2) nameCol = c;
    }
  }
  if (nameCol < 0) throw new Error(`${table.name}: no authority name column`);

  const titleText = table.rows.slice(0, headerIdx + 1).flatMap((r) => r.map((c) => c?.text ?? '')).join(' ');
  const financialYear = financialYearIn(titleText) ?? financialYearIn(fileName);
  if (!financialYear) throw new Error(`${table.name}: cannot tell the financial year (no 'YYYY to YYYY' in the title or file name)`);

  const rows: CouncilTaxRow[] = [];
  const seen = new Set<string>();
  let rejected = 0;
  for (const r of body) {
    const code = norm(r[codeCol]?.text);
    if (!BILLING_AUTHORITY_RE.test(code) || seen.has(code)) continue;
    seen.add(code);
    const name = norm(r[nameCol]?.text);
    BANDS.forEach((band, k) => {
      const amount = amountOf(r[bandA + k]);
      if (amount === null) rejected++;
      else rows.push({ authority_code: code, authority_name: name, financial_year: financialYear, band, amount });
    });
  }
  return { rows, rejected, financialYear, authorities: seen.size };
}

/** Read an ODS file's Table 9. */
export function readTable9(zip: Uint8Array, fileName = ''): Table9Result {
  const tables = readOdsSheets(zip, isTable9);
  if (tables.length === 0) throw new Error(`${fileName || 'spreadsheet'}: no sheet named Table_9`);
  return parseTable9(tables[0]!, fileName);
}

// ---------------------------------------------------------------------------------------------------
// Dataset module

export const COUNCIL_TAX_DDL = `CREATE TABLE council_tax (
  authority_code VARCHAR NOT NULL,  -- ONS billing-authority code (E06/E07/E08/E09)
  authority_name VARCHAR NOT NULL,
  financial_year VARCHAR NOT NULL,  -- YYYY-YY
  band           VARCHAR NOT NULL,  -- A..H
  amount         DECIMAL(10, 2) NOT NULL  -- pounds a year, two-adult household, incl. parish and ASC precepts
)`;

/** The statistics page of a financial year, e.g. .../council-tax-levels-set-by-local-authorities-in-england-2026-to-2027. */
export function statisticsPageUrl(base: string, startYear: number): string {
  return `${base.replace(/\/+$/, '')}/government/statistics/council-tax-levels-set-by-local-authorities-in-england-${startYear}-to-${startYear + 1}`;
}

/** ODS links of the "Tables 1 to 9" file on a page, resolved, newest year first. */
export function tablesLinks(html: string, pageUrl: string): Array<{ url: string; year: string }> {
  const out: Array<{ url: string; year: string }> = [];
  for (const m of html.matchAll(/href\s*=\s*["']([^"']+\.ods)(?:\?[^"']*)?["']/gi)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    const file = decodeURIComponent(href.split('/').pop() ?? '');
    if (!/tables?[_\s-]*1[_\s-]*(?:to|-)[_\s-]*9/i.test(file)) continue;
    const year = financialYearIn(file) ?? '';
    try {
      out.push({ url: new URL(href, pageUrl).toString(), year });
    } catch {
      /* skip */
    }
  }
  return out.sort((a, b) => (a.year < b.year ? 1 : a.year > b.year ? -1 : 0));
}

const councilTax: DatasetModule = {
  ...catalogFields(COUNCIL_TAX_INFO),
  defaultBaseUrl: 'https://www.gov.uk',
  tables: ['council_tax'],
  rejectThreshold: 0.01,

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    // The year's tables are published in March; from April the current financial year's page exists.
    const now = ctx.now();
    const fyStart = now.getUTCMonth() >= 3 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
    const years = [fyStart + 1, fyStart, fyStart - 1];
    return discoverFromPages(
      ctx,
      years.map((y) => statisticsPageUrl(ctx.baseUrl, y)),
      (html, page) => {
        const l = tablesLinks(html, page)[0];
        if (!l) return "no 'Tables 1-9' .ods link";
        const name = decodeURIComponent(new URL(l.url).pathname.split('/').pop() ?? '') || 'council-tax.ods';
        return { url: l.url, name, kind: 'full' };
      },
      { what: 'the council tax tables (ODS) on gov.uk', dataset: 'council-tax' },
    );
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const file = ctx.files[0];
    if (!file) throw new Error('council-tax: no file downloaded');
    const t9 = readTable9(new Uint8Array(readFileSync(file.path)), file.name);
    await ctx.conn.run(COUNCIL_TAX_DDL);
    const rows = [...t9.rows].sort((a, b) =>
      a.authority_name.toLowerCase() < b.authority_name.toLowerCase() ? -1 : a.authority_name.toLowerCase() > b.authority_name.toLowerCase() ? 1 : a.band < b.band ? -1 : 1,
    );
    const chunk = 400;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      await ctx.conn.run(
        `INSERT INTO council_tax VALUES ${part.map(() => '(?, ?, ?, ?, CAST(? AS DECIMAL(10, 2)))').join(', ')}`,
        part.flatMap((r) => [r.authority_code, r.authority_name, r.financial_year, r.band, r.amount.toFixed(2)]),
      );
      ctx.progress(Math.min(i + chunk, rows.length));
    }
    if (t9.rejected > 0) {
      await ctx.conn.run(`INSERT INTO rejects VALUES (?, NULL, NULL, ?)`, [
        file.name,
        `${t9.rejected} band cell(s) of billing-authority rows held no amount`,
      ]);
    }
    // as_of: the financial year's first day (the levels apply from 1 April).
    return { rows: rows.length, rejected: t9.rejected, mode: 'full', asOf: `${t9.financialYear.slice(0, 4)}-04-01` };
  },

  async verify(conn): Promise<void> {
    const r = await queryOne<{ band_d: number }>(conn, "SELECT count(*) FILTER (WHERE band = 'D') AS band_d FROM council_tax");
    if (!r?.band_d) throw new Error('council-tax: Table 9 gave no band amounts; refusing to replace the data');
  },
};

export default councilTax;
export { councilTax };
