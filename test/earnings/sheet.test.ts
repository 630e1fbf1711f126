/**
 * Reading the REAL ONS ASHE Table 8.7a (2020, binary .xls) and generated .xlsx tables. Expected values:
 * (1) figures read by eye from the file, with their sheet and cell, and (2) every coded row compared with
 * the sheet's cells read directly by address with SheetJS (a path that shares nothing with the parser's
 * header search, column mapping or marker handling).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { readAsheFile } from '../../src/domains/earnings/sync/sheet.js';
import { asheWorkbook, industryRows, occupationRows, rowValues } from './ashe-gen.mjs';

const REAL = join(__dirname, '..', 'fixtures', 'earnings', 'Home Geography Table 8.7a   Annual pay - Gross 2020.xls');

describe('ASHE Table 8.7a 2020 (real .xls)', () => {
  const f = readAsheFile(REAL);

  it('identifies table, measure and year from the title and reads all nine sheets', () => {
    expect(f.table.table).toBe('8');
    expect(f.table.basis).toBe('residence');
    expect(f.measure).toBe('annual_gross');
    expect(f.year).toBe(2020);
    expect(f.sheets).toEqual(['All', 'Male', 'Female', 'Full-Time', 'Part-Time', 'Male Full-Time', 'Male Part-Time', 'Female Full-Time', 'Female Part-Time']);
    // 411 coded rows a sheet (UK ... Northern Ireland, rows 6-416); 'Not Classified' (row 417) has no code
    expect(f.rows.length).toBe(411 * 9);
    expect(f.uncoded).toBe(9);
    expect(f.rejects).toEqual([]);
  });

  it('UK and regional figures match the cells read by eye', () => {
    const row = (pop: string, code: string) => f.rows.find((r) => r.population === pop && r.code === code)!;
    // Full-Time sheet, row 6 (C6..Q6): United Kingdom
    expect(row('full_time', 'K02000001')).toMatchObject({
      name: 'United Kingdom', level: 'country', line: 6,
      values: { jobs_thousands: 16103, median: 31487, mean: 38552, median_change: null, mean_change: null,
        p10: 18001, p20: 21166, p25: 22776, p30: 24381, p40: 27735, p60: 35785, p70: 40943, p75: 44146, p80: 47995, p90: 62645 },
      suppressed: [],
    });
    // All sheet, row 6: D6 25886, F6 31646, H6 8628, Q6 55798
    expect(row('all', 'K02000001').values).toMatchObject({ median: 25886, mean: 31646, p10: 8628, p90: 55798, jobs_thousands: 22341 });
    // Full-Time sheet row 10: North East (a region; name has a trailing space in the file)
    expect(row('full_time', 'E12000001')).toMatchObject({ name: 'North East', level: 'region', values: { median: 27906, p10: 17326, p90: 52026 } });
    // Male Full-Time sheet D6: 33915; Northern Ireland row 416 Q: 53766
    expect(row('male_full_time', 'K02000001').values.median).toBe(33915);
    expect(row('male_full_time', 'N92000002').values.p90).toBe(53766);
    // Full-Time row 13, Middlesbrough UA: H13 x, N13..Q13 x
    expect(row('full_time', 'E06000002')).toMatchObject({
      level: 'local_authority',
      values: { median: 26645, p10: null, p20: 19786, p70: null, p90: null },
      suppressed: ['p10', 'p70', 'p75', 'p80', 'p90'],
      markers: { p10: 'x', p70: 'x', p75: 'x', p80: 'x', p90: 'x' },
    });
    // Full-Time row 19: '  Gateshead' (indented metropolitan district) under Tyne and Wear (E11, a county)
    expect(row('full_time', 'E08000037')).toMatchObject({ name: 'Gateshead', level: 'local_authority', values: { median: 26476 } });
    expect(row('all', 'E11000007')).toMatchObject({ name: 'Tyne and Wear Met County', level: 'county' });
    // Female sheet row 337, Isles of Scilly: C337 '..' (disclosive) is suppressed; Part-Time C337 ':' is not
    expect(row('female', 'E06000053')).toMatchObject({ values: { jobs_thousands: null }, markers: { jobs_thousands: '..' } });
    expect(row('female', 'E06000053').suppressed).toContain('jobs_thousands');
    expect(row('part_time', 'E06000053').markers.jobs_thousands).toBe(':');
    expect(row('part_time', 'E06000053').suppressed).not.toContain('jobs_thousands');
  });

  it('every coded row equals the cells read by address (columns C..Q), x and .. counted per sheet', () => {
    const wb = XLSX.read(readFileSync(REAL), { type: 'buffer' });
    const cols = ['C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q'];
    const fields = ['jobs_thousands', 'median', 'median_change', 'mean', 'mean_change', 'p10', 'p20', 'p25', 'p30', 'p40', 'p60', 'p70', 'p75', 'p80', 'p90'] as const;
    const sheets: Record<string, string> = { All: 'all', Female: 'female', 'Full-Time': 'full_time', 'Female Part-Time': 'female_part_time' };
    for (const [sheet, pop] of Object.entries(sheets)) {
      const ws = wb.Sheets[sheet]!;
      let suppressedCells = 0;
      const byLine = new Map(f.rows.filter((x) => x.population === pop).map((x) => [x.line, x]));
      for (let line = 6; line <= 416; line++) {
        const code = ws[`B${line}`]?.v;
        const r = byLine.get(line)!;
        expect(r.code).toBe(code);
        cols.forEach((c, i) => {
          const v = ws[`${c}${line}`]?.v;
          const want = typeof v === 'number' ? v : null;
          if (v === 'x' || v === '..') suppressedCells++;
          expect(r.values[fields[i]!], `${sheet}!${c}${line}`).toBe(want);
        });
      }
      const parsedSuppressed = f.rows.filter((x) => x.population === pop).reduce((n, x) => n + x.suppressed.length, 0);
      expect(parsedSuppressed, sheet).toBe(suppressedCells);
      expect(suppressedCells, sheet).toBeGreaterThan(100);
    }
  });
});

describe('generated tables (.xlsx and .xls, labelled GENERATED)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-earn-sheet-'));

  it('Table 4 (.xlsx): sections and divisions, All employees left out, p90 suppressed on every third row', () => {
    const p = join(dir, 'PROV - SIC07 Industry (2) SIC2007 Table 4.1a   Weekly pay - Gross 2023.xlsx');
    writeFileSync(p, asheWorkbook({ rows: industryRows(), table: '4', sub: '1', year: 2023, bookType: 'xlsx' }));
    const f = readAsheFile(p);
    expect([f.table.family, f.measure, f.year]).toEqual(['industry', 'weekly_gross', 2023]);
    const all = f.rows.filter((r) => r.population === 'all');
    const spec = industryRows();
    expect(all.length).toBe(spec.length - 1); // 'All employees' has no code
    expect(f.uncoded).toBe(9 * 2); // All employees + Not Classified, per sheet
    expect(all.filter((r) => r.level === 'section').length).toBe(21);
    // row index i of the generator = position in industryRows(); compare with its own formula
    const i = spec.findIndex((r) => r.code === 'C');
    const want = rowValues(i, 'All', '1', 2023);
    const c = all.find((r) => r.code === 'C')!;
    expect(c.values.median).toBe(want[1] === 'x' ? null : want[1]);
    expect(c.values.p10).toBe(want[5] === 'x' ? null : want[5]);
  });

  it('Table 14 (.xls): SOC levels by digits', () => {
    const p = join(dir, 'Occupation SOC20 (4) Table 14.5a   Hourly pay - Excluding overtime 2022.xls');
    writeFileSync(p, asheWorkbook({ rows: occupationRows(), table: '14', sub: '5', year: 2022 }));
    const f = readAsheFile(p);
    expect(f.measure).toBe('hourly_excluding_overtime');
    const levels = new Map<string, number>();
    for (const r of f.rows.filter((x) => x.population === 'male')) levels.set(r.level, (levels.get(r.level) ?? 0) + 1);
    expect(Object.fromEntries(levels)).toEqual({ major: 9, sub_major: 18, minor: 36, unit: 108 });
  });

  it('refuses a table whose header lacks a percentile, and a file that is not ASHE', () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Table 8.7a   Annual pay - Gross (£) - For all employee jobsa: United Kingdom, 2020'], [], [], [],
      ['Description', 'Code', '(thousand)', 'Median', 'change', 'Mean', 'change', 10, 20, 25, 30, 40, 60, 70, 75, 80]]), 'All');
    const p = join(dir, 'Home Geography Table 8.7a   Annual pay - Gross 2020.xlsx');
    writeFileSync(p, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    expect(() => readAsheFile(p)).toThrow(/header lacks p90/);
    const q = join(dir, 'notes.xlsx');
    writeFileSync(q, XLSX.write(wbWith('Sheet1'), { type: 'buffer', bookType: 'xlsx' }));
    expect(() => readAsheFile(q)).toThrow(/no sheet named like All/);
  });
});

function wbWith(name: string): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['x']]), name);
  return wb;
}

describe('a file that is not an ASHE table (issue 37: no JavaScript internals in the message)', () => {
  it('says what the file is, and what to give instead', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-ashe-bad-'));
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ['renamed.xls', '<?xml version="1.0"?><FHRSEstablishment><Header/></FHRSEstablishment>', /^renamed\.xls: not a spreadsheet: it is XML text; give an ONS ASHE table/],
      ['page.xls', '<!DOCTYPE html><html><body>Not found</body></html>', /^page\.xls: not a spreadsheet: it is an HTML page; give an ONS ASHE table/],
      ['garbage.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8]), /^garbage\.xlsx: a zip that is not a readable \.xlsx workbook/],
    ];
    for (const [name, body, want] of cases) {
      const path = join(dir, name);
      writeFileSync(path, body);
      let message = '';
      try {
        readAsheFile(path);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, name).toMatch(want);
      expect(message, name).not.toMatch(/Cannot read properties|undefined|TypeError/);
    }
  });
});

