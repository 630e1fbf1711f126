/**
 * Bounded memory before rejection (issue 37): a file that is not its reader's format is refused after
 * reading a bounded amount of it, never after its reader has pulled it into memory (garbage given as
 * price-paid took ~50x its size in RAM; a 413 KB .xlsx with one 300 MB cell peaked at 2 GB). The limits
 * are stated in docs/mirror.md "Limits of the readers"; tests inject small ones.
 *
 *  - `sampleLines`: the first lines of a text file, read in 64 KiB blocks; a line longer than the limit is
 *    refused as soon as the limit is passed (the buffer never holds more than the limit and one block).
 *  - `checkWorkbookMembers`: a spreadsheet that is a zip (xlsx, ods) is refused when one of its members, or
 *    all of them together, would unpack to more than the limits, read from the zip's central directory
 *    alone before SheetJS inflates anything (a cell lives in a member: the member limit bounds a cell).
 */
import { closeSync, openSync, readSync } from 'node:fs';

export interface ReaderLimits {
  /** Bytes of one line of a CSV or text file (a price-paid line is about 200 bytes). */
  lineBytes: number;
  /** Bytes one member of a spreadsheet zip may unpack to (the sheet XML holding every cell of a sheet). */
  memberBytes: number;
  /** Bytes all members of a spreadsheet zip may unpack to together. */
  unpackedBytes: number;
  /** Characters of XML text without markup (one field of an XML file: an FSA field is a few hundred). */
  fieldChars: number;
}

export const READER_LIMITS: ReaderLimits = {
  lineBytes: 64 * 1024,
  memberBytes: 64 * 1024 * 1024,
  unpackedBytes: 256 * 1024 * 1024,
  fieldChars: 1024 * 1024,
};

const mib = (n: number): string =>
  n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB` : n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;

/**
 * Up to `count` first lines of the file at `path` (without their line ends; a UTF-8 BOM dropped). Throws
 * when a line is longer than `limits.lineBytes`: memory is the limit plus one block, whatever the file.
 */
export function sampleLines(path: string, name: string, count: number, limits: Pick<ReaderLimits, 'lineBytes'> = READER_LIMITS): string[] {
  const fd = openSync(path, 'r');
  try {
    const block = Buffer.allocUnsafe(64 * 1024);
    const lines: string[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let pos = 0;
    for (;;) {
      const n = readSync(fd, block, 0, block.length, pos);
      if (n === 0) break;
      pos += n;
      const tooLong = (): Error =>
        new Error(`${name}: line ${lines.length + 1} is longer than ${mib(limits.lineBytes)} (the limit of a line): not a file of this format`);
      let start = 0;
      for (let i = 0; i < n; i++) {
        if (block[i] !== 0x0a) continue;
        if (pendingBytes + (i - start) > limits.lineBytes) throw tooLong();
        pending.push(Buffer.from(block.subarray(start, i)));
        lines.push(Buffer.concat(pending).toString('utf8').replace(/\r$/, ''));
        pending = [];
        pendingBytes = 0;
        start = i + 1;
        if (lines.length >= count) return strip(lines);
      }
      const rest = n - start;
      pendingBytes += rest;
      if (pendingBytes > limits.lineBytes) throw tooLong();
      if (rest > 0) pending.push(Buffer.from(block.subarray(start, n)));
    }
    if (pendingBytes > 0) lines.push(Buffer.concat(pending).toString('utf8'));
    return strip(lines);
  } finally {
    closeSync(fd);
  }
}

function strip(lines: string[]): string[] {
  if (lines[0]?.startsWith('\uFEFF')) lines[0] = lines[0].slice(1);
  return lines;
}

/**
 * Refuse a spreadsheet zip (xlsx, ods) whose members would unpack to more than the limits, from its
 * central directory (no member is inflated). Anything that is not a zip (an .xls, a text file) passes:
 * its reader reads at most the file. A member whose size is stored only in a zip64 field counts as over.
 */
export function checkWorkbookMembers(buf: Uint8Array, name: string, limits: Pick<ReaderLimits, 'memberBytes' | 'unpackedBytes'> = READER_LIMITS): void {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 22 || b.readUInt32LE(0) !== 0x04034b50) return;
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return; // no end record: SheetJS refuses it as not a readable zip
  const entries = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  let total = 0;
  for (let k = 0; k < entries && p + 46 <= b.length && b.readUInt32LE(p) === 0x02014b50; k++) {
    const size = b.readUInt32LE(p + 24);
    const nameLen = b.readUInt16LE(p + 28);
    const member = b.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const bytes = size === 0xffffffff ? Number.POSITIVE_INFINITY : size;
    if (bytes > limits.memberBytes) {
      throw new Error(`${name}: its member ${member} unpacks to ${Number.isFinite(bytes) ? mib(bytes) : 'more than 4 GiB'}, more than the ${mib(limits.memberBytes)} a spreadsheet member may (a cell or sheet that large is not a table this sync reads)`);
    }
    total += bytes;
    if (total > limits.unpackedBytes) {
      throw new Error(`${name}: its members unpack to more than ${mib(limits.unpackedBytes)} together, the limit of a spreadsheet: not a table this sync reads`);
    }
    p += 46 + nameLen + b.readUInt16LE(p + 30) + b.readUInt16LE(p + 32);
  }
}
