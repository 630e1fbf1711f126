/** Issue 37, memory before rejection (moved from test/sync/reader-bounds.test.ts): the ASHE workbook's members. */
import { describe, expect, it } from 'vitest';
import { READER_LIMITS } from '../../sync/formats/bounds.js';
import { readAsheBytes } from '../../src/domains/earnings/sync/sheet.js';
import { buildZip } from '../support/zip.js';

describe('a spreadsheet member has a limit', () => {
  it('an ASHE workbook whose sheet would unpack to 300 MB is refused before SheetJS reads it', async () => {
    const xlsx = await buildZip([{ name: 'xl/worksheets/sheet1.xml', data: '<c/>' }]);
    // the central directory's uncompressed size of the member, as a 413 KB file with one 300 MB cell states it
    const cd = xlsx.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    xlsx.writeUInt32LE(300_000_000, cd + 24);
    expect(300_000_000).toBeGreaterThan(READER_LIMITS.memberBytes);
    expect(() => readAsheBytes(xlsx, 'Table 7.7a 2025.xlsx')).toThrow(/its member xl\/worksheets\/sheet1\.xml unpacks to 286\.1 MiB, more than the 64 MiB/);
  });
});
