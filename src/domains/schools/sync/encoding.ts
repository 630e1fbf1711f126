/**
 * Upstream CSV encodings. GIAS's "all establishment data" is Windows-1252; Ofsted's management information is
 * read as Windows-1252 by third-party code, and the real excerpt is ASCII. Rule (docs/schools.md): a file that
 * is valid UTF-8 throughout (with or without BOM) is UTF-8; any other file is Windows-1252 (in which every byte
 * is a character, so nothing is lost). Both checks stream: memory stays flat in the file's size.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** True when every byte sequence of the file is valid UTF-8. */
export async function isUtf8File(path: string): Promise<boolean> {
  const dec = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) dec.decode(chunk as Buffer, { stream: true });
    dec.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * Bytes 0x80-0x9F of Windows-1252 (WHATWG Encoding Standard, index-windows-1252; the five unassigned bytes
 * map to the C1 control of the same value, as there). Node's TextDecoder('windows-1252') decodes these as
 * Latin-1 control characters on Node 20-22 (curly quotes would become U+0091-U+0094), so the mapping is applied
 * here over a Latin-1 decode (every other byte is the code point of the same value in both).
 */
const C1_TO_1252: readonly number[] = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
  0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];
const C1_RE = /[\u0080-\u009f]/g;
const c1 = (c: string): string => String.fromCharCode(C1_TO_1252[c.charCodeAt(0) - 0x80]!);

/** Windows-1252 bytes as a string (one byte, one character: a chunk boundary never splits a character). */
export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(C1_RE, c1);
}

/** Write `src` (Windows-1252) to `dest` as UTF-8. */
export async function windows1252ToUtf8(src: string, dest: string): Promise<void> {
  const out = createWriteStream(dest);
  const done = once(out, 'close');
  try {
    for await (const chunk of createReadStream(src, { highWaterMark: 1 << 20 })) {
      if (!out.write(decodeWindows1252(chunk as Buffer), 'utf8')) await once(out, 'drain');
    }
    out.end();
    await done;
  } catch (e) {
    out.destroy();
    throw e;
  }
}

/** A UTF-8 path for the file: the file itself when it is UTF-8, else a transcoded copy at `dest`. */
export async function asUtf8(src: string, dest: string): Promise<{ path: string; encoding: 'utf-8' | 'windows-1252' }> {
  if (await isUtf8File(src)) return { path: src, encoding: 'utf-8' };
  await windows1252ToUtf8(src, dest);
  return { path: dest, encoding: 'windows-1252' };
}
