/** Earnings test helpers: the real Table 8.7a 2020 and ONS-style zips built around it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { zipSync } from 'fflate';
import { asheWorkbook, memberName, type AsheRowSpec } from './ashe-gen.mjs';

export const REAL_NAME = 'Home Geography Table 8.7a   Annual pay - Gross 2020.xls';
export const REAL = join(__dirname, '..', 'fixtures', 'earnings', REAL_NAME);

/** The coded rows of the real file's All sheet (names as ONS wrote them, indentation kept): rows 6-416. */
export function realGeographyRows(): AsheRowSpec[] {
  const ws = XLSX.read(readFileSync(REAL), { type: 'buffer' }).Sheets.All!;
  const out: AsheRowSpec[] = [];
  for (let line = 6; line <= 416; line++) out.push({ name: String(ws[`A${line}`].v), code: String(ws[`B${line}`].v) });
  return out;
}

/** ashetable82020revised.zip as ONS ships it: the REAL 8.7a plus GENERATED 8.1a (weekly) and 8.5a (hourly). */
export function table8Zip2020(): Buffer {
  const rows = realGeographyRows();
  const files: Record<string, Uint8Array> = {
    [REAL_NAME]: new Uint8Array(readFileSync(REAL)),
    [memberName('8', '1', 2020, false)]: new Uint8Array(asheWorkbook({ rows, table: '8', sub: '1', year: 2020 })),
    [memberName('8', '5', 2020, false)]: new Uint8Array(asheWorkbook({ rows, table: '8', sub: '5', year: 2020 })),
  };
  return Buffer.from(zipSync(files));
}

/** The published points in the column order of every ASHE sheet: p10 H ... p40 L, the median D, p60 M ... p90 Q. */
export const POINT_COLUMNS: ReadonlyArray<[label: string, column: string]> = [
  ['p10', 'H'], ['p20', 'I'], ['p25', 'J'], ['p30', 'K'], ['p40', 'L'], ['median', 'D'],
  ['p60', 'M'], ['p70', 'N'], ['p75', 'O'], ['p80', 'P'], ['p90', 'Q'],
];

/** The published points of one coded row of a sheet of the real file, read with SheetJS: number, the marker text, or undefined (blank). */
export function realPoints(sheet: string, code: string): Array<{ label: string; cell: number | string | undefined }> {
  const ws = XLSX.read(readFileSync(REAL), { type: 'buffer' }).Sheets[sheet]!;
  let line = 6;
  while (line <= 416 && String(ws[`B${line}`]?.v) !== code) line++;
  if (line > 416) throw new Error(`${code} is not on the ${sheet} sheet`);
  return POINT_COLUMNS.map(([label, col]) => {
    const v = ws[`${col}${line}`]?.v as number | string | undefined;
    return { label, cell: typeof v === 'string' ? v.trim() : v };
  });
}
