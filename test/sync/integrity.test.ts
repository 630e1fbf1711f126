/**
 * Sync integrity (issue 21 items 1, 2, 4, 5, 6) through the real framework against a local upstream
 * server, on the example domain's invented datasets (test/support/example-domain/). Expected figures come
 * from the fixture files read with plain JS (records-gen.ts readRecords), never from the code under test.
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
import { ctxFor, sqlOn, tempDir } from '../support/mirror-helper.js';
import { errorOf, getRoute } from '../support/route.js';
import { indexPage } from '../support/upstream-server.js';
import { buildZip } from '../support/zip.js';
import { ds } from '../support/datasets.js';
import { applyRecordsUpdate, readRecords, recordsCsv } from '../support/example-domain/records-gen.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-integrity-');
const FIX = join(import.meta.dirname, '..', 'fixtures', 'example');
const COMPLETE = readFileSync(join(FIX, 'records-complete.csv'));
const UPDATE = readFileSync(join(FIX, 'records-update.csv'), 'utf8');
const complete = readRecords(COMPLETE.toString('utf8'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const recCount = async (dir: string) => (await sqlOn(join(dir, 'example_records.duckdb'), 'SELECT count(*)::INTEGER AS n FROM records'))[0]!.n as number;
/** Lines of a file as Buffers, each with its line end. */
const lines = (b: Buffer) => b.toString('latin1').split(/(?<=\n)/).map((l) => Buffer.from(l, 'latin1'));

beforeEach(() => {
  up.server.set('/example-records/', indexPage({ 'Complete file': 'records-complete.csv', 'Monthly update': 'records-update.csv' }, '2026-10-28'), { contentType: 'text/html' });
  up.server.set('/example-records/records-complete.csv', COMPLETE);
  up.server.set('/example-records/records-update.csv', UPDATE);
});

