/**
 * Members inflated by offset (sync/formats/zip.ts listEntries/readEntry) and the accounts staging that
 * uses them: the worker threads inflate their own members, so the main thread only walks the central
 * directory. The staged rows must be the same whichever thread did the work. Documents: the real members
 * of test/fixtures/companies/accounts plus labelled GENERATED ones.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { countEntries, listEntries, readEntry, ZipError, type ZipEntry } from '../../sync/formats/zip.js';
import { createPool, DOCUMENTS_PER_WORKER, warmUpThreads, workerCount } from '../../src/domains/companies/sync/accounts/pool.js';
import { Stager, type MemberJob } from '../../src/domains/companies/sync/accounts/stage.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';
import { buildZip } from '../support/zip.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'companies', 'accounts');
const real = (f: string) => readFileSync(join(DIR, f));

async function entriesOf(zip: string | Buffer): Promise<ZipEntry[]> {
  const out: ZipEntry[] = [];
  for await (const e of listEntries(zip)) out.push(e);
  return out;
}

/**
 * The test zips a process holds open, once a close already asked for has gone through: a descriptor is
 * released by fs.close's callback on a later tick (a busy machine makes that later), so the listing is
 * polled until it shows `want`, at most 1 s. An fd really left open still shows after that. Where the OS
 * lists no descriptors, `want` (only the Stager's own count is checked there).
 */
async function zipsOpenOnceSettled(openPaths: () => string[] | undefined, zips: readonly string[], want: readonly string[]): Promise<string[]> {
  const now = () => {
    const open = openPaths();
    return open ? zips.filter((z) => open.includes(z)) : [...want];
  };
  let got = now();
  for (let i = 0; i < 50 && JSON.stringify(got) !== JSON.stringify(want); i++) {
    await new Promise((r) => setTimeout(r, 20));
    got = now();
  }
  return got;
}

describe('zip members by offset', () => {
  it('stored and deflated members, from a file descriptor and from memory, equal the bytes put in', async () => {
    const a = real('Prod223_3517_00193009_20230331.html');
    const b = Buffer.from('GENERATED stored member\n');
    const zip = await buildZip([
      { name: 'a.html', data: a },
      { name: 'dir/b.txt', data: b, compress: false },
      { name: '__MACOSX/._a.html', data: 'junk' },
      { name: 'z64.html', data: a, zip64: true },
    ]);
    const path = join(mkdtempSync(join(tmpdir(), 'pd-zipent-')), 't.zip');
    writeFileSync(path, zip);
    const es = await entriesOf(path);
    expect(es.map((e) => [e.name, e.method, e.size])).toEqual([['a.html', 8, a.length], ['dir/b.txt', 0, b.length], ['z64.html', 8, a.length]]);
    const { openSync, closeSync } = await import('node:fs');
    const fd = openSync(path, 'r');
    try {
      expect(readEntry(fd, es[0]!, 't.zip').equals(a)).toBe(true);
      expect(readEntry(fd, es[1]!, 't.zip').equals(b)).toBe(true);
      expect(readEntry(fd, es[2]!, 't.zip').equals(a)).toBe(true);
    } finally {
      closeSync(fd);
    }
    expect(readEntry(zip, (await entriesOf(zip))[0]!, 'mem').equals(a)).toBe(true);
  });

  it('a corrupt member or a wrong offset is a ZipError, never wrong bytes', async () => {
    const data = Buffer.from('<html>GENERATED</html>'.repeat(50));
    const zip = await buildZip([{ name: 'a.html', data }]);
    const [e] = await entriesOf(zip);
    expect(() => readEntry(zip, { ...e!, crc32: (crc32(data) + 1) >>> 0 }, 'x.zip')).toThrow(/failed its CRC-32 check/);
    expect(() => readEntry(zip, { ...e!, offset: e!.offset + 1 }, 'x.zip')).toThrow(ZipError);
    expect(() => readEntry(zip, { ...e!, compressedSize: e!.compressedSize + zip.length }, 'x.zip')).toThrow(/runs past the end/);
    // independent check of the offset arithmetic: the deflated bytes sit after the 30-byte header and the name
    const start = e!.offset + 30 + 'a.html'.length;
    expect(zip.subarray(start, start + e!.compressedSize).equals(deflateRawSync(data))).toBe(true);
  });
});

