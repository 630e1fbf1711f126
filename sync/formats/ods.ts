/**
 * OpenDocument spreadsheets (.ods), as MHCLG (council tax) and DfT (vehicle tables) publish them.
 * ODS = a zip (read with fflate) whose content.xml (streamed through saxes) holds one <table:table> per
 * sheet. Cells and rows may carry table:number-columns-repeated / table:number-rows-repeated; merged areas
 * use <table:covered-table-cell>; runs of empty cells are capped so a sheet 16,384 columns wide costs nothing.
 */
import { unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';

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