describe('4. a truncated download is never loaded', () => {
  it('a server that closes after half the body with no Content-Length: rejected, previous data kept, the partial resumed next time', async () => {
    const o = up.syncOptions();
    expect(await syncDataset('example-records', o)).toMatchObject({ status: 'synced', rows_total: 300 });
    // the cut falls inside a line, inside its first field (the records' lines are unquoted but for some titles:
    // a cut inside the last field of an unquoted line would leave a line of the right shape)
    const half = COMPLETE.indexOf(0x0a, COMPLETE.length >> 1) + 3;
    expect(COMPLETE[half - 1]).not.toBe(0x0a);
    up.server.fault('/example-records/records-complete.csv', { dropAfterBytes: half, noLength: true, closeAfterBody: true, times: 1 });
    await expect(syncDataset('example-records', { ...o, force: true })).rejects.toThrow(/no Content-Length and the file is incomplete: its last line/);
    expect(await recCount(o.mirrorDir)).toBe(300);
    // the partial download stays in the cache for the next run to resume
    const part = join(o.cacheDir, 'example-records', 'records-complete.csv.part');
    expect(readFileSync(part).length).toBe(half);
    // next run: resumed with a Range request from the byte it had, and the whole file loaded
    const before = up.server.requests.length;
    const r = await syncDataset('example-records', { ...o, force: true });
    expect(up.server.requests.slice(before).filter((q) => q.path === '/example-records/records-complete.csv').map((q) => q.range)).toEqual([`bytes=${half}-`]);
    expect(r).toMatchObject({ status: 'synced', rows_total: 300 });
    expect(r.files[0]!.sha256).toBe(sha(COMPLETE));
  });

  it('a cut on a line end is caught by the shrink check against the previous load of the same file', async () => {
    const o = up.syncOptions();
    await syncDataset('example-records', o);
    const kept = lines(COMPLETE).slice(0, 121); // the header and 40% of the 300 records, each line whole
    up.server.set('/example-records/records-complete.csv', Buffer.concat(kept), {});
    up.server.fault('/example-records/records-complete.csv', { noLength: true, closeAfterBody: true });
    await expect(syncDataset('example-records', { ...o, force: true })).rejects.toThrow(/120 rows, 60\.0% fewer than the 300 of the previous load.*--allow-shrink/);
    expect(await recCount(o.mirrorDir)).toBe(300);
    // a real shrink is accepted when asked for
    expect(await syncDataset('example-records', { ...o, force: true, allowShrink: true })).toMatchObject({ status: 'synced', rows_total: 120 });
  });

  it('the checks: CSV last line, zip central directory', async () => {
    const d = tempDir('pd-integrity-files-');
    const f = (n: string, b: Buffer | string) => (writeFileSync(join(d, n), b), join(d, n));
    const all = lines(COMPLETE);
    expect(csvIncomplete(f('whole.csv', COMPLETE))).toBeUndefined();
    // cut inside a quoted field (the last quoted title, 5 bytes in)
    expect(csvIncomplete(f('cut.csv', COMPLETE.subarray(0, COMPLETE.lastIndexOf('"Record') + 5)))).toMatch(/inside a quoted field/);
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
  it('example-records: an update applied before a --force reload is applied again after it', async () => {
    const o = up.syncOptions();
    await syncDataset('example-records', o);
    expect(await syncDataset('example-records', o)).toMatchObject({ status: 'synced', mode: 'incremental' });
    expect(await syncDataset('example-records', { ...o, force: true })).toMatchObject({ status: 'synced', mode: 'full', rows_total: 300 });
    // the mirror now holds only records-complete.csv: the same update file is not "already loaded"
    const r = await syncDataset('example-records', o);
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', action: 'updated', rows_total: applyRecordsUpdate(complete, UPDATE).length });
    expect(await syncDataset('example-records', o)).toMatchObject({ status: 'up_to_date' });
  });

  it('example-events: the publisher\'s file after --from an older copy of it is loaded again', async () => {
    // INVENTED: the day 2026-11-20's file of 40 records (records-gen.ts), and an older copy of it with its first 10
    const day = '2026-11-20';
    const file = recordsCsv(1, 40).replace(/,\d{4}-\d{2}-\d{2},/g, `,${day},`);
    up.server.set('/example-events/', indexPage({ [day]: `events-${day}.csv` }), { contentType: 'text/html' });
    up.server.set(`/example-events/events-${day}.csv`, file);
    const o = up.syncOptions('2026-11-21T10:00:00Z');
    const all = file.trimEnd().split('\n');
    expect(await syncDataset('example-events', o)).toMatchObject({ status: 'synced', rows_total: all.length - 1 });
    const older = join(tempDir('pd-integrity-events-'), `events-${day}.csv`);
    writeFileSync(older, `${all.slice(0, 11).join('\n')}\n`);
    // (a day file given with --from is added to the days held: --replace makes it replace them, --allow-shrink lets 40 rows become 10)
    expect(await syncDataset('example-events', { ...o, from: older, replace: true, allowShrink: true })).toMatchObject({ status: 'synced', rows_total: 10, action: 'replaced' });
    const r = await syncDataset('example-events', o);
    expect(r).toMatchObject({ status: 'synced', rows_total: all.length - 1 });
  });
});

describe('2. --from adds to a dataset that accumulates; --replace replaces', () => {
  it('example-records: a yearly file is added to the data there (replacing its year); with --replace it replaces it', async () => {
    // DERIVED from the fixture: its 2023 records as records-complete.csv, its 2024 records as records-2024.csv
    const d = tempDir('pd-integrity-from-');
    const [header, ...body] = lines(COMPLETE);
    const of = (y: string) => body.filter((l) => l.toString('latin1').split(',')[3]!.startsWith(y));
    const y2024 = of('2024').length;
    expect(of('2023').length + y2024).toBe(300);
    mkdirSync(join(d, 'a'));
    writeFileSync(join(d, 'a', 'records-complete.csv'), Buffer.concat([header!, ...of('2023')]));
    writeFileSync(join(d, 'a', 'records-2024.csv'), Buffer.concat([header!, ...of('2024')]));
    const o = up.syncOptions();
    expect(await syncDataset('example-records', { ...o, from: join(d, 'a', 'records-complete.csv') })).toMatchObject({ rows_total: 300 - y2024 });
    let line = '';
    const stream = { write: (t: string) => ((line += t), true), isTTY: false, columns: 120 } as unknown as NodeJS.WritableStream;
    const added = await syncDataset('example-records', { ...o, from: join(d, 'a', 'records-2024.csv'), progress: createProgressReporter({ stream }) });
    // the one-line summary says what happened to the data there
    expect(line).toMatch(new RegExp(`^example-records: synced \\(incremental update\\) ${y2024} rows loaded, .*; added to the data already there \\(--replace replaces it instead\\)\n$`, 'm'));
    expect(added).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added', rows_total: 300 });
    expect(added.note).toMatch(/added to the data already there/);
    const ids = new Set((await sqlOn(join(o.mirrorDir, 'example_records.duckdb'), 'SELECT id FROM records')).map((r) => r.id));
    expect(ids).toEqual(new Set(complete.map((r) => r.id)));
    const replaced = await syncDataset('example-records', { ...o, from: join(d, 'a', 'records-2024.csv'), replace: true });
    expect(replaced).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: y2024 });
  });

  it('example-events: --from a day file after a --days sync keeps the daily files and adds it', async () => {
    // INVENTED days: the publisher's 2026-11-02 (records 1..12), and an older day 2026-10-01 given with --from (records 13..21)
    const dayFile = (day: string, from: number, to: number) => recordsCsv(from, to).replace(/,\d{4}-\d{2}-\d{2},/g, `,${day},`);
    up.server.set('/example-events/', indexPage({ daily: 'events-2026-11-02.csv' }), { contentType: 'text/html' });
    up.server.set('/example-events/events-2026-11-02.csv', dayFile('2026-11-02', 1, 12));
    const o = up.syncOptions('2026-11-21T12:00:00Z');
    expect(await syncDataset('example-events', { ...o, days: 30 })).toMatchObject({ status: 'synced', rows_total: 12 });
    const days = async () => (await sqlOn(join(o.mirrorDir, 'example_events.duckdb'), "SELECT DISTINCT strftime(recorded_on, '%Y-%m-%d') AS d FROM records ORDER BY 1")).map((r) => r.d);
    const subset = join(tempDir('pd-integrity-days-'), 'events-2026-10-01.csv');
    writeFileSync(subset, dayFile('2026-10-01', 13, 21));
    const r = await syncDataset('example-events', { ...o, from: subset });
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added' });
    expect(await days()).toEqual(['2026-10-01', '2026-11-02']);
    expect(r.rows_total).toBe(21);
    // 1. the 30-day sync again finds its daily file still in the mirror: up to date, honestly
    expect(await syncDataset('example-events', { ...o, days: 30 })).toMatchObject({ status: 'up_to_date' });
    const rep = await syncDataset('example-events', { ...o, from: subset, replace: true });
    expect(rep).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: 9 });
    expect(await days()).toEqual(['2026-10-01']);
    // 1. the daily file, loaded once before, is loaded again: the mirror no longer holds it
    const back = await syncDataset('example-events', { ...o, days: 30 });
    expect(back).toMatchObject({ status: 'synced', mode: 'incremental' });
    expect(await days()).toEqual(['2026-10-01', '2026-11-02']);
  });
});

