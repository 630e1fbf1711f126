/**
 * Build real zip files in tests with yazl (a well-kept zip writer by the author of yauzl): stored or
 * deflate members, zip64 records forced on request, plus byte-level patches for the cases no writer makes
 * on purpose (a member flagged Deflate64, a truncated file).
 */
import { writeFileSync } from 'node:fs';
import yazl from 'yazl';

export interface ZipEntrySpec {
  name: string;
  data: Buffer | string;
  /** Deflate (default) or store. */
  compress?: boolean;
  /** Write zip64 extra fields for this member (and zip64 end records), as writers do for > 4 GB. */
  zip64?: boolean;
}

export async function buildZip(entries: ZipEntrySpec[], opts: { zip64?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    zip.addBuffer(Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data), e.name, {
      compress: e.compress ?? true,
      forceZip64Format: e.zip64 ?? opts.zip64 ?? false,
      mtime: new Date('2026-11-01T00:00:00Z'),
    });
  }
  zip.end({ forceZip64Format: opts.zip64 ?? false, comment: '' });
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

export async function writeZip(path: string, entries: ZipEntrySpec[], opts: { zip64?: boolean } = {}): Promise<Buffer> {
  const buf = await buildZip(entries, opts);
  writeFileSync(path, buf);
  return buf;
}

/** Set the compression method of every member (local headers and central directory) to `method`. */
export function patchMethod(zip: Buffer, method: number): Buffer {
  const b = Buffer.from(zip);
  for (let i = 0; i + 4 <= b.length; i++) {
    const sig = b.readUInt32LE(i);
    if (sig === 0x04034b50) b.writeUInt16LE(method, i + 8);
    else if (sig === 0x02014b50) b.writeUInt16LE(method, i + 10);
  }
  return b;
}