/** GENERATED daily zip: 3 real members, a generated full-accounts one, a nested CIC zip, a broken member. */
async function dailyZip(): Promise<Buffer> {
  const cic = await buildZip([
    { name: 'accounts/Prod223_4000_12345678_20260331.xhtml', data: accountsDocument({ company: '12345678', name: 'GENERATED CIC', bsd: '2026-03-31', cur: { CurrentAssets: 900, NetAssetsLiabilities: 900 } }) },
    { name: 'cic34/Prod223_4000_12345678_20260331_cic34.xhtml', data: '<html>CIC34 report, not accounts</html>' },
  ]);
  const emptyCic = await buildZip([{ name: 'cic34/only.xhtml', data: '<html/>' }]);
  return buildZip([
    { name: 'Prod223_3517_00193009_20230331.html', data: real('Prod223_3517_00193009_20230331.html') },
    { name: 'Prod223_3517_00174098_20230331.html', data: real('Prod223_3517_00174098_20230331.html') },
    { name: 'Prod223_3517_13756628_20221130.html', data: real('Prod223_3517_13756628_20221130.html') },
    { name: memberName('07654321', '2026-06-30'), data: accountsDocument({ style: 'full', company: '07654321', name: 'GENERATED FULL LTD', bsd: '2026-06-30', cur: { TurnoverRevenue: 1200000, CurrentAssets: 450000, NetAssetsLiabilities: 550000 } }) },
    { name: 'Prod223_4000_12345678_20260331_CIC.zip', data: cic },
    { name: 'Prod223_4000_22222222_20260331_CIC.zip', data: emptyCic },
    { name: 'Prod224_0088_09999999_20200331.html', data: 'ATTACHMENTPLACEHOLDER127319911' },
  ]);
}

type PoolFactory = (dir: string, threads: number) => ReturnType<typeof createPool>;

/** Stage every member of `zipPath` through a pool; the staged CSV lines (sorted) and the rejects. */
async function stage(factory: PoolFactory, zipPath: string, threads: number) {
  const dir = mkdtempSync(join(tmpdir(), 'pd-accpool-'));
  const pool = await factory(dir, threads);
  const waits = [];
  let batch: MemberJob[] = [];
  for await (const entry of listEntries(zipPath)) {
    batch.push({ zipPath, entry, name: entry.name, zip: 'Accounts_Bulk_Data-2026-11-02.zip', published: '2026-11-02', precision: 'day' });
    if (batch.length === 2) {
      await pool.ready();
      waits.push(pool.submit(batch));
      batch = [];
    }
  }
  waits.push(pool.submit(batch));
  const results = await Promise.all(waits);
  const files = await pool.close();
  const lines = (paths: string[]) => paths.filter(existsSync).flatMap((p) => readFileSync(p, 'utf8').split('\n').filter(Boolean)).sort();
  return {
    filings: lines(files.filings),
    periods: lines(files.periods),
    rejects: results.flatMap((r) => r.rejects).sort((a, b) => a.file.localeCompare(b.file)),
    count: results.reduce((n, r) => n + r.filings, 0),
    stagedFiles: readdirSync(dir).sort(),
  };
}

