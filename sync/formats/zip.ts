/**
 * The shared streaming zip reader for sync modules (companies, psc, mot, road-traffic, ...).
 *
 * Built on yauzl (random access through the central directory: zip64, stored and deflate members,
 * entry sizes validated), see docs/mirror.md "Zip files". Members are written to a directory one at a
 * time, so temporary disk stays at about one member; each member's CRC-32 is checked while it streams.
 * DuckDB cannot read inside a zip, so loaders extract a member, load it, and move on.
 *
 * For many small members (accounts: one document per filing) there is also random access without the
 * streams: `listEntries` reads the central directory only, and `readEntry` inflates one member from its
 * offset into memory (CRC-32 and size checked), from a file descriptor or an in-memory zip. That lets
 * worker threads inflate their own members while the main thread only walks the directory.
 *
 * Not readable here (clear ZipError, never a half-extracted file): Deflate64 (method 9, used by some DVSA
 * MOT zips), bzip2/LZMA/zstd members and encrypted members. The message tells the user to unzip the file
 * with another tool and pass the member with `--from`.
 */
import { close, createWriteStream, closeSync, fstatSync, mkdirSync, openSync, read, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/** One member of a zip (directories and junk excluded). */
export interface ZipMember {
  /** Path inside the zip, `/`-separated. */
  name: string;
  /** Uncompressed and compressed sizes in bytes (zip64 sizes included). */
  size: number;
  compressedSize: number;
  /** Zip compression method: 0 stored, 8 deflate, 9 Deflate64, 12 bzip2, 14 LZMA, 93 zstd, ... */
  method: number;
}

/** Readable compression methods. */
const READABLE = new Set([0, 8]);
const METHOD_NAMES: Record<number, string> = { 1: 'Shrink', 6: 'Implode', 9: 'Deflate64', 12: 'bzip2', 14: 'LZMA', 93: 'Zstandard', 95: 'XZ', 98: 'PPMd' };

/** True for entries that are not data: directories, macOS resource forks (`__MACOSX/`, `._*`), `.DS_Store`, `Thumbs.db`. */
export function isJunkMember(name: string): boolean {
  if (name.endsWith('/')) return true;
  const parts = name.split('/');
  const leaf = parts[parts.length - 1] ?? '';
  return parts.includes('__MACOSX') || leaf.startsWith('._') || leaf === '.DS_Store' || leaf === 'Thumbs.db';
}

/** True when the file starts with a zip signature (local file header, or the end record of an empty zip). */
export function isZipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(4);
    const n = readSync(fd, b, 0, 4, 0);
    return n === 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
  } finally {
    closeSync(fd);
  }
}

/**
 * yauzl's reader of a zip file, with reads served from a block cache. yauzl's own file reader makes two
 * `fs.read` calls per central-directory record (the fixed part, then the name and extra fields): for a
 * daily accounts zip of 10,000 members that was 20,000 reads and 0.76 s of the main thread, against
 * 0.17 s for the same directory from memory (measured). Here a read outside the cached block reads the
 * 64 KiB (or more) from that position, so the directory, read front to back, costs a few dozen reads.
 * yauzl documents `read` as an optional override for subclasses of RandomAccessReader.
 *
 * Only for `listEntries`, whose members are read by offset (`readEntry`), never through yauzl's streams:
 * `_readStreamForRange` refuses. (A stream over the shared descriptor with fs.createReadStream would not
 * do: destroying an fs.ReadStream closes its descriptor even with autoClose off.)
 */
class BlockReader extends yauzl.RandomAccessReader {
  private block: Buffer = Buffer.alloc(0);
  private blockStart = 0;
  constructor(private readonly fd: number) {
    super();
  }
  override _readStreamForRange(): Readable {
    throw new Error('BlockReader reads the central directory only; members are read with readEntry');
  }
  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    const from = position - this.blockStart;
    if (from >= 0 && from + length <= this.block.length) {
      this.block.copy(buffer, offset, from, from + length);
      queueMicrotask(() => callback(null, length));
      return;
    }
    const block = Buffer.allocUnsafe(Math.max(length, 1 << 16));
    read(this.fd, block, 0, block.length, position, (err, n) => {
      if (err) return callback(err);
      this.block = block.subarray(0, n);
      this.blockStart = position;
      const got = Math.min(n, length);
      this.block.copy(buffer, offset, 0, got);
      callback(null, got); // fewer bytes than asked: yauzl reports "unexpected EOF"
    });
  }
  override close(callback: (err: Error | null) => void): void {
    close(this.fd, callback);
  }
}

