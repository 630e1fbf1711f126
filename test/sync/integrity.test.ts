/**
 * Sync integrity (issue 21 items 1, 2, 4, 5, 6) through the real framework against a local upstream
 * server. Expected figures come from the fixture files read with plain JS (ppd-fixture.ts), never from the
 * code under test.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { mirrorStatus } from '../../src/mirror/status.js';
import { syncDataset } from '../../src/sync-runner.js';
import { csvIncomplete, zipIncomplete } from '../../sync/integrity.js';
import { createProgressReporter } from '../../sync/progress.js';
import { ctxFor, fixturesOf, sqlOn, tempDir } from '../support/mirror-helper.js';
import { errorOf, getRoute } from '../support/route.js';
import { indexPage } from '../support/upstream-server.js';
import { buildZip } from '../support/zip.js';
import { ds } from '../support/datasets.js';
import { applyUpdate, fixture, readPpd } from '../property/ppd-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-integrity-');
const COMPLETE = readFileSync(fixture('pp-complete.csv'));
const complete = readPpd('pp-complete.csv');
const update = readPpd('pp-monthly-update-new-version.csv');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ppCount = async (dir: string) => (await sqlOn(join(dir, 'price_paid.duckdb'), 'SELECT count(*)::INTEGER AS n FROM price_paid'))[0]!.n as number;
/** Lines of a file as Buffers, each with its line end. */
const lines = (b: Buffer) => b.toString('latin1').split(/(?<=\n)/).map((l) => Buffer.from(l, 'latin1'));

beforeEach(() => {
  up.server.set('/price-paid/', indexPage({ 'Complete file': 'pp-complete.csv', 'Monthly update': 'pp-monthly-update-new-version.csv' }, '2026-10-28'), { contentType: 'text/html' });
  up.server.set('/price-paid/pp-complete.csv', COMPLETE);
  up.server.setFile('/price-paid/pp-monthly-update-new-version.csv', fixture('pp-monthly-update-new-version.csv'));
});

describe('4. a truncated download is never loaded', () => {
  it('a server that closes after half the body with no Content-Length: rejected, previous data kept, the partial resumed next time', async () => {
    const o = up.syncOptions();
    expect(await syncDataset('price-paid', o)).toMatchObject({ status: 'synced', rows_total: 300 });
    const half = Math.floor(COMPLETE.length / 2);
    // the cut falls inside a line (the excerpt's lines are ~150 bytes; half is not a line end)
    expect(COMPLETE[half - 1]).not.toBe(0x0a);
    up.server.fault('/price-paid/pp-complete.csv', { dropAfterBytes: half, noLength: true, closeAfterBody: true, times: 1 });
    await expect(syncDataset('price-paid', { ...o, force: true })).rejects.toThrow(/no Content-Length and the file is incomplete: its last line/);
    expect(await ppCount(o.mirrorDir)).toBe(300);
    // the partial download stays in the cache for the next run to resume
    const part = join(o.cacheDir, 'price-paid', 'pp-complete.csv.part');
    expect(readFileSync(part).length).toBe(half);
    // next run: resumed with a Range request from the byte it had, and the whole file loaded
    const before = up.server.requests.length;
    const r = await syncDataset('price-paid', { ...o, force: true });
    expect(up.server.requests.slice(before).filter((q) => q.path === '/price-paid/pp-complete.csv').map((q) => q.range)).toEqual([`bytes=${half}-`]);
    expect(r).toMatchObject({ status: 'synced', rows_total: 300 });
    expect(r.files[0]!.sha256).toBe(sha(COMPLETE));
  });

  it('a cut on a line end is caught by the shrink check against the previous load of the same file', async () => {
    const o = up.syncOptions();
    await syncDataset('price-paid', o);
    const kept = lines(COMPLETE).slice(0, 120); // 40% of the 300 lines, each whole
    up.server.set('/price-paid/pp-complete.csv', Buffer.concat(kept), {});
    up.server.fault('/price-paid/pp-complete.csv', { noLength: true, closeAfterBody: true });
    await expect(syncDataset('price-paid', { ...o, force: true })).rejects.toThrow(/120 rows, 60\.0% fewer than the 300 of the previous load.*--allow-shrink/);
    expect(await ppCount(o.mirrorDir)).toBe(300);
    // a real shrink is accepted when asked for
    expect(await syncDataset('price-paid', { ...o, force: true, allowShrink: true })).toMatchObject({ status: 'synced', rows_total: 120 });
  });

  it('the checks: CSV last line, zip central directory', async () => {
    const d = tempDir('pd-integrity-files-');
    const f = (n: string, b: Buffer | string) => (writeFileSync(join(d, n), b), join(d, n));
    const all = lines(COMPLETE);
    expect(csvIncomplete(f('whole.csv', COMPLETE))).toBeUndefined();
    // cut inside a quoted field
    expect(csvIncomplete(f('cut.csv', COMPLETE.subarray(0, COMPLETE.length - 30)))).toMatch(/inside a quoted field/);
    // a whole last line without its line end: complete (the real DfT road traffic file ends so)
    const last = all[all.length - 1]!.toString('latin1').replace(/\r?\n$/, '');
    expect(csvIncomplete(f('nonl.csv', Buffer.concat([...all.slice(0, -1), Buffer.from(last, 'latin1')])))).toBeUndefined();
    // an unquoted CSV cut between fields
    expect(csvIncomplete(f('u.csv', 'a,b,c\n1,2,3\n4,5'))).toMatch(/2 fields, the first has 3/);
    const zip = await buildZip([{ name: 'a.csv', data: 'x,y\n'.repeat(2000) }, { name: 'b.csv', data: 'z\n' }]);
    expect(await zipIncomplete(f('whole.zip', zip))).toBeUndefined();
    expect(await zipIncomplete(f('half.zip', zip.subarray(0, zip.length >> 1)))).toMatch(/central directory/);
  });
});

