/** Earnings test helpers: the real Table 8.7a 2020 and ONS-style zips built around it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { zipSync } from 'fflate';
import { asheWorkbook, memberName, type AsheRowSpec } from '../support/ashe-gen.mjs';

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