/** A zip file opened with yauzl; `directoryOnly` (listEntries): through a BlockReader, no member streams. */
async function openZip(path: string, directoryOnly = false): Promise<ZipFile> {
  // lazyEntries: read the central directory entry by entry; autoClose off: we close it ourselves.
  const options = { autoClose: false, lazyEntries: true, validateEntrySizes: true, strictFileNames: false };
  let fd: number | undefined;
  try {
    if (!directoryOnly) return await yauzl.openPromise(path, options);
    fd = openSync(path, 'r');
    return await yauzl.fromRandomAccessReaderPromise(new BlockReader(fd), fstatSync(fd).size, options);
  } catch (e) {
    if (fd !== undefined) closeSync(fd); // as yauzl.open does when the directory cannot be read
    throw new ZipError(
      `${basename(path)} is not a readable zip file (${(e as Error).message}); it may be truncated or corrupt. ` +
        'Delete it and download it again, or check the file you passed to --from.',
    );
  }
}

function unreadable(zipName: string, e: Entry): ZipError {
  const method = e.compressionMethod;
  if ((e.generalPurposeBitFlag & 1) !== 0) {
    return new ZipError(`${zipName}: member ${e.fileName} is encrypted; publicdata cannot read encrypted zip members`);
  }
  const what = METHOD_NAMES[method] ? `${METHOD_NAMES[method]} (method ${method})` : `compression method ${method}`;
  return new ZipError(
    `${zipName}: member ${e.fileName} is compressed with ${what}, which publicdata cannot read (it reads stored and deflate members). ` +
      `Unzip the file with a tool that supports it (for example 7-Zip: 7z x ${zipName}) and run the sync with --from <the extracted ${basename(e.fileName)}>.`,
  );
}

const toMember = (e: Entry): ZipMember => ({ name: e.fileName, size: e.uncompressedSize, compressedSize: e.compressedSize, method: e.compressionMethod });

/** The data members of a zip (junk skipped), in central-directory order. */
export async function listZip(path: string): Promise<ZipMember[]> {
  const zip = await openZip(path);
  try {
    const out: ZipMember[] = [];
    for await (const e of entries(zip, path)) if (!isJunkMember(e.fileName)) out.push(toMember(e));
    return out;
  } finally {
    zip.close();
  }
}

async function* entries(zip: ZipFile, path: string): AsyncGenerator<Entry> {
  try {
    for await (const e of zip.eachEntry()) yield e;
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError(`${basename(path)}: corrupt zip directory (${(e as Error).message}); delete it and download it again`);
  }
}

export interface ExtractOptions {
  /** Which members to extract (by zip path); junk members are always skipped. */
  filter?: (member: ZipMember) => boolean;
  /** Keep each extracted file after the consumer moves on (default: delete it, so disk holds one member). */
  keep?: boolean;
}

/** One extracted member: its zip entry and the path of the extracted file. */
export interface ExtractedMember extends ZipMember {
  path: string;
}

/**
 * Extract the members one at a time into `destDir` (file name = the member's base name) and yield each
 * when it is complete and its CRC-32 checked. Advancing the iterator deletes the previous file unless
 * `keep`; breaking out of the loop or an error also deletes it. A member with an unreadable method throws
 * ZipError before anything of it is written.
 */
export async function* extractMembers(zipPath: string, destDir: string, opts: ExtractOptions = {}): AsyncGenerator<ExtractedMember> {
  const zipName = basename(zipPath);
  const zip = await openZip(zipPath);
  mkdirSync(destDir, { recursive: true });
  let current: string | undefined;
  const drop = () => {
    if (current && !opts.keep) rmSync(current, { force: true });
    current = undefined;
  };
  try {
    for await (const e of entries(zip, zipPath)) {
      if (isJunkMember(e.fileName)) continue;
      const member = toMember(e);
      if (opts.filter && !opts.filter(member)) continue;
      if (!READABLE.has(e.compressionMethod) || (e.generalPurposeBitFlag & 1) !== 0) throw unreadable(zipName, e);
      drop();
      const dest = join(destDir, basename(e.fileName));
      const part = `${dest}.part`;
      await extractOne(zip, e, part, zipName);
      renameSync(part, dest);
      current = dest;
      yield { ...member, path: dest };
    }
  } finally {
    drop();
    zip.close();
  }
}

