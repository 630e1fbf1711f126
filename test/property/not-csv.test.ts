/**
 * A file given as a CSV that is not CSV text is named for what it is (issue 37: "UTF-16 CSVs and a renamed
 * .xls are called incomplete"), before any completeness check, and the previous data is kept.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { incompleteReason, notCsvReason } from '../../sync/integrity.js';
import { runCli, isolatedEnv } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-notcsv-'));
const file = (name: string, bytes: Buffer): string => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};
const text = 'Transaction unique identifier,Price\n"{A}",100000\n';
const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16NoBom = Buffer.from(text, 'utf16le');
// the OLE2 compound-file signature every .xls starts with, then filler
const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, 0x20)]);

describe('notCsvReason', () => {
  it('names UTF-16 (with and without a BOM), a renamed .xls, and binary data; passes real CSV text', async () => {
    expect(notCsvReason(file('a.csv', utf16le), 'a.csv')).toMatch(/^it is UTF-16 text, not a CSV in UTF-8 or Latin-1: save it as "CSV UTF-8"/);
    expect(notCsvReason(file('b.csv', utf16NoBom), 'b.csv')).toMatch(/^it is UTF-16 text \(every other byte is NUL\)/);
    expect(notCsvReason(file('c.csv', xls), 'c.csv')).toMatch(/^it is an Excel \.xls workbook named as a CSV/);
    expect(notCsvReason(file('d.csv', Buffer.from('ab\0cdefghijklmnop\n')), 'd.csv')).toMatch(/^it holds binary data \(NUL bytes/);
    expect(notCsvReason(file('e.csv', Buffer.from(text, 'latin1')), 'e.csv')).toBeUndefined();
    // the completeness check does not call them incomplete
    await expect(incompleteReason(join(dir, "a.csv"), "a.csv")).resolves.toBeUndefined();
  });

  it('sync --from a UTF-16 CSV: one line saying what it is, exit non-zero, nothing loaded', async () => {
    const r = await runCli(['sync', 'price-paid', '--from', join(dir, 'a.csv')], { env: isolatedEnv() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`is not a CSV: it is UTF-16 text`);
    expect(r.stderr).not.toContain('incomplete');
    expect(r.stderr.trim().split('\n').filter((l) => /error|not a CSV/.test(l))).toHaveLength(1);
  });
});
