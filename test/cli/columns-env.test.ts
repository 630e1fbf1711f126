/**
 * COLUMNS is honoured when the terminal reports no size (issue 37, "Tables at 80 columns"): a pipe, a CI
 * log. The built binary, piped, with --format table: the table's border is as wide as COLUMNS says. The
 * table is `sql`'s (a command below the domains, answering with no mirror): a 200-character cell, so the
 * table is narrowed to exactly the width given.
 */
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalColumns } from '../../src/io.js';
import { isolatedEnv } from '../support/cli.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'publicdata.cjs');

describe('terminalColumns', () => {
  it('the terminal first, then COLUMNS when it is a sane whole number, then 100', () => {
    expect(terminalColumns(132, '80')).toBe(132);
    expect(terminalColumns(undefined, '80')).toBe(80);
    expect(terminalColumns(0, ' 60 ')).toBe(60);
    expect(terminalColumns(undefined, 'wide')).toBe(100);
    expect(terminalColumns(undefined, '5')).toBe(100);
    expect(terminalColumns(undefined, undefined)).toBe(100);
  });

  it('a piped table is drawn to COLUMNS', async () => {
    for (const cols of [60, 80]) {
      const r = await execa(process.execPath, [BIN, 'sql', "SELECT repeat('x', 200) AS a, 'b' AS b", '--format', 'table', '--no-color'], { env: { COLUMNS: String(cols), ...isolatedEnv() }, reject: false });
      expect(r.exitCode, r.stderr).toBe(0);
      const widest = Math.max(...r.stdout.split('\n').map((l) => [...l].length));
      expect(widest).toBeLessThanOrEqual(cols);
      // the cell is wider than any terminal: the table takes the whole width COLUMNS gives, no less
      expect(widest).toBe(cols);
    }
  });
});
