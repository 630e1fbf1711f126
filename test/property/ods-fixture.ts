/**
 * Builds a format-true OpenDocument spreadsheet shaped like MHCLG's Tables_1-9_2026-27.ods (sheet Table_9:
 * ONS code in column B, authority name in C, bands A–H in G–N, Manchester/Liverpool/Birmingham/Leeds/Bristol
 * in rows 39/48/61/71/80) from the real values in
 * test/fixtures/property/council-tax/DERIVED-Tables_1-9_2026-27-Table_9-cells.csv. No original ODS is public in
 * any repository searched, so this file is generated; see test/fixtures/property/council-tax/SOURCES.md for
 * which parts are real and which are our stand-ins.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { readCsv } from '../support/mirror-helper.js';

export const CELLS_CSV = join(__dirname, '..', 'fixtures', 'property', 'council-tax', 'DERIVED-Tables_1-9_2026-27-Table_9-cells.csv');

/** office:value of cells whose stored value differs from the 2-dp display (from the same cell extract). */
export const RAW_VALUES: Record<string, string> = {
  'E08000003:G': '3853.4',
  'E08000012:G': '4455.9799999999996',
  'E08000025:D': '2362.9',
  'E08000025:H': '4725.8',
  'E06000023:G': '4522.8',
};

export interface CellRow {
  ons_code: string;
  authority: string;
  table9_row: number;
  bands: string[]; // A..H displayed values, e.g. '1541.36'
}