describe('1. "up to date" against the files the current mirror was built from', () => {
  it('price-paid: an update applied before a --force reload is applied again after it', async () => {
    const o = up.syncOptions();
    await syncDataset('price-paid', o);
    expect(await syncDataset('price-paid', o)).toMatchObject({ status: 'synced', mode: 'incremental' });
    expect(await syncDataset('price-paid', { ...o, force: true })).toMatchObject({ status: 'synced', mode: 'full', rows_total: 300 });
    // the mirror now holds only pp-complete.csv: the same update file is not "already loaded"
    const r = await syncDataset('price-paid', o);
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', action: 'updated', rows_total: applyUpdate(complete, update).length });
    expect(await syncDataset('price-paid', o)).toMatchObject({ status: 'up_to_date' });
  });

  it('hpi: the publisher\'s file after --from an older file is loaded again', async () => {
    const SAMPLE = join(fixturesOf('property'), 'uk-hpi', 'UK-HPI-full-file-sample.csv');
    const PAGE = '/hpi/government/statistical-data-sets/uk-house-price-index-data-downloads-september-2026';
    up.server.set(PAGE, '<a href="/hpi/files/UK-HPI-full-file-2026-09.csv">Full file</a>', { contentType: 'text/html' });
    up.server.setFile('/hpi/files/UK-HPI-full-file-2026-09.csv', SAMPLE);
    const o = up.syncOptions('2026-11-21T10:00:00Z');
    const all = readFileSync(SAMPLE, 'utf8').trimEnd().split('\n');
    expect(await syncDataset('hpi', o)).toMatchObject({ status: 'synced', rows_total: all.length - 1 });
    // DERIVED from the real sample: its first 101 lines, as an older file given with --from
    const older = join(tempDir('pd-integrity-hpi-'), 'UK-HPI-full-file-2026-08.csv');
    writeFileSync(older, `${all.slice(0, 101).join('\n')}\n`);
    expect(await syncDataset('hpi', { ...o, from: older })).toMatchObject({ status: 'synced', rows_total: 100, action: 'replaced' });
    const r = await syncDataset('hpi', o);
    expect(r).toMatchObject({ status: 'synced', rows_total: all.length - 1 });
  });
});

