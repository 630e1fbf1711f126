/**
 * A GENERATED accounts zip with one corrupt member: `n` small accounts documents (company numbers
 * 9000000<i>…), member `corrupt` stored (not deflated) with one byte of its data flipped, so its CRC-32 no
 * longer matches the central directory's. The zip's directory itself is intact: only reading that member fails.
 */
import { expect } from 'vitest';
import { accountsDocument, memberName } from './accounts-gen.mjs';
import { buildZip } from '../support/zip.js';

export const corruptCompany = (corrupt: number) => `9${String(corrupt).padStart(7, '0')}`;

export async function zipWithCorruptMember(n: number, corrupt: number): Promise<Buffer> {
  const members = Array.from({ length: n }, (_, i) => {
    const company = corruptCompany(i);
    const data = accountsDocument({ company, name: `GENERATED ${i} LTD`, bsd: '2026-03-31', cur: { CurrentAssets: 100 + i, NetAssetsLiabilities: 100 + i } }) as string;
    return { name: memberName(company, '2026-03-31') as string, data, compress: i !== corrupt };
  });
  const zip = await buildZip(members);
  // the stored member's bytes sit after its 30-byte local header and its name (yazl writes no extra field)
  const name = Buffer.from(members[corrupt]!.name);
  const at = zip.indexOf(name) + name.length;
  expect(zip.readUInt32LE(at - name.length - 30)).toBe(0x04034b50);
  expect(zip.subarray(at, at + 20).toString()).toBe(members[corrupt]!.data.slice(0, 20));
  zip[at + 100] ^= 0xff;
  return zip;
}