describe('accounts staging: members inflated where they are extracted', () => {
  it('in-thread: real and generated members staged, nested CIC accounts document read, broken members rejected', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pd-accz-')), 'Accounts_Bulk_Data-2026-11-02.zip');
    writeFileSync(path, await dailyZip());
    const r = await stage((d, t) => createPool(d, t, { inThread: true }), path, 1);
    expect(r.count).toBe(5);
    expect(r.filings.map((l) => l.split(',')[0])).toEqual([
      '"Prod223_3517_00174098_20230331.html"', '"Prod223_3517_00193009_20230331.html"', '"Prod223_3517_07654321_20260630.html"',
      '"Prod223_3517_13756628_20221130.html"', '"Prod223_4000_12345678_20260331.xhtml"',
    ]);
    expect(r.rejects).toEqual([
      { file: 'Accounts_Bulk_Data-2026-11-02.zip/Prod223_4000_22222222_20260331_CIC.zip', reason: 'nested zip without an accounts document' },
      { file: 'Accounts_Bulk_Data-2026-11-02.zip/Prod224_0088_09999999_20200331.html', reason: 'placeholder file, no accounts (ATTACHMENTPLACEHOLDER127319911)' },
    ]);
  });

  it('one zip handle at a time: the previous zip is closed when the jobs move to the next, and on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-accfd-'));
    const zips = [join(dir, 'Accounts_Bulk_Data-2026-11-02.zip'), join(dir, 'Accounts_Bulk_Data-2026-11-03.zip'), join(dir, 'Accounts_Bulk_Data-2026-11-04.zip')];
    for (const z of zips) writeFileSync(z, await buildZip([{ name: 'a.html', data: real('Prod223_3517_00193009_20230331.html') }]));
    // where the OS lists open descriptors (Linux), the paths they point at; else only the Stager's own count
    const openPaths = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').map((f) => { try { return readlinkSync(`/proc/self/fd/${f}`); } catch { return ''; } }) : undefined);
    const stager = new Stager(join(dir, 'filings.csv'), join(dir, 'periods.csv'));
    for (const zipPath of zips) {
      const [entry] = await entriesOf(zipPath);
      const r = await stager.run([{ zipPath, entry: entry!, name: entry!.name, zip: 'z.zip', published: '2026-11-02', precision: 'day' }]);
      expect(r.filings).toBe(1);
      expect(stager.openZips).toBe(1);
      expect(await zipsOpenOnceSettled(openPaths, zips, [zipPath])).toEqual([zipPath]);
    }
    stager.close();
    expect(stager.openZips).toBe(0);
    expect(await zipsOpenOnceSettled(openPaths, zips, [])).toEqual([]);
  });

  // The compiled worker (dist/, built by `npm test` before vitest) in real worker threads.
  const distPool = join(import.meta.dirname, '..', '..', 'dist', 'src', 'domains', 'companies', 'sync', 'accounts', 'pool.js');
  // `npm test` builds before vitest: without the compiled pool the worker tests below would be skipped
  // and prove nothing, so its absence fails here.
  it('the compiled pool is there for the worker-thread tests (npm test builds it)', () => {
    expect(existsSync(distPool), distPool).toBe(true);
  });
  it.skipIf(!existsSync(distPool))('2 worker threads stage exactly what the calling thread stages, each into its own files', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pd-accz-')), 'Accounts_Bulk_Data-2026-11-02.zip');
    writeFileSync(path, await dailyZip());
    const built = (await import(pathToFileURL(distPool).href)) as { createPool: PoolFactory };
    const workers = await stage((d, t) => built.createPool(d, t), path, 2);
    const inThread = await stage((d, t) => createPool(d, t, { inThread: true }), path, 1);
    expect(workers.stagedFiles).toEqual(['filings-0.csv', 'filings-1.csv', 'periods-0.csv', 'periods-1.csv']);
    expect(workers.count).toBe(5);
    expect(workers.filings).toEqual(inThread.filings);
    expect(workers.periods).toEqual(inThread.periods);
    expect(workers.rejects).toEqual(inThread.rejects);
  });

  it.skipIf(!existsSync(distPool))('workers started before their staging files (a sync warming up) stage the same; unused ones are ended', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pd-accz-')), 'Accounts_Bulk_Data-2026-11-02.zip');
    writeFileSync(path, await dailyZip());
    type Spawned = { take(): unknown; dispose(): Promise<void> };
    const built = (await import(pathToFileURL(distPool).href)) as {
      createPool(dir: string, threads: number, opts?: { spawned?: Spawned }): ReturnType<typeof createPool>;
      spawnWorkers(threads: number): Spawned | undefined;
    };
    const spawned = built.spawnWorkers(2)!;
    const early = await stage((d, t) => built.createPool(d, t, { spawned }), path, 2);
    // the pool took them: nothing left to hand out or to end
    expect(spawned.take()).toBeUndefined();
    await spawned.dispose();
    const inThread = await stage((d, t) => createPool(d, t, { inThread: true }), path, 1);
    expect(early.stagedFiles).toEqual(['filings-0.csv', 'filings-1.csv', 'periods-0.csv', 'periods-1.csv']);
    expect(early.filings).toEqual(inThread.filings);
    expect(early.periods).toEqual(inThread.periods);
    expect(early.rejects).toEqual(inThread.rejects);
    // spawned and never used (a sync with nothing new): dispose ends them, and a pool after that starts its own
    const unused = built.spawnWorkers(2)!;
    await unused.dispose();
    expect(unused.take()).toBeUndefined();
    const fresh = await stage((d, t) => built.createPool(d, t, { spawned: unused }), path, 2);
    expect(fresh.filings).toEqual(inThread.filings);
    // one started early (warmUp without PUBLICDATA_SYNC_THREADS), two needed: the pool takes it and starts the second
    const single = built.spawnWorkers(1)!;
    const grown = await stage((d, t) => built.createPool(d, t, { spawned: single }), path, 2);
    expect(single.take()).toBeUndefined();
    expect(grown.stagedFiles).toEqual(['filings-0.csv', 'filings-1.csv', 'periods-0.csv', 'periods-1.csv']);
    expect(grown.filings).toEqual(inThread.filings);
  });

  // Early workers held by the test, so it can see which ones the pool uses and ends.
  const workerFile = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'companies-extract-worker.cjs');
  const heldWorkers = (n: number) => {
    const workers = Array.from({ length: n }, () => new Worker(workerFile));
    const errors: Array<Error | undefined> = [];
    workers.forEach((w, i) => w.on('error', (e) => (errors[i] ??= e)));
    let taken = false;
    const exited = workers.map((w) => new Promise<number>((r) => w.once('exit', r)));
    return {
      workers, exited, errors,
      spawned: {
        take: () => (taken ? undefined : ((taken = true), { workers, error: (i: number) => errors[i] })),
        dispose: async () => undefined,
      },
    };
  };
  type Built = { createPool(dir: string, threads: number, opts?: { spawned?: unknown }): ReturnType<typeof createPool> };

  it.skipIf(!existsSync(workerFile))('more workers started early than the work needs: the pool uses the first, ends the others, stages the same', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pd-accz-')), 'Accounts_Bulk_Data-2026-11-02.zip');
    writeFileSync(path, await dailyZip());
    const built = (await import(pathToFileURL(distPool).href)) as Built;
    const held = heldWorkers(2);
    const one = await stage((d, t) => built.createPool(d, t, { spawned: held.spawned }), path, 1);
    // the second was ended by the pool, the first once the pool closed (a worker left running would keep
    // the process alive: then this fails after 5 s rather than hanging)
    const state = (i: number) => Promise.race([held.exited[i]!.then(() => 'ended'), new Promise((r) => setTimeout(() => r('running'), 5000).unref())]);
    expect(await Promise.all([state(0), state(1)])).toEqual(['ended', 'ended']);
    expect(one.stagedFiles).toEqual(['filings-0.csv', 'periods-0.csv']);
    const inThread = await stage((d, t) => createPool(d, t, { inThread: true }), path, 1);
    expect(one.filings).toEqual(inThread.filings);
    expect(one.rejects).toEqual(inThread.rejects);
  });

  it.skipIf(!existsSync(workerFile))('an error of an early worker the pool does not use does not fail it; one of a worker it uses does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-accz-'));
    const built = (await import(pathToFileURL(distPool).href)) as Built;
    const spare = heldWorkers(2);
    spare.errors[1] = new Error('the spare worker failed');
    const pool = await built.createPool(join(dir, 'a'), 1, { spawned: spare.spawned });
    await expect(pool.close()).resolves.toMatchObject({ filings: [join(dir, 'a', 'filings-0.csv')] });
    const used = heldWorkers(2);
    used.errors[0] = new Error('the first worker failed');
    const failing = await built.createPool(join(dir, 'b'), 1, { spawned: used.spawned });
    await expect(failing.submit([])).rejects.toThrow('the first worker failed');
    await expect(failing.close()).rejects.toThrow('the first worker failed');
  });

  it.skipIf(!existsSync(workerFile))('a worker that ends before closing its staging files fails close(), which does not wait for it forever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-accz-'));
    const built = (await import(pathToFileURL(distPool).href)) as Built;
    const held = heldWorkers(1);
    const pool = await built.createPool(dir, 1, { spawned: held.spawned });
    await pool.submit([]);
    // the worker goes away (a crash) between its last batch and close()
    await held.workers[0]!.terminate();
    await expect(pool.close()).rejects.toThrow(/an extraction worker ended \(exit code 1\) before closing its staging files/);
  });

  it('workers by the size of the work: PUBLICDATA_SYNC_THREADS obeyed, else one per 500 documents up to the cores', async () => {
    const cores = availableParallelism();
    expect(DOCUMENTS_PER_WORKER).toBe(500);
    expect(workerCount({}, 0)).toBe(1);
    expect(workerCount({}, 300)).toBe(1);
    expect(workerCount({}, 999)).toBe(1);
    expect(workerCount({}, 1000)).toBe(Math.min(cores, 2));
    expect(workerCount({}, 9532)).toBe(Math.min(cores, 19)); // a real daily zip: every core of any machine up to 19
    expect(workerCount({ PUBLICDATA_SYNC_THREADS: '3' }, 10)).toBe(3);
    expect(workerCount({ PUBLICDATA_SYNC_THREADS: 'lots' }, 300)).toBe(1);
    expect(warmUpThreads({})).toBe(1);
    expect(warmUpThreads({ PUBLICDATA_SYNC_THREADS: '4' })).toBe(4);
    // the count comes from the zip's end record: junk entries included, a nested zip one
    const path = join(mkdtempSync(join(tmpdir(), 'pd-accn-')), 'n.zip');
    writeFileSync(path, await buildZip([
      { name: memberName('01234567', '2026-03-31'), data: '<html/>' },
      { name: 'Prod223_4000_12345678_20260331_CIC.zip', data: await buildZip([{ name: 'accounts/a.xhtml', data: '<a/>' }, { name: 'accounts/b.xhtml', data: '<b/>' }]) },
      { name: '__MACOSX/._Prod223_4000_12345678_20260331_CIC.zip', data: 'junk' },
    ]));
    expect((await entriesOf(path)).length).toBe(2);
    expect(await countEntries(path)).toBe(3);
  });
});

