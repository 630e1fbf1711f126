/**
 * Issue 37, memory before rejection: a file that is not its reader's format is refused after a bounded
 * read (sync/formats/bounds.ts; limits in docs/mirror.md). Small limits are injected rather than huge files
 * made: a line past the limit is refused as soon as it passes it; a spreadsheet member that would unpack
 * past the limit is refused from the zip's central directory, before SheetJS inflates anything.
 */
import { describe, expect, it } from 'vitest';
import { scratchFiles } from '../support/mirror-helper.js';
import { checkWorkbookMembers, sampleLines } from '../../sync/formats/bounds.js';
import { buildZip } from '../support/zip.js';

const file = scratchFiles('pd-bounds-');

describe('a line has a limit', () => {
  it('a file with no line end is refused once the limit is passed, naming the line', () => {
    const p = file('one-line.csv', 'x'.repeat(200_000));
    expect(() => sampleLines(p, 'one-line.csv', 10, { lineBytes: 1024 })).toThrow('one-line.csv: line 1 is longer than 1 KiB (the limit of a line)');
    // within the limit, the lines are read (the last one without its line end too)
    expect(sampleLines(file('ok.csv', 'a,b\r\nc,d\ne'), 'ok.csv', 10, { lineBytes: 1024 })).toEqual(['a,b', 'c,d', 'e']);
    // a long line after short ones: the count says which
    expect(() => sampleLines(file('third.csv', `a\nb\n${'y'.repeat(5000)}\n`), 'third.csv', 10, { lineBytes: 4096 })).toThrow('third.csv: line 3 is longer than 4 KiB');
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

});

// each reader's own bound (price-paid's first lines, the ASHE workbook, an FSA field): test/property, test/earnings and
// test/food-hygiene reader-bounds.test.ts
