import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readlinkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractAll, extractMembers, isJunkMember, isZipFile, listEntries, listZip, readEntry, ZipError } from '../../../sync/formats/zip.js';
import { buildZip, patchMethod, writeZip } from '../../support/zip.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Open descriptors of this process, once yauzl's asynchronous close of a listing has run. */
/**
 * Descriptors this process holds on the test's own zip files (links under /proc/self/fd into `dir`): other
 * descriptors of the process (the runner's pipes, sockets) come and go and would make a count flaky.
 */
const countFds = (): number => {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) n++;
    } catch {
      // closed between the listing and the readlink
    }
  }
  return n;
};
/** The count once the descriptors the last operation released are closed (a close completes on a later tick: polled, at most 1 s). */
const openFds = async (): Promise<number> => {
  let n = countFds();
  for (let i = 0; i < 50 && n > 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
    n = countFds();
  }
  return n;
};

const csv = (n: number) => ['CompanyName,CompanyNumber', ...Array.from({ length: n }, (_, i) => `"CO ${i} LIMITED","${String(i).padStart(8, '0')}"`)].join('\n') + '\n';

describe('sync/formats/zip', () => {
  it('reads stored and deflate members, skipping __MACOSX and ._ junk', async () => {
    const a = csv(500);
    const b = csv(1200);
    const path = join(dir, 'mixed.zip');
    const buf = await writeZip(path, [
      { name: 'part1.csv', data: a, compress: false },
      { name: '__MACOSX/._part1.csv', data: 'junk' },
      { name: 'sub/part2.csv', data: b, compress: true },
      { name: 'sub/._part2.csv', data: 'junk' },
    ]);
    // the stored member's bytes appear verbatim in the zip; the deflated one's do not
    expect(buf.includes(Buffer.from(a))).toBe(true);
    expect(buf.includes(Buffer.from(b))).toBe(false);
    expect(isZipFile(path)).toBe(true);
    const list = await listZip(path);
    expect(list.map((m) => [m.name, m.method, m.size])).toEqual([
      ['part1.csv', 0, Buffer.byteLength(a)],
      ['sub/part2.csv', 8, Buffer.byteLength(b)],
    ]);
    const out = await extractAll(path, join(dir, 'out-mixed'));
    expect(out.map((m) => readFileSync(m.path, 'utf8'))).toEqual([a, b]);
    expect(readdirSync(join(dir, 'out-mixed')).sort()).toEqual(['part1.csv', 'part2.csv']);
  });

  it('extracts one member at a time: the previous file is gone when the next one is handed out', async () => {
    const path = join(dir, 'three.zip');
    await writeZip(path, [1, 2, 3].map((i) => ({ name: `m${i}.csv`, data: csv(i * 10) })));
    const dest = join(dir, 'one-at-a-time');
    const seen: string[][] = [];
    for await (const m of extractMembers(path, dest)) seen.push(readdirSync(dest).sort().concat(m.name));
    expect(seen).toEqual([['m1.csv', 'm1.csv'], ['m2.csv', 'm2.csv'], ['m3.csv', 'm3.csv']]);
    expect(readdirSync(dest)).toEqual([]);
    // breaking out early also cleans up
    for await (const _m of extractMembers(path, dest)) break;
    expect(readdirSync(dest)).toEqual([]);
  });

  it('reads zip64 archives (zip64 end records and extra fields)', async () => {
    const data = csv(3000);
    const path = join(dir, 'z64.zip');
    const buf = await writeZip(path, [{ name: 'big.csv', data, compress: true }, { name: 'raw.csv', data: 'x,y\n1,2\n', compress: false }], { zip64: true });
    // the zip64 end-of-central-directory record (0x06064b50) and locator (0x07064b50) are present
    expect(buf.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(buf.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
    const out = await extractAll(path, join(dir, 'out-z64'));
    expect(out.map((m) => [m.name, readFileSync(m.path, 'utf8')])).toEqual([['big.csv', data], ['raw.csv', 'x,y\n1,2\n']]);
  });

  it('refuses a Deflate64 member with a message that says to unzip it and use --from', async () => {
    const path = join(dir, 'd64.zip');
    writeFileSync(path, patchMethod(await buildZip([{ name: 'test_result_2023.csv', data: csv(50) }]), 9));
    expect((await listZip(path))[0]!.method).toBe(9);
    const dest = join(dir, 'out-d64');
    const err = await extractAll(path, dest).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipError);
    expect((err as Error).message).toMatch(/test_result_2023\.csv is compressed with Deflate64 \(method 9\)/);
    expect((err as Error).message).toMatch(/--from <the extracted test_result_2023\.csv>/);
    expect(existsSync(dest) ? readdirSync(dest) : []).toEqual([]);
  });

  it('a truncated zip fails with a clear error and leaves nothing behind', async () => {
    const full = await buildZip([{ name: 'a.csv', data: csv(2000) }]);
    const path = join(dir, 'cut.zip');
    writeFileSync(path, full.subarray(0, Math.floor(full.length / 2)));
    const err = await extractAll(path, join(dir, 'out-cut')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipError);
    expect((err as Error).message).toMatch(/cut\.zip is not a readable zip file .*truncated or corrupt/);
  });

  it('a corrupted stored member fails its CRC-32 check', async () => {
    const data = csv(300);
    const buf = await buildZip([{ name: 'a.csv', data, compress: false }]);
    const at = buf.indexOf(Buffer.from('CO 150 LIMITED'));
    buf[at] = 'X'.charCodeAt(0);
    const path = join(dir, 'crc.zip');
    writeFileSync(path, buf);
    await expect(extractAll(path, join(dir, 'out-crc'))).rejects.toThrow(/a\.csv failed its CRC-32 check/);
    expect(readdirSync(join(dir, 'out-crc'))).toEqual([]);
  });

  it('listEntries reads a central directory larger than its 64 KiB read blocks, and zip64, with the offsets readEntry needs', async () => {
    // 1,500 members with 150-character names: a directory of ~300 KB, so entries straddle block edges
    const members = Array.from({ length: 1500 }, (_, i) => ({ name: `docs/${'x'.repeat(130)}-${String(i).padStart(6, '0')}.html`, data: `<p>${i}</p>`, compress: i % 2 === 0 }));
    const path = join(dir, 'many.zip');
    const buf = await writeZip(path, members);
    const cdSize = buf.readUInt32LE(buf.length - 22 + 12); // end of central directory record: size of the directory
    expect(cdSize).toBeGreaterThan(4 * 65536);
    const fdsBefore = await openFds();
    // the directory is read in 64 KiB blocks: a few reads, not two per record (yauzl's own reader: ~3,000)
    const realRead = fs.read;
    let reads = 0;
    fs.read = ((...args: Parameters<typeof fs.read>) => {
      reads++;
      return (realRead as (...a: unknown[]) => void)(...args);
    }) as typeof fs.read;
    syncBuiltinESMExports(); // the module's `import { read } from 'node:fs'` sees the counting one
    const got = [];
    try {
      for await (const e of listEntries(path)) got.push(e);
    } finally {
      fs.read = realRead;
      syncBuiltinESMExports();
    }
    expect(got.map((e) => e.name)).toEqual(members.map((m) => m.name));
    expect(reads).toBeGreaterThan(2); // the counter saw the reads: more than the end record's one
    expect(reads).toBeLessThanOrEqual(Math.ceil(cdSize / 65536) + 2);
    const fd = openSync(path, 'r');
    try {
      for (const i of [0, 1, 750, 1499]) expect(readEntry(fd, got[i]!, 'many.zip').toString()).toBe(`<p>${i}</p>`);
    } finally {
      closeSync(fd);
    }
    // the descriptor is closed when the listing ends, and when it is left early
    for await (const _e of listEntries(path)) break;
    expect(await openFds()).toBe(fdsBefore);

    const z64 = join(dir, 'list-z64.zip');
    await writeZip(z64, [{ name: 'a.html', data: '<a/>' }, { name: 'b.xml', data: '<b/>', compress: false }], { zip64: true });
    const e64 = [];
    for await (const e of listEntries(z64)) e64.push([e.name, e.size, e.method]);
    expect(e64).toEqual([['a.html', 4, 8], ['b.xml', 4, 0]]);
  });

  it('listEntries of a zip cut inside its central directory fails with a ZipError, and releases the file', async () => {
    const full = await buildZip(Array.from({ length: 800 }, (_, i) => ({ name: `m-${'y'.repeat(150)}-${i}.html`, data: `<p>${i}</p>` })));
    const cdStart = full.readUInt32LE(full.length - 22 + 16); // end record: offset of the directory
    const path = join(dir, 'cut-directory.zip');
    // keep the end record (so the zip opens) but drop the second half of the directory before it
    const cdEnd = full.length - 22;
    const cut = Math.floor((cdStart + cdEnd) / 2);
    const broken = Buffer.concat([full.subarray(0, cut), Buffer.alloc(cdEnd - cut, 0), full.subarray(cdEnd)]);
    writeFileSync(path, broken);
    const fdsBefore = await openFds();
    const err = await (async () => {
      for await (const _e of listEntries(path)) { /* walk */ }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipError);
    expect((err as Error).message).toMatch(/cut-directory\.zip: corrupt zip directory/);
    expect(await openFds()).toBe(fdsBefore);
    // a directory said to start 10 bytes before the end of the file: its first record is cut short, which
    // yauzl reports as "unexpected EOF" only if the reader says it read fewer bytes than asked
    const shifted = Buffer.from(full);
    shifted.writeUInt32LE(full.length - 10, full.length - 22 + 16);
    writeFileSync(join(dir, 'shifted.zip'), shifted);
    const err3 = await (async () => {
      for await (const _e of listEntries(join(dir, 'shifted.zip'))) { /* walk */ }
    })().catch((e: unknown) => e);
    expect((err3 as Error).message).toMatch(/shifted\.zip: corrupt zip directory \(unexpected EOF\)/);
    writeFileSync(join(dir, 'half.zip'), full.subarray(0, cut));
    const err2 = await (async () => {
      for await (const _e of listEntries(join(dir, 'half.zip'))) { /* walk */ }
    })().catch((e: unknown) => e);
    expect((err2 as Error).message).toMatch(/half\.zip is not a readable zip file/);
    expect(await openFds()).toBe(fdsBefore);
  });

  it('isZipFile tells a zip from a CSV; isJunkMember', () => {
    const p = join(dir, 'plain.csv');
    writeFileSync(p, csv(2));
    expect(isZipFile(p)).toBe(false);
    expect(['__MACOSX/x.csv', 'a/._b.csv', 'dir/', '.DS_Store', 'a/b.csv'].map(isJunkMember)).toEqual([true, true, true, true, false]);
  });
});