export function cellRows(): CellRow[] {
  return readCsv(readFileSync(CELLS_CSV, 'utf8')).map((r) => ({
    ons_code: r.ons_code!,
    authority: r.authority!,
    table9_row: Number(r.table9_row),
    bands: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((b) => r[`band_${b}`]!),
  }));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const str = (s: string, style = 'ce1') =>
  `<table:table-cell table:style-name="${style}" office:value-type="string" calcext:value-type="string"><text:p>${esc(s)}</text:p></table:table-cell>`;
const empty = (n = 1) => (n === 1 ? '<table:table-cell/>' : `<table:table-cell table:number-columns-repeated="${n}"/>`);
const money = (raw: string, shown: string) =>
  `<table:table-cell table:style-name="ce9" office:value-type="float" office:value="${raw}" calcext:value-type="float"><text:p>${esc(shown)}</text:p></table:table-cell>`;
const display = (v: string) => Number(v).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function header(): string {
  return (
    '<table:table-row table:style-name="ro2">' +
    str('E-code', 'ce2') +
    str('ONS code', 'ce2') +
    str('Billing authority', 'ce2') +
    str('Class', 'ce2') +
    str('Region', 'ce2') +
    str('Area Band D council tax, two adult household (£) [note p]', 'ce2') +
    ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((b) => str(`Band ${b}`, 'ce2')).join('') +
    empty(16370) +
    '</table:table-row>'
  );
}

function emptyRows(n: number): string {
  if (n <= 0) return '';
  return `<table:table-row table:style-name="ro1"${n > 1 ? ` table:number-rows-repeated="${n}"` : ''}>${empty(16384)}</table:table-row>`;
}

/** content.xml with sheets Table_8 (a decoy with the same header and no amounts) and Table_9. */
export function contentXml(opts: { title?: string; rows?: CellRow[]; sheetName?: string } = {}): string {
  const rows = (opts.rows ?? cellRows()).slice().sort((a, b) => a.table9_row - b.table9_row);
  const title =
    opts.title ?? 'Table 9: Area council tax for a dwelling occupied by two adults, by band, England, 2026 to 2027 [note p]';
  const HEADER_ROW = 4;
  let xml = '';
  // Table_8 decoy
  xml +=
    '<table:table table:name="Table_8" table:style-name="ta1">' +
    '<table:table-column table:style-name="co1" table:number-columns-repeated="16384" table:default-cell-style-name="Default"/>' +
    `<table:table-row table:style-name="ro1">${str('Table 8: Band D council tax by billing authority, 2026 to 2027', 'ce3')}${empty(16383)}</table:table-row>` +
    header() +
    `<table:table-row table:style-name="ro1">${str('E4203')}${str('E08000003')}${str('Manchester')}${str('MD')}${str('NW')}${empty()}${Array.from({ length: 8 }, () => str('[x]')).join('')}${empty(16370)}</table:table-row>` +
    '</table:table>';
  // Table_9
  xml += `<table:table table:name="${esc(opts.sheetName ?? 'Table_9')}" table:style-name="ta1">`;
  xml += '<table:table-column table:style-name="co2" table:default-cell-style-name="Default"/>';
  xml += '<table:table-column table:style-name="co1" table:number-columns-repeated="2" table:default-cell-style-name="Default"/>';
  xml += '<table:table-column table:style-name="co3" table:number-columns-repeated="16381" table:default-cell-style-name="Default"/>';
  // row 1: title merged over A1:N1 (covered cells follow)
  xml +=
    '<table:table-row table:style-name="ro3"><table:table-cell table:style-name="ce3" office:value-type="string" calcext:value-type="string" table:number-columns-spanned="14" table:number-rows-spanned="1">' +
    `<text:p>${esc(title)}</text:p></table:table-cell><table:covered-table-cell table:number-columns-repeated="13"/>${empty(16370)}</table:table-row>`;
  // row 2: a note with <text:s/> and a span
  xml +=
    '<table:table-row table:style-name="ro1"><table:table-cell office:value-type="string" calcext:value-type="string">' +
    '<text:p>This worksheet contains one table.<text:s/>Figures <text:span text:style-name="T1">include</text:span> parish precepts.</text:p></table:table-cell>' +
    `${empty(16383)}</table:table-row>`;
  xml += emptyRows(1); // row 3
  xml += header(); // row 4
  // row 5: England total (no amounts in this stand-in) — not a billing authority, must be skipped
  xml += `<table:table-row table:style-name="ro1">${empty()}${str('E92000001')}${str('ENGLAND')}${empty(3)}${Array.from({ length: 8 }, () => str('[x]')).join('')}${empty(16370)}</table:table-row>`;
  let next = HEADER_ROW + 2;
  for (const r of rows) {
    xml += emptyRows(r.table9_row - next);
    const name =
      r.authority === 'Leeds' ? `<table:table-cell office:value-type="string" calcext:value-type="string"><text:p><text:span text:style-name="T2">Leeds</text:span></text:p></table:table-cell>` : str(r.authority);
    xml +=
      '<table:table-row table:style-name="ro1">' +
      str('E') +
      str(r.ons_code) +
      name +
      str('') +
      empty(2) +
      r.bands.map((v, k) => money(RAW_VALUES[`${r.ons_code}:${'ABCDEFGH'[k]}`] ?? v, display(v))).join('') +
      empty(16370) +
      '</table:table-row>';
    next = r.table9_row + 1;
  }
  xml += emptyRows(1048576 - next + 1);
  xml += '</table:table>';

  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" ' +
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3">' +
    '<office:scripts/><office:font-face-decls/><office:automatic-styles/>' +
    `<office:body><office:spreadsheet><table:calculation-settings table:automatic-find-labels="false"/>${xml}` +
    '<table:named-expressions/></office:spreadsheet></office:body></office:document-content>'
  );
}

/**
 * styles.xml as LibreOffice writes one (trimmed to the default cell style): every ODS an office suite saves
 * carries it, and SheetJS refuses a package without it.
 */
const STYLES_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3">' +
  '<office:font-face-decls/><office:styles><style:default-style style:family="table-cell"><style:paragraph-properties style:tab-stop-distance="0.5in"/></style:default-style>' +
  '<style:style style:name="Default" style:family="table-cell"/></office:styles><office:automatic-styles/><office:master-styles/></office:document-styles>';

/** A zipped .ods (mimetype stored first and uncompressed, as ODF requires; content, styles and manifest). */
export function buildOds(content: string = contentXml(), opts: { styles?: boolean } = {}): Uint8Array {
  const withStyles = opts.styles ?? true;
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
    '<manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>' +
    (withStyles ? '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>' : '') +
    '</manifest:manifest>';
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
    'content.xml': strToU8(content),
    ...(withStyles ? { 'styles.xml': strToU8(STYLES_XML) } : {}),
    'META-INF/manifest.xml': strToU8(manifest),
  });
}