/**
 * Inflate member `e` into `dest`, checking its size and CRC-32 at the end (ZipError on a mismatch or an
 * unreadable member). With `destDir`, a failure on the writing side (a full disk, a quota, a read-only
 * folder) is said as such, naming the folder: it is not the zip's fault.
 */
async function copyMember(zip: ZipFile, e: Entry, dest: NodeJS.WritableStream, zipName: string, destDir?: string): Promise<void> {
  let crc = 0;
  let bytes = 0;
  const check = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      crc = crc32(chunk, crc);
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    await pipeline(await zip.openReadStreamPromise(e), check, dest);
  } catch (err) {
    const x = err as NodeJS.ErrnoException;
    if (destDir !== undefined && (x.syscall === 'write' || x.syscall === 'open' || ['ENOSPC', 'EDQUOT', 'EROFS', 'EFBIG'].includes(x.code ?? ''))) {
      const why = x.code === 'ENOSPC' || x.code === 'EDQUOT' ? 'the disk is full' : `${x.code ?? x.message}`;
      throw new Error(
        `${zipName}: could not write member ${e.fileName} (${(e.uncompressedSize / 1e6).toFixed(1)} MB unpacked) to ${destDir}: ${why} (${x.code ?? x.message}); free space there or point PUBLICDATA_CACHE_DIR at a larger disk. The zip itself is not at fault.`,
      );
    }
    throw new ZipError(`${zipName}: member ${e.fileName} could not be read (${x.message}); the zip may be truncated or corrupt`);
  }
  if (bytes !== e.uncompressedSize || crc >>> 0 !== e.crc32 >>> 0) {
    throw new ZipError(`${zipName}: member ${e.fileName} failed its CRC-32 check; the zip is corrupt, download it again`);
  }
}

async function extractOne(zip: ZipFile, e: Entry, dest: string, zipName: string): Promise<void> {
  try {
    await copyMember(zip, e, createWriteStream(dest), zipName, dirname(dest));
  } catch (err) {
    rmSync(dest, { force: true });
    throw err;
  }
}

/** Extract every data member into `destDir` and keep them all (small zips, tests). Returns the paths. */
export async function extractAll(zipPath: string, destDir: string, filter?: ExtractOptions['filter']): Promise<ExtractedMember[]> {
  const out: ExtractedMember[] = [];
  for await (const m of extractMembers(zipPath, destDir, { keep: true, ...(filter ? { filter } : {}) })) out.push(m);
  return out;
}

/**
 * The data files behind a list of downloaded files: a zip yields its members one at a time (extracted
 * into `workDir`, deleted when the next is asked for), any other file is yielded as it is.
 */
export async function* dataFiles(
  files: ReadonlyArray<{ path: string; name: string }>,
  workDir: string,
  filter?: ExtractOptions['filter'],
): AsyncGenerator<{ path: string; name: string; from: string }> {
  for (const f of files) {
    if (!isZipFile(f.path)) {
      yield { path: f.path, name: f.name, from: f.name };
      continue;
    }
    const members = await listZip(f.path);
    if (!members.some((m) => !filter || filter(m))) {
      throw new ZipError(`${f.name} holds no usable file (members: ${members.map((m) => m.name).join(', ') || 'none'})`);
    }
    for await (const m of extractMembers(f.path, workDir, filter ? { filter } : {})) {
      yield { path: m.path, name: basename(m.name), from: f.name };
    }
  }
}

/** A member located in its zip: what `readEntry` needs to inflate it without the central directory. */
export interface ZipEntry extends ZipMember {
  /** Offset of the member's local file header. */
  offset: number;
  crc32: number;
}

/**
 * The data members of a zip (junk skipped, `filter` applied) with their offsets, in central-directory
 * order, as the directory is read. A member with a method or flag this reader cannot handle throws
 * ZipError when it is reached. `zip` is a path or an in-memory zip (a nested one).
 */
