/**
 * restoreRetired after an unpartitioned table swap that stopped before its first rename: the table's own
 * non-data entries already moved into the hidden new directory go back; the unplaced new data files go.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreRetired, tableAside } from '../../src/mirror/export-write.js';
import { cleanup } from '../support/mirror-helper.js';

describe('restoreRetired', () => {
  it('puts back the non-data entries an unpartitioned swap had moved aside, and drops its unplaced data files', () => {
    const root = mkdtempSync(join(tmpdir(), 'pd-restore-'));
    try {
      const table = join(root, 'calendar', 'bank_holidays');
      mkdirSync(table, { recursive: true });
      writeFileSync(join(table, 'data_0.parquet'), 'old data');
      const pid = 4242;
      const fresh = tableAside(table, 'new', pid);
      mkdirSync(fresh);
      writeFileSync(join(fresh, 'data_0.parquet'), 'new data, never placed');
      writeFileSync(join(fresh, 'README.txt'), "the table's own note, moved aside");
      restoreRetired(table, pid);
      expect(readdirSync(table).sort()).toEqual(['README.txt', 'data_0.parquet']);
      expect([readFileSync(join(table, 'data_0.parquet'), 'utf8'), readFileSync(join(table, 'README.txt'), 'utf8')]).toEqual(['old data', "the table's own note, moved aside"]);
      expect(existsSync(fresh)).toBe(false);
    } finally {
      cleanup([root]);
    }
  });
});
