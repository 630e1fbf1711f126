/**
 * Issue 37, memory before rejection: a file that is not its reader's format is refused after a bounded
 * read (sync/formats/bounds.ts; limits in docs/mirror.md). Small limits are injected rather than huge files
 * made: a line past the limit is refused as soon as it passes it; a spreadsheet member that would unpack
 * past the limit is refused from the zip's central directory, before SheetJS inflates anything.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkbookMembers, READER_LIMITS, sampleLines } from '../../sync/formats/bounds.js';
import { checkPricePaidFile } from '../../src/domains/property/sync/price-paid.js';
import { readAsheBytes } from '../../src/domains/earnings/sync/sheet.js';
import { MalformedFileError, parseAuthorityFile, textRun } from '../../src/domains/food-hygiene/sync/parse.js';
import { syncDataset } from '../../src/sync-runner.js';
import { buildZip } from '../support/zip.js';
import { fixture } from '../property/ppd-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-bounds-'));
const file = (name: string, data: string | Buffer): string => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

describe('a line has a limit', () => {
  it('a file with no line end is refused once the limit is passed, naming the line', () => {
    const p = file('one-line.csv', 'x'.repeat(200_000));
    expect(() => sampleLines(p, 'one-line.csv', 10, { lineBytes: 1024 })).toThrow('one-line.csv: line 1 is longer than 1 KiB (the limit of a line)');
    // within the limit, the lines are read (the last one without its line end too)
    expect(sampleLines(file('ok.csv', 'a,b\r\nc,d\ne'), 'ok.csv', 10, { lineBytes: 1024 })).toEqual(['a,b', 'c,d', 'e']);
    // a long line after short ones: the count says which
    expect(() => sampleLines(file('third.csv', `a\nb\n${'y'.repeat(5000)}\n`), 'third.csv', 10, { lineBytes: 4096 })).toThrow('third.csv: line 3 is longer than 4 KiB');
  });

  it('price-paid: garbage is refused from its first lines; the real file passes', () => {
    const garbage = file('garbage.csv', Array.from({ length: 500 }, (_, i) => `${i},lorem ipsum,${'z'.repeat(i % 50)}`).join('\n'));
    expect(() => checkPricePaidFile(garbage, 'garbage.csv')).toThrow(/garbage\.csv: 100 of its first 100 lines are not price-paid rows .*: not a price-paid CSV/);
    const long = file('long.csv', 'q'.repeat(300_000));
    expect(() => checkPricePaidFile(long, 'long.csv', { lineBytes: 64 * 1024 })).toThrow('long.csv: line 1 is longer than 64 KiB');
    expect(() => checkPricePaidFile(fixture('pp-complete.csv'), 'pp-complete.csv')).not.toThrow();
  });

  it('sync price-paid --from garbage fails on the bounded check, not after loading it', async () => {
    const garbage = file('pp-2025.csv', Array.from({ length: 2000 }, (_, i) => `row ${i}: not a transaction`).join('\n'));
    await expect(syncDataset('price-paid', { mirrorDir: join(dir, 'mirror'), cacheDir: join(dir, 'cache'), env: {}, from: garbage })).rejects.toThrow(
      /pp-2025\.csv: 100 of its first 100 lines are not price-paid rows/,
    );
  });
});

describe('a spreadsheet member has a limit', () => {
  it('a member that unpacks past the limit is refused from the central directory; within it, it passes', async () => {
    const xlsx = await buildZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/worksheets/sheet1.xml', data: `<c><v>${'9'.repeat(2 * 1024 * 1024)}</v></c>` },
    ]);
    expect(xlsx.length).toBeLessThan(100_000); // one 2 MiB cell, deflated
    expect(() => checkWorkbookMembers(xlsx, 'one-cell.xlsx', { memberBytes: 1024 * 1024, unpackedBytes: 8 * 1024 * 1024 })).toThrow(
      /one-cell\.xlsx: its member xl\/worksheets\/sheet1\.xml unpacks to 2\.0 MiB, more than the 1 MiB a spreadsheet member may/,
    );
    expect(() => checkWorkbookMembers(xlsx, 'one-cell.xlsx', { memberBytes: 4 * 1024 * 1024, unpackedBytes: 2 * 1024 * 1024 })).toThrow(
      'one-cell.xlsx: its members unpack to more than 2 MiB together',
    );
    expect(() => checkWorkbookMembers(xlsx, 'one-cell.xlsx')).not.toThrow();
    expect(() => checkWorkbookMembers(Buffer.from('not a zip'), 'x.xls', { memberBytes: 1, unpackedBytes: 1 })).not.toThrow();
  });

  it('an ASHE workbook whose sheet would unpack to 300 MB is refused before SheetJS reads it', async () => {
    const xlsx = await buildZip([{ name: 'xl/worksheets/sheet1.xml', data: '<c/>' }]);
    // the central directory's uncompressed size of the member, as a 413 KB file with one 300 MB cell states it
    const cd = xlsx.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    xlsx.writeUInt32LE(300_000_000, cd + 24);
    expect(300_000_000).toBeGreaterThan(READER_LIMITS.memberBytes);
    expect(() => readAsheBytes(xlsx, 'Table 7.7a 2025.xlsx')).toThrow(/its member xl\/worksheets\/sheet1\.xml unpacks to 286\.1 MiB, more than the 64 MiB/);
  });
});

describe('an XML field has a limit', () => {
  it('FSA: a text of more characters than the limit is refused before the parser holds it; a real file passes', async () => {
    const big = file('FHRS999en-GB.xml', `<?xml version="1.0"?><FHRSEstablishment><Header><ExtractDate>${'7'.repeat(5000)}</ExtractDate></Header></FHRSEstablishment>`);
    const err = await parseAuthorityFile(big, () => undefined, { fieldChars: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedFileError);
    expect((err as Error).message).toBe('a text of more than 1000 characters without markup (the limit of a field): not an FSA file');
    const ok = await parseAuthorityFile(big, () => undefined, { fieldChars: 10_000 });
    expect(ok.count).toBe(0);
    // the runs are counted across chunks and inside a chunk longer than the limit
    expect(textRun('abc', 5, 10)).toBe(8);
    expect(() => textRun('abcdef', 5, 10)).toThrow('a text of more than 10 characters');
    expect(() => textRun(`<a>${'x'.repeat(20)}<b>`, 0, 10)).toThrow('a text of more than 10 characters');
    expect(textRun('xx<a>yyy', 3, 10)).toBe(5); // counted from the last '<' (a tag's own characters are few)
  });
});
