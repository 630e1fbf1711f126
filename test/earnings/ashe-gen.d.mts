// Types of ashe-gen.mjs (a plain module so that bench/earnings.bench.mjs can import it too).
export interface AsheRowSpec {
  name: string;
  code: string;
}
export const SHEETS: string[];
export const MEASURES: Record<'1' | '5' | '7', { title: string; base: number; dp: number }>;
export function memberName(table: string, sub: string, year: number, provisional: boolean, ext?: string): string;
export function zipName(table: string, year: number, provisional: boolean): string;
export function industryRows(): AsheRowSpec[];
export function occupationRows(): AsheRowSpec[];
export function rowValues(i: number, sheet: string, sub: string, year: number): Array<number | string | null>;
export function asheWorkbook(o: { rows: AsheRowSpec[]; table: string; sub: string; year: number; bookType?: 'biff8' | 'xlsx'; cv?: boolean }): Buffer;
export function asheZip(o: {
  rows: AsheRowSpec[];
  table: string;
  year: number;
  provisional: boolean;
  ext?: 'xls' | 'xlsx';
  subs?: string[];
  mutate?: (rows: AsheRowSpec[], sub: string) => AsheRowSpec[];
}): Buffer;
export function datasetPage(pagePath: string, zips: string[], style?: 'file' | 'path'): string;
