import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractAll, extractMembers, isJunkMember, isZipFile, listZip, ZipError } from '../../../sync/formats/zip.js';
import { buildZip, patchMethod, writeZip } from '../../support/zip.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('isZipFile tells a zip from a CSV; isJunkMember', () => {
    const p = join(dir, 'plain.csv');
    writeFileSync(p, csv(2));
    expect(isZipFile(p)).toBe(false);
    expect(['__MACOSX/x.csv', 'a/._b.csv', 'dir/', '.DS_Store', 'a/b.csv'].map(isJunkMember)).toEqual([true, true, true, true, false]);
  });
});