describe('5. a damaged mirror file', () => {
  it('a handler answers dataset_damaged naming the file; sync rebuilds it instead of "up to date"', async () => {
    const o = up.syncOptions();
    await syncDataset('example-records', o);
    await syncDataset('example-records', o); // the update: the next plain sync would be "up to date"
    const file = join(o.mirrorDir, 'example_records.duckdb');
    // overwrite the first block holding records' colour column (3 file headers of 4 KiB, then 256 KiB blocks)
    const [seg] = await sqlOn(file, `SELECT block_id::BIGINT AS b, block_offset::BIGINT AS off FROM pragma_storage_info('records') WHERE column_name = 'colour' AND block_id >= 0 ORDER BY block_id LIMIT 1`);
    const at = 3 * 4096 + Number(seg!.b) * 262144 + 8 + Number(seg!.off);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(512, 0x41), 0, 512, at);
    closeSync(fd);
    await closeAll();
    const res = await getRoute('/v1/example/records', { colour: complete[0]!.colour }, ctxFor(o.mirrorDir));
    expect(errorOf(res)).toMatchObject({ status: 503, code: 'dataset_damaged' });
    expect(errorOf(res).message).toContain(file);
    expect(errorOf(res).message).toContain("publicdata sync example-records");
    await closeAll();
    const r = await syncDataset('example-records', o);
    expect(r).toMatchObject({ status: 'synced', mode: 'full', action: 'rebuilt', rows_total: 300 });
    const ok = await getRoute('/v1/example/records', { colour: complete[0]!.colour }, ctxFor(o.mirrorDir));
    expect(ok.status).toBe(200);
    await closeAll();
  });
});

describe('6. downloads leave the cache once loaded and verified', () => {
  it('removed by default, kept with keepDownloads; mirror status shows the cache size', async () => {
    const o = up.syncOptions();
    await syncDataset('example-records', o);
    const dir = join(o.cacheDir, 'example-records');
    expect(existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('.')) : []).toEqual([]);
    let [s] = await mirrorStatus({ env: {}, mirrorDir: o.mirrorDir, cacheDir: o.cacheDir, datasets: [ds('example-records')] });
    expect(s!.cache_bytes).toBe(0);
    await syncDataset('example-records', { ...o, force: true, keepDownloads: true });
    expect(readdirSync(dir)).toContain('records-complete.csv');
    [s] = await mirrorStatus({ env: {}, mirrorDir: o.mirrorDir, cacheDir: o.cacheDir, datasets: [ds('example-records')] });
    expect(s!.cache_bytes).toBe(COMPLETE.length);
  });
});
