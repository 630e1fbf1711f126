/**
 * A full disk while a zip's member is extracted is reported as a full disk, naming the folder and the fix,
 * not as a corrupt zip (issue 37: "a full disk during crime extraction is reported as a corrupt zip").
 * The member's temp file is a link to /dev/full, whose every write fails with ENOSPC.
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAll } from '../../sync/formats/zip.js';
import { writeZip } from '../support/zip.js';

describe.skipIf(!existsSync('/dev/full'))('extraction on a full disk', () => {
  it('says the disk is full, where, and that the zip is not at fault', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-zipfull-'));
    const zip = join(dir, 'crime.zip');
    await writeZip(zip, [{ name: '2026-09/2026-09-kent-street.csv', data: Buffer.from('Crime ID,Month\n'.repeat(2000)) }]);
    const out = join(dir, 'extract');
    mkdirSync(out);
    symlinkSync('/dev/full', join(out, '2026-09-kent-street.csv.part'));
    await expect(extractAll(zip, out)).rejects.toThrow(
      /^crime\.zip: could not write member 2026-09\/2026-09-kent-street\.csv \(0\.0 MB unpacked\) to .*extract: the disk is full \(ENOSPC\); free space there or point PUBLICDATA_CACHE_DIR at a larger disk\. The zip itself is not at fault\.$/,
    );
  });
});