describe('2. --from adds to a dataset that accumulates; --replace replaces', () => {
  it('price-paid: a yearly file is added to the data there (by transaction id); with --replace it replaces it', async () => {
    // DERIVED from the real excerpt: its first 100 lines as pp-complete.csv, the other 200 as pp-1995.csv
    const d = tempDir('pd-integrity-from-');
    const all = lines(COMPLETE);
    mkdirSync(join(d, 'a'));
    writeFileSync(join(d, 'a', 'pp-complete.csv'), Buffer.concat(all.slice(0, 100)));
    writeFileSync(join(d, 'a', 'pp-1995.csv'), Buffer.concat(all.slice(100)));
    const o = up.syncOptions();
    expect(await syncDataset('price-paid', { ...o, from: join(d, 'a', 'pp-complete.csv') })).toMatchObject({ rows_total: 100 });
    let line = '';
    const stream = { write: (t: string) => ((line += t), true), isTTY: false, columns: 120 } as unknown as NodeJS.WritableStream;
    const added = await syncDataset('price-paid', { ...o, from: join(d, 'a', 'pp-1995.csv'), progress: createProgressReporter({ stream }) });
    // the one-line summary says what happened to the data there
    expect(line).toMatch(/^price-paid: synced \(incremental update\) 200 rows loaded, .*; added to the data already there \(--replace replaces it instead\)\n$/m);
    expect(added).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added', rows_total: 300 });
    expect(added.note).toMatch(/added to the data already there/);
    const ids = new Set((await sqlOn(join(o.mirrorDir, 'price_paid.duckdb'), 'SELECT id::VARCHAR AS id FROM price_paid')).map((r) => r.id));
    expect(ids).toEqual(new Set(complete.map((r) => r.id)));
    const replaced = await syncDataset('price-paid', { ...o, from: join(d, 'a', 'pp-1995.csv'), replace: true });
    expect(replaced).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: 200 });
  });

  it('accounts: --from a zip after a --days sync keeps the daily zips and adds it', async () => {
    const DIR = join(fixturesOf('companies'), 'accounts');
    const member = 'Prod223_3517_00193009_20230331.html';
    const daily = await buildZip([{ name: member, data: readFileSync(join(DIR, member)) }]);
    up.server.set('/accounts/en_accountsdata.html', '<a href="Accounts_Bulk_Data-2026-11-02.zip">Accounts_Bulk_Data-2026-11-02.zip</a> (1Kb)', { contentType: 'text/html' });
    up.server.set('/accounts/Accounts_Bulk_Data-2026-11-02.zip', daily, { contentType: 'application/zip' });
    const o = up.syncOptions('2026-11-21T12:00:00Z');
    expect(await syncDataset('accounts', { ...o, days: 30 })).toMatchObject({ status: 'synced', rows_total: 1 });
    const zipNames = async () => (await sqlOn(join(o.mirrorDir, 'accounts.duckdb'), 'SELECT name FROM accounts_zips ORDER BY 1')).map((r) => r.name);
    // the real subset zip: 9 filings, one of them (00193009) not the daily's company
    const subset = join(DIR, 'Accounts_Bulk_Data-2023-03-02.zip');
    const r = await syncDataset('accounts', { ...o, from: subset });
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added' });
    expect(await zipNames()).toEqual(['Accounts_Bulk_Data-2023-03-02.zip', 'Accounts_Bulk_Data-2026-11-02.zip']);
    expect(r.rows_total).toBe(10);
    // 1. the 30-day sync again finds its daily zip still in the mirror: up to date, honestly
    expect(await syncDataset('accounts', { ...o, days: 30 })).toMatchObject({ status: 'up_to_date' });
    const rep = await syncDataset('accounts', { ...o, from: subset, replace: true });
    expect(rep).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: 9 });
    expect(await zipNames()).toEqual(['Accounts_Bulk_Data-2023-03-02.zip']);
    // 1. the daily zip, loaded once before, is loaded again: the mirror no longer holds it
    const back = await syncDataset('accounts', { ...o, days: 30 });
    expect(back).toMatchObject({ status: 'synced', mode: 'incremental' });
    expect(await zipNames()).toEqual(['Accounts_Bulk_Data-2023-03-02.zip', 'Accounts_Bulk_Data-2026-11-02.zip']);
  });
});

describe('5. a damaged mirror file', () => {
  it('a handler answers dataset_damaged naming the file; sync rebuilds it instead of "up to date"', async () => {
    const o = up.syncOptions();
    await syncDataset('price-paid', o);
    await syncDataset('price-paid', o); // the update: the next plain sync would be "up to date"
    const file = join(o.mirrorDir, 'price_paid.duckdb');
    // overwrite the first block holding price_paid's postcode column (3 file headers of 4 KiB, then 256 KiB blocks)
    const [seg] = await sqlOn(file, `SELECT block_id::BIGINT AS b, block_offset::BIGINT AS off FROM pragma_storage_info('price_paid') WHERE column_name = 'postcode' AND block_id >= 0 ORDER BY block_id LIMIT 1`);
    const at = 3 * 4096 + Number(seg!.b) * 262144 + 8 + Number(seg!.off);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(512, 0x41), 0, 512, at);
    closeSync(fd);
    await closeAll();
    const res = await getRoute('/v1/property/price-paid/search', { postcode: complete[0]!.postcode }, ctxFor(o.mirrorDir));
    expect(errorOf(res)).toMatchObject({ status: 503, code: 'dataset_damaged' });
    expect(errorOf(res).message).toContain(file);
    expect(errorOf(res).message).toContain("publicdata sync price-paid");
    await closeAll();
    const r = await syncDataset('price-paid', o);
    expect(r).toMatchObject({ status: 'synced', mode: 'full', action: 'rebuilt', rows_total: 300 });
    const ok = await getRoute('/v1/property/price-paid/search', { postcode: complete[0]!.postcode }, ctxFor(o.mirrorDir));
    expect(ok.status).toBe(200);
    await closeAll();
  });
});

describe('6. downloads leave the cache once loaded and verified', () => {
  it('removed by default, kept with keepDownloads; mirror status shows the cache size', async () => {
    const o = up.syncOptions();
    await syncDataset('price-paid', o);
    const dir = join(o.cacheDir, 'price-paid');
    expect(existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('.')) : []).toEqual([]);
    let [s] = await mirrorStatus({ env: {}, mirrorDir: o.mirrorDir, cacheDir: o.cacheDir, datasets: [ds('price-paid')] });
    expect(s!.cache_bytes).toBe(0);
    await syncDataset('price-paid', { ...o, force: true, keepDownloads: true });
    expect(readdirSync(dir)).toContain('pp-complete.csv');
    [s] = await mirrorStatus({ env: {}, mirrorDir: o.mirrorDir, cacheDir: o.cacheDir, datasets: [ds('price-paid')] });
    expect(s!.cache_bytes).toBe(COMPLETE.length);
  });
});
