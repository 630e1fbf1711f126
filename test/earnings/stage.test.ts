/**
 * The staging CSV (stage.ts) read back by DuckDB with the load's own read_csv options gives every field
 * as the parsed file had it: quotes and commas in names, NULLs, markers JSON, empty suppressed lists,
 * doubles to the last bit. Expected values are the input row objects themselves (built here by hand).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableInfo } from '../../src/domains/earnings/codes.js';
import { EARNINGS_DDL } from '../../src/domains/earnings/sync/index.js';
import { VALUE_FIELDS, type AsheFile, type AsheRow } from '../../src/domains/earnings/sync/sheet.js';
import { STAGE_CSV_OPTIONS, stageFile } from '../../src/domains/earnings/sync/stage.js';

const blank = () => Object.fromEntries(VALUE_FIELDS.map((f) => [f, null])) as AsheRow['values'];

describe('earnings staging CSV', () => {
  it('reads back exactly through read_csv with the load options', async () => {
    const a: AsheRow = { population: 'all', line: 6, seq: 0, code: 'C10', name: 'Manufacture of "food", products, etc', level: 'division',
      values: { ...blank(), median: 0.1 + 0.2, mean: 123456.789, p10: -1e-7, jobs_thousands: 1234.5 }, suppressed: ['p90'], markers: { p90: 'x', mean_change: '..' } };
    const b: AsheRow = { population: 'male', line: 7, seq: 1, code: 'C', name: 'Manufacturing', level: 'section', values: blank(), suppressed: [], markers: {} };
    const f: AsheFile = { table: tableInfo('4')!, measure: 'annual_gross', year: 2022, rows: [a, b], rejects: [], uncoded: 0, sheets: ['All', 'Male'] };
    const s = stageFile(f, 'revised', 'Table 4.7a "x".xlsx');
    expect(s.rowCount).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'pd-earn-stage-'));
    try {
      writeFileSync(join(dir, 's.csv'), s.csv);
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      await c.run(EARNINGS_DDL);
      const cols = [...EARNINGS_DDL.matchAll(/^\s+(\w+)\s+(VARCHAR|INTEGER|DOUBLE)\b/gm)].map((m) => `'${m[1]}': '${m[2]}'`).join(', ');
      await c.run(`INSERT INTO earnings SELECT * FROM read_csv('${join(dir, 's.csv')}', ${STAGE_CSV_OPTIONS}, columns = {${cols}})`);
      const rows = (await c.runAndReadAll('SELECT * FROM earnings ORDER BY seq')).getRowObjectsJS();
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ family: 'industry', ons_table: '4', year: 2022, basis: null, population: 'all', measure: 'annual_gross',
        code: 'C10', name: a.name, level: 'division', seq: 0, median: 0.1 + 0.2, mean: 123456.789, p10: -1e-7, jobs_thousands: 1234.5,
        p90: null, mean_change: null, status: 'revised', suppressed: 'p90', soc_version: null, source_file: 'Table 4.7a "x".xlsx' });
      expect(JSON.parse(String(rows[0]!.markers))).toEqual({ p90: 'x', mean_change: '..' });
      expect(rows[1]).toMatchObject({ name: 'Manufacturing', suppressed: '', markers: '{}', median: null, population: 'male' });
      c.closeSync();
      db.closeSync();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
