/**
 * `publicdata sync council-tax`: MHCLG "Council Tax levels set by local authorities in England <year> to <year+1>",
 * Table 9 (area council tax for a dwelling occupied by two adults, bands A to H, including parish and
 * adult social care precepts), published as an OpenDocument spreadsheet (e.g. Tables_1-9_2026-27.ods).
 *
 * ODS = a zip (read with fflate) whose content.xml (streamed through saxes) holds one <table:table> per sheet.
 * Cells and rows may carry table:number-columns-repeated / table:number-rows-repeated; merged areas use
 * <table:covered-table-cell>. Nothing is read at a fixed offset: the sheet is found by name (Table_9, Table 9),
 * the header row by its eight band columns A..H, the code column by its ONS codes, the name column by its
 * heading (else the text column beside the codes), the financial year from "YYYY to YYYY" in the sheet's
 * title (else the file name). Numbers come from office:value, rounded to pence as the sheet displays them.
 * Rows kept: billing authorities (ONS codes E06, E07, E08, E09); totals and regional rows are left out.
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { queryOne } from '../src/mirror/db.js';
import { catalogFields, discoverFromPages } from './common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from './types.js';


// ---------------------------------------------------------------------------------------------------
// ODS reading

export interface OdsCell {
  /** Cell text (paragraphs joined by '\n'; <text:s/> spaces and tabs expanded). */
  text: string;
  /** office:value-type, e.g. 'float', 'currency', 'percentage', 'string'. */
  type?: string;
  /** office:value (numbers), when present. */
  value?: string;
}

export interface OdsTable {
  name: string;
  /** rows[r][c]: 0-based; empty cells are undefined. Row and column repeats expanded (capped for empty runs). */
  rows: Array<Array<OdsCell | undefined>>;
}

/** Largest number of columns / rows kept (trailing empty runs are often 16,384 columns or 1,048,576 rows long). */
const MAX_COLS = 1024;
const MAX_ROWS = 100_000;

/** The content.xml of an ODS file (zip). */
export function odsContentXml(zip: Uint8Array): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => f.name === 'content.xml' || f.name === 'mimetype' });
  } catch (e) {
    throw new Error(`not an OpenDocument spreadsheet (zip unreadable: ${(e as Error).message})`);
  }
  const mime = files.mimetype ? new TextDecoder().decode(files.mimetype).trim() : undefined;
  if (mime !== undefined && mime !== 'application/vnd.oasis.opendocument.spreadsheet') {
    throw new Error(`not an OpenDocument spreadsheet (mimetype ${mime})`);
  }
  const content = files['content.xml'];
  if (!content) throw new Error('not an OpenDocument spreadsheet (no content.xml)');
  return content;
}

/**
 * Stream content.xml and return the tables whose name `wanted` accepts (all when omitted).
 * Only those tables' cells are kept in memory.
 */
export function readOdsTables(contentXml: Uint8Array | string, wanted: (name: string) => boolean = () => true): OdsTable[] {
  const parser = new SaxesParser();
  const tables: OdsTable[] = [];
  let table: OdsTable | undefined;
  let row: Array<OdsCell | undefined> | undefined;
  let rowRepeat = 1;
  let col = 0;
  let cell: { text: string[]; type?: string; value?: string; repeat: number } | undefined;
  let para: string[] | undefined;
  let depthInTable = 0;
  let pendingEmpty = 0;

  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'table:table': {
        const name = a['table:name'] ?? '';
        if (wanted(name)) {
          table = { name, rows: [] };
          pendingEmpty = 0;
          depthInTable = 1;
        }
        return;
      }
    }
    if (!table) return;
    switch (tag.name) {
      case 'table:table-row':
        row = [];
        col = 0;
        rowRepeat = Math.max(1, Number(a['table:number-rows-repeated'] ?? 1) || 1);
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell': {
        const c: NonNullable<typeof cell> = { text: [], repeat: Math.max(1, Number(a['table:number-columns-repeated'] ?? 1) || 1) };
        const t = a['office:value-type'];
        if (t !== undefined) c.type = t;
        const v = a['office:value'] ?? a['office:date-value'] ?? a['office:boolean-value'] ?? a['office:time-value'];
        if (v !== undefined) c.value = v;
        cell = c;
        return;
      }
      case 'text:p':
      case 'text:h':
        if (cell) para = [];
        return;
      case 'text:s':
        if (para) para.push(' '.repeat(Math.max(1, Number(a['text:c'] ?? 1) || 1)));
        return;
      case 'text:tab':
        if (para) para.push('\t');
        return;
      case 'text:line-break':
        if (para) para.push('\n');
        return;
    }
  });
  parser.on('text', (t) => {
    if (para) para.push(t);
  });
  parser.on('closetag', (tag) => {
    if (!table) return;
    switch (tag.name) {
      case 'table:table':
        if (depthInTable) {
          tables.push(table);
          table = undefined;
          depthInTable = 0;
        }
        return;
      case 'text:p':
      case 'text:h':
        if (cell && para) cell.text.push(para.join(''));
        para = undefined;
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell': {
        if (!cell || !row) return;
        const text = cell.text.join('\n');
        const empty = text === '' && cell.value === undefined;
        if (empty) col += cell.repeat;
        else {
          const out: OdsCell = { text };
          if (cell.type !== undefined) out.type = cell.type;
          if (cell.value !== undefined) out.value = cell.value;
          for (let i = 0; i < cell.repeat && col < MAX_COLS; i++) row[col++] = out;
        }
        cell = undefined;
        return;
      }
      case 'table:table-row': {
        if (!row) return;
        if (row.every((c) => c === undefined)) pendingEmpty += rowRepeat;
        else {
          // empty rows before a non-empty one keep the row numbers right; trailing empty runs are dropped
          for (; pendingEmpty > 0 && table.rows.length < MAX_ROWS; pendingEmpty--) table.rows.push([]);
          pendingEmpty = 0;
          for (let i = 0; i < Math.min(rowRepeat, 1000) && table.rows.length < MAX_ROWS; i++) table.rows.push(i === 0 ? row : [...row]);
        }
        row = undefined;
        return;
      }
    }
  });

  if (typeof contentXml === 'string') parser.write(contentXml);
  else {
    const dec = new TextDecoder('utf-8');
    const step = 1 << 16;
    for (let i = 0; i < contentXml.length; i += step) parser.write(dec.decode(contentXml.subarray(i, i + step), { stream: true }));
    parser.write(dec.decode());
  }
  parser.close();
  return tables;
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
function bandColumns(row: Array<OdsCell | undefined>): number | null {
  const letter = (c: OdsCell | undefined) => /^(?:band\s*)?([A-H])(?![a-z])/i.exec(norm(c?.text))?.[1]?.toUpperCase();
  for (let i = 0; i + 7 < row.length; i++) {
    if (BANDS.every((b, k) => letter(row[i + k]) === b)) return i;
  }
  return null;
}

function amountOf(c: OdsCell | undefined): number | null {
  if (!c) return null;
  let v: number;
  if (c.value !== undefined && (c.type === undefined || c.type === 'float' || c.type === 'currency')) v = Number(c.value);
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
export function parseTable9(table: OdsTable, fileName = ''): Table9Result {
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
  const tables = readOdsTables(odsContentXml(zip), isTable9);
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
  ...catalogFields('council-tax'),
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