export async function* listEntries(zip: string | Buffer, filter?: (m: ZipMember) => boolean, label?: string): AsyncGenerator<ZipEntry> {
  const name = label ?? (typeof zip === 'string' ? basename(zip) : 'zip');
  let z: ZipFile;
  if (typeof zip === 'string') z = await openZip(zip, true);
  else {
    try {
      z = await yauzl.fromBufferPromise(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
    } catch (e) {
      throw new ZipError(`${name} is not a readable zip file (${(e as Error).message})`);
    }
  }
  try {
    for await (const e of entries(z, name)) {
      if (isJunkMember(e.fileName)) continue;
      const member = toMember(e);
      if (filter && !filter(member)) continue;
      if (!READABLE.has(e.compressionMethod) || (e.generalPurposeBitFlag & 1) !== 0) throw unreadable(name, e);
      yield { ...member, offset: e.relativeOffsetOfLocalHeader, crc32: e.crc32 };
    }
  } finally {
    z.close();
  }
}

/** Entries in a zip's central directory, from its end record alone (junk entries included). */
export async function countEntries(path: string): Promise<number> {
  const z = await openZip(path, true);
  const n = z.entryCount;
  z.close();
  return n;
}

/**
 * One member's bytes, inflated in memory from its local header at `entry.offset` (the sizes and CRC-32
 * come from the central directory, so zip64 and data descriptors need nothing here). `src` is an open
 * file descriptor of the zip or the zip itself in memory. Throws ZipError on any mismatch.
 */
export function readEntry(src: number | Buffer, entry: ZipEntry, zipName: string): Buffer {
  const read = (pos: number, len: number): Buffer => {
    if (typeof src !== 'number') {
      if (pos + len > src.length) throw new ZipError(`${zipName}: member ${entry.name} runs past the end of the zip`);
      return src.subarray(pos, pos + len);
    }
    const b = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = readSync(src, b, got, len - got, pos + got);
      if (n === 0) throw new ZipError(`${zipName}: member ${entry.name} runs past the end of the zip; it may be truncated`);
      got += n;
    }
    return b;
  };
  const head = read(entry.offset, 30);
  if (head.readUInt32LE(0) !== 0x04034b50) throw new ZipError(`${zipName}: member ${entry.name} has no local header at its offset; the zip is corrupt`);
  const start = entry.offset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  const raw = read(start, entry.compressedSize);
  let out: Buffer;
  try {
    out = entry.method === 0 ? raw : inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) });
  } catch (e) {
    throw new ZipError(`${zipName}: member ${entry.name} could not be inflated (${(e as Error).message}); the zip may be corrupt`);
  }
  if (out.length !== entry.size || crc32(out) >>> 0 !== entry.crc32 >>> 0) {
    throw new ZipError(`${zipName}: member ${entry.name} failed its CRC-32 check; the zip is corrupt, download it again`);
  }
  return out;
}

/**
 * Stream one member (found by `pick`) into `dest`, inflating as it goes: nothing of it is written to disk
 * here (the postcode directory's 2.5 GB national CSV goes through a FIFO into DuckDB, sync/formats/fifo.ts).
 * Its CRC-32 and size are checked at the end; a mismatch or a truncated zip rejects with ZipError (the
 * reader of `dest` has then seen a short file: the caller must fail its load on this rejection).
 */
export async function pipeMember(zipPath: string, pick: (m: ZipMember) => boolean, dest: NodeJS.WritableStream): Promise<ZipMember> {
  const zipName = basename(zipPath);
  const zip = await openZip(zipPath);
  try {
    for await (const e of entries(zip, zipPath)) {
      if (isJunkMember(e.fileName) || !pick(toMember(e))) continue;
      if (!READABLE.has(e.compressionMethod) || (e.generalPurposeBitFlag & 1) !== 0) throw unreadable(zipName, e);
      await copyMember(zip, e, dest, zipName);
      return toMember(e);
    }
    throw new ZipError(`${zipName}: no member to read`);
  } finally {
    zip.close();
  }
}

/** The first bytes of a member (at most `max`, default 64 KiB, inflated): a CSV's header line, without reading the rest. */
export async function memberHead(zipPath: string, name: string, max = 65536): Promise<Buffer> {
  const zip = await openZip(zipPath);
  try {
    for await (const e of entries(zip, zipPath)) {
      if (e.fileName !== name) continue;
      if (!READABLE.has(e.compressionMethod) || (e.generalPurposeBitFlag & 1) !== 0) throw unreadable(basename(zipPath), e);
      const stream: Readable = await zip.openReadStreamPromise(e);
      const parts: Buffer[] = [];
      let n = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        parts.push(chunk);
        n += chunk.length;
        if (n >= max || chunk.includes(10)) break;
      }
      stream.destroy();
      return Buffer.concat(parts).subarray(0, max);
    }
    throw new ZipError(`${basename(zipPath)}: no member ${name}`);
  } finally {
    zip.close();
  }
}