describe('accounts verify', () => {
  it('a full load is checked whole; an incremental one checks the companies its new zips touched', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const { FILINGS_DDL, PERIODS_DDL, default: accounts } = await import('../../src/domains/companies/sync/accounts.js');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      await conn.run(FILINGS_DDL);
      await conn.run(PERIODS_DDL);
      const filing = (id: string, company: string) => conn.run(`INSERT INTO accounts_filings (filing_id, company_number, balance_sheet_date, format, published, published_precision, source_zip, facts, duplicates, conflicts, has_financials)
        VALUES ('${id}', '${company}', DATE '2026-03-31', 'ixbrl', DATE '2026-11-02', 'day', 'z.zip', 1, 0, 0, true)`);
      const period = (id: string, company: string) => conn.run(`INSERT INTO accounts_periods (filing_id, company_number, period_end, is_current) VALUES ('${id}', '${company}', DATE '2026-03-31', true)`);
      await filing('a.html', '00000001');
      await period('a.html', '00000001');
      // an orphan period of a company this sync did not touch (a stand-in for rows checked by an earlier sync)
      await period('gone.html', '00000009');
      const full = { rows: 1, rejected: 0, mode: 'full' as const };
      const inc = { rows: 1, rejected: 0, mode: 'incremental' as const };
      await expect(accounts.verify(conn, full)).rejects.toThrow('1 period rows without their filing');
      await conn.run(`CREATE TEMP TABLE accounts_touched AS SELECT '00000001' AS company_number`);
      await accounts.verify(conn, inc); // the untouched company is not re-checked
      // a touched company with a filing stored twice, and one with an orphan period: both caught
      await filing('a2.html', '00000001');
      await conn.run(`CREATE TEMP TABLE accounts_touched AS SELECT '00000001' AS company_number`);
      await expect(accounts.verify(conn, inc)).rejects.toThrow('1 filings stored twice');
      await conn.run(`DELETE FROM accounts_filings WHERE filing_id = 'a2.html'`);
      await conn.run(`CREATE OR REPLACE TEMP TABLE accounts_touched AS SELECT * FROM (VALUES ('00000001'), ('00000009')) t(company_number)`);
      await expect(accounts.verify(conn, inc)).rejects.toThrow('1 period rows without their filing');
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});
