import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportMirror } from '../../src/mirror/export.js';
import { runSql } from '../../src/mirror/sql.js';
import { mirrorStatus } from '../../src/mirror/status.js';
import { runSync, syncDataset } from '../../src/sync-runner.js';
import { createProgressReporter } from '../../sync/progress.js';
import type { SyncEvent } from '../../sync/types.js';
import { openDataset, query } from '../../src/mirror/db.js';
import { indexPage, type UpstreamServer } from '../support/upstream-server.js';
import { sqlOn } from '../support/mirror-helper.js';
import { applyUpdate, fixture, readPpd } from './ppd-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import { ds } from '../support/datasets.js';
import { DATASETS } from '../../src/registry.js';

const upstream = useUpstreamServer('pd-sync-');
let server: UpstreamServer;
/** Scratch space for files the tests write (exports, a file with bad rows). */
let root: string;
const complete = readPpd('pp-complete.csv');
const realUpdate = readPpd('pp-monthly-update-new-version.csv');
const acd = readPpd('pp-monthly-update-acd-test.csv');
const sha = (f: string) => createHash('sha256').update(readFileSync(fixture(f))).digest('hex');

/** A fresh mirror pointed at the upstream server. */
const dirs = () => upstream.syncOptions();

const rows = (mirrorDir: string, sql: string) => sqlOn(join(mirrorDir, 'price_paid.duckdb'), sql);
const count = async (dir: string, where = 'true') =>
  (await rows(dir, `SELECT count(*) AS n FROM price_paid WHERE ${where}`))[0]!.n;

beforeAll(() => {
  server = upstream.server;
  root = mkdtempSync(join(tmpdir(), 'pd-sync-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  server.set('/price-paid/', indexPage({
    'Complete file': 'pp-complete.csv',
    'Monthly update': 'pp-monthly-update-new-version.csv',
  }, '2026-10-28'), { contentType: 'text/html' });
  server.setFile('/price-paid/pp-complete.csv', fixture('pp-complete.csv'));
  server.setFile('/price-paid/pp-monthly-update-new-version.csv', fixture('pp-monthly-update-new-version.csv'));
});

describe('price-paid sync: full load, then incremental updates', () => {
  let d: ReturnType<typeof dirs>;
  beforeAll(() => {
    d = dirs();
  });

  it('first sync is a full load of pp-complete.csv found through the index page', async () => {
    const events: SyncEvent[] = [];
    const [r] = await runSync(['price-paid'], { ...d, progress: (e) => events.push(e) });
    expect(r).toMatchObject({ dataset: 'price-paid', status: 'synced', mode: 'full', rows_loaded: 300, rows_rejected: 0, rows_total: 300 });
    expect(r!.files[0]).toMatchObject({ name: 'pp-complete.csv', sha256: sha('pp-complete.csv'), kind: 'full', published: '2026-10-28' });
    expect(r!.as_of).toBe(complete.map((x) => x.date).sort().pop());
    expect(await count(d.mirrorDir)).toBe(300);
    const [one] = await rows(d.mirrorDir, `SELECT id::VARCHAR AS id, price, date::VARCHAR AS date, postcode, property_type, paon, saon, street, town FROM price_paid WHERE id = '${complete[0]!.id}'`);
    expect(one).toEqual({ id: complete[0]!.id, price: 42000, date: '1995-12-21', postcode: 'NE4 9DN', property_type: 'S', paon: '8', saon: null, street: 'MATFEN PLACE', town: 'NEWCASTLE UPON TYNE' });
    const [log] = await rows(d.mirrorDir, 'SELECT * FROM sync_log');
    expect(log).toMatchObject({ dataset: 'price-paid', mode: 'full', rows_loaded: 300, rows_rejected: 0, sha256: sha('pp-complete.csv'), published: '2026-10-28' });
    expect(String(log!.source_url)).toBe(`${server.url}/price-paid/pp-complete.csv`);
    expect(events.some((e) => e.type === 'download')).toBe(true);
    expect(events.filter((e) => e.type === 'phase').map((e) => (e as { phase: string }).phase)).toEqual(['discover', 'download', 'load', 'verify', 'swap', 'done']);
    // sorted on postcode (nulls last)
    const pcs = (await rows(d.mirrorDir, 'SELECT postcode FROM price_paid')).map((x) => x.postcode as string);
    expect(pcs.filter(Boolean)).toEqual([...pcs.filter(Boolean)].sort());
    expect(readdirSync(d.mirrorDir).sort()).toEqual(['price_paid.duckdb']);
  });

  it('second sync applies the monthly update incrementally (real excerpt: 27 A, 16 D)', async () => {
    const [r] = await runSync(['price-paid'], d);
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', rows_loaded: 43, rows_rejected: 0 });
    const expected = applyUpdate(complete, realUpdate);
    expect(r!.rows_total).toBe(expected.length);
    expect(await count(d.mirrorDir)).toBe(expected.length);
    expect(await count(d.mirrorDir, `property_type = 'O'`)).toBe(expected.filter((x) => x.type === 'O').length);
    expect(await count(d.mirrorDir, `ppd_category = 'B'`)).toBe(expected.filter((x) => x.category === 'B').length);
    const logs = await rows(d.mirrorDir, 'SELECT mode FROM sync_log ORDER BY synced_at');
    expect(logs.map((x) => x.mode)).toEqual(['full', 'incremental']);
  });

  it('the same update again is recognised as already applied', async () => {
    const [r] = await runSync(['price-paid'], d);
    expect(r).toMatchObject({ status: 'up_to_date', rows_total: applyUpdate(complete, realUpdate).length });
    // the copy of the live file started for the update during the download is removed again
    expect(readdirSync(d.mirrorDir).sort()).toEqual(['price_paid.duckdb']);
  });

  it('--from a pp-monthly-update*.csv file applies A, C and D by transaction id', async () => {
    const before = applyUpdate(complete, realUpdate);
    // a reader opened before the sync keeps its (old) data; the next openDataset sees the new file
    const oldConn = await openDataset(ds('price-paid'), d.mirrorDir);
    const n = async (c: typeof oldConn) => (await query<{ n: number }>(c, 'SELECT count(*) AS n FROM price_paid'))[0]!.n;
    expect(await n(oldConn)).toBe(before.length);
    const [r] = await runSync(['price-paid'], { ...d, from: fixture('pp-monthly-update-acd-test.csv') });
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', rows_loaded: 4 });
    const expected = applyUpdate(before, acd);
    expect(await count(d.mirrorDir)).toBe(expected.length);
    expect(expected.length).toBe(before.length + 1);
    const changed = await rows(d.mirrorDir, `SELECT price FROM price_paid WHERE id = '20e2441a-0f16-49ab-97d4-8737e62a5d93'`);
    expect(changed).toEqual([{ price: 99500 }]);
    expect(await count(d.mirrorDir, `id = 'd893ee64-4464-44b5-b01b-8e62403ed83c'`)).toBe(0);
    expect(await rows(d.mirrorDir, `SELECT price FROM price_paid WHERE id = '00000000-0000-4000-8000-000000000002'`)).toEqual([{ price: 315000 }]);
    expect(await n(oldConn)).toBe(before.length);
    const newConn = await openDataset(ds('price-paid'), d.mirrorDir);
    expect(newConn).not.toBe(oldConn);
    expect(await n(newConn)).toBe(expected.length);
    // the same local file again: hashed during the load, recognised, the new file discarded
    const [again] = await runSync(['price-paid'], { ...d, from: fixture('pp-monthly-update-acd-test.csv') });
    expect(again).toMatchObject({ status: 'up_to_date', rows_total: expected.length });
    expect(again!.files[0]!.sha256).toBe(sha('pp-monthly-update-acd-test.csv'));
    expect(readdirSync(d.mirrorDir).sort()).toEqual(['price_paid.duckdb']);
  });

  it('--force reloads in full', async () => {
    const [r] = await runSync(['price-paid'], { ...d, force: true });
    expect(r).toMatchObject({ status: 'synced', mode: 'full', rows_total: 300 });
    const logs = await rows(d.mirrorDir, 'SELECT mode FROM sync_log ORDER BY synced_at');
    expect(logs.map((x) => x.mode)).toEqual(['full', 'incremental', 'incremental', 'full']);
  });

  it('a corrupt download is rejected and the previous data is still served', async () => {
    server.fault('/price-paid/pp-complete.csv', { corrupt: true });
    await expect(syncDataset('price-paid', { ...d, force: true })).rejects.toThrow(/(rows rejected \(more than 1\.00%\); the file looks corrupt|lines are not price-paid rows .*: not a price-paid CSV); kept the previous data/);
    expect(await count(d.mirrorDir)).toBe(300);
    expect(readdirSync(d.mirrorDir).sort()).toEqual(['price_paid.duckdb']);
    const logs = await rows(d.mirrorDir, 'SELECT count(*) AS n FROM sync_log');
    expect(logs[0]!.n).toBe(4);
  });

  it('mirror status reports rows, dates, size, licence and staleness', async () => {
    const now = () => new Date('2026-11-21T12:00:00Z');
    const [s] = await mirrorStatus({ env: {}, mirrorDir: d.mirrorDir, now, datasets: [ds('price-paid')] });
    expect(s).toMatchObject({ dataset: 'price-paid', present: true, rows: 300, published: '2026-10-28', stale: false, mode: 'full', licence: 'Open Government Licence v3.0' });
    expect(s!.size_bytes).toBeGreaterThan(0);
    const [late] = await mirrorStatus({ env: {}, mirrorDir: d.mirrorDir, now: () => new Date('2027-01-31T00:00:00Z'), datasets: [ds('price-paid')] });
    expect(late!.stale).toBe(true);
    const [hpi] = await mirrorStatus({ env: {}, mirrorDir: d.mirrorDir, now, datasets: [ds('hpi')] });
    expect(hpi).toMatchObject({ present: false, stale: null });
    expect(hpi!.note).toContain('publicdata sync hpi');
  });

  it('runSql attaches the datasets read-only', async () => {
    const r = await runSql(`SELECT count(*) AS n, max(price) AS top FROM price_paid.price_paid`, { datasets: DATASETS, env: {}, mirrorDir: d.mirrorDir });
    expect(r.rows).toEqual([{ n: 300, top: Math.max(...complete.map((x) => x.price)) }]);
    expect(r.columns.map((c) => c.name)).toEqual(['n', 'top']);
    const r2 = await runSql(`SELECT count(*) AS n FROM price_paid WHERE postcode = ?`, { datasets: DATASETS, env: {}, mirrorDir: d.mirrorDir, params: ['NE4 9DN'] });
    expect(r2.rows).toEqual([{ n: 1 }]);
    const few = await runSql('SELECT id FROM price_paid ORDER BY id', { datasets: DATASETS, env: {}, mirrorDir: d.mirrorDir, maxRows: 3 });
    expect(few.rows).toHaveLength(3);
    await expect(runSql('DELETE FROM price_paid.price_paid', { datasets: DATASETS, env: {}, mirrorDir: d.mirrorDir })).rejects.toThrow(/read-only/);
    await expect(runSql(`SELECT * FROM read_csv('${fixture('pp-complete.csv')}')`, { datasets: DATASETS, env: {}, mirrorDir: d.mirrorDir })).rejects.toThrow(/disabled/);
  });

  it('exportMirror writes Hive-partitioned Parquet and CSV', async () => {
    const out = join(root, 'export');
    const t = await exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: out, datasets: ['price-paid'], mirrorDir: d.mirrorDir });
    expect(t.find((x) => x.table === 'price_paid')).toMatchObject({ rows: 300, partitioned_by: 'year' });
    expect(existsSync(join(out, 'price-paid', 'price_paid', 'year=1995'))).toBe(true);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const n = (await c.runAndReadAll(`SELECT count(*) FROM read_parquet('${join(out, 'price-paid', 'price_paid')}/**/*.parquet', hive_partitioning = true)`)).getRows()[0]![0];
    expect(Number(n)).toBe(300);
    // CSV goes to a directory of its own (one lake, one format): the same year partitions, a header each
    const csv = await exportMirror({ catalogue: DATASETS, env: {}, format: 'csv', outDir: join(root, 'export-csv'), datasets: ['price-paid'], mirrorDir: d.mirrorDir });
    const dir = csv.find((x) => x.table === 'price_paid')!.path;
    const lines = readdirSync(dir).flatMap((y) => readFileSync(join(dir, y, 'data_0.csv'), 'utf8').trim().split('\n').slice(1));
    expect(lines.length).toBe(300);
    c.closeSync();
    db.closeSync();
  });
});

describe('price-paid sync: rejects', () => {
  it('bad rows below the threshold go to rejects with a reason; the rest loads', async () => {
    const d = dirs();
    const lines = readFileSync(fixture('pp-complete.csv'), 'utf8').trim().split('\n');
    const badPrice = lines[5]!.replace('"{', '"{').replace(/^("[^"]*"),"\d+"/, '$1,"12x00"');
    const short = '"{11111111-2222-4333-8444-555555555555}","1000","2001-01-01 00:00"';
    const badType = lines[7]!.replace(/^((?:"[^"]*",){4})"[A-Z]"/, '$1"Q"');
    const csv = [...lines.slice(0, 5), badPrice, ...lines.slice(6, 7), badType, ...lines.slice(8, 150), short, ...lines.slice(150)];
    mkdirSync(join(root, 'rejects'), { recursive: true });
    const file = join(root, 'rejects', 'pp-2001.csv');
    writeFileSync(file, csv.join('\n') + '\n');
    const [r] = await runSync(['price-paid'], { ...d, from: file });
    expect(r).toMatchObject({ status: 'synced', rows_loaded: 298, rows_rejected: 3 });
    const rej = await rows(d.mirrorDir, 'SELECT line, raw, reason, file FROM rejects ORDER BY reason');
    expect(rej).toEqual([
      { line: null, raw: badPrice, reason: 'invalid price', file },
      { line: null, raw: badType, reason: 'invalid property type', file },
      { line: 151, raw: short, reason: expect.stringMatching(/^malformed CSV line: /), file },
    ]);
  });
});

describe('price-paid sync: downloads', () => {
  it('resumes with Range after a dropped connection', async () => {
    const d = dirs();
    server.fault('/price-paid/pp-complete.csv', { dropAfterBytes: 20_000, times: 1 });
    const start = server.requests.length;
    const [r] = await runSync(['price-paid'], { ...d, retries: 1 });
    expect(r).toMatchObject({ status: 'synced', rows_total: 300 });
    expect(r!.files[0]!.sha256).toBe(sha('pp-complete.csv'));
    const reqs = server.requests.slice(start).filter((q) => q.path === '/price-paid/pp-complete.csv');
    expect(reqs.length).toBe(2);
    expect(reqs[1]).toMatchObject({ range: 'bytes=20000-', status: 206 });
    expect(reqs[1]!.ifRange).toBeTruthy();
  });

  it('an update with no data to apply it to asks for a full sync first', async () => {
    const d = dirs();
    const [r] = await runSync(['price-paid'], { ...d, from: fixture('pp-monthly-update-acd-test.csv') });
    expect(r!.status).toBe('failed');
    expect(r!.error).toMatch(/full load\) first/);
  });

  it('--years loads yearly files', async () => {
    const d = dirs();
    server.setFile('/price-paid/pp-1995.csv', fixture('pp-complete.csv'));
    const [r] = await runSync(['price-paid'], { ...d, years: { from: 1995, to: 1995 } });
    expect(r).toMatchObject({ status: 'synced', mode: 'full', rows_total: 300 });
    expect(r!.files.map((f) => f.name)).toEqual(['pp-1995.csv']);
  });

  it('a sync of the same dataset by a live process is refused; a dead one\'s lock is taken over', async () => {
    const d = dirs();
    mkdirSync(d.mirrorDir, { recursive: true });
    const lock = join(d.mirrorDir, 'price_paid.duckdb.sync-lock');
    writeFileSync(lock, String(process.ppid));
    const events: SyncEvent[] = [];
    const [r] = await runSync(['price-paid'], { ...d, progress: (e) => events.push(e) });
    expect(r!.status).toBe('failed');
    expect(r!.error).toMatch(new RegExp(`another sync of price-paid is running \\(pid ${process.ppid}\\)`));
    expect(events.some((e) => e.type === 'failed')).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
    writeFileSync(lock, '999999999');
    const [ok] = await runSync(['price-paid'], d);
    expect(ok!.status).toBe('synced');
    expect(existsSync(lock)).toBe(false);
  });

  it('HTTP errors fail the sync with a message', async () => {
    const d = dirs();
    server.fault('/price-paid/pp-complete.csv', { status: 500 });
    const [r] = await runSync(['price-paid'], { ...d, retries: 1 });
    expect(r!.status).toBe('failed');
    expect(r!.error).toMatch(/HTTP 500/);
    expect(existsSync(join(d.mirrorDir, 'price_paid.duckdb'))).toBe(false);
  });

  it('progress: one summary line when not a TTY', async () => {
    const d = dirs();
    let out = '';
    const stream = { write: (s: string) => ((out += s), true), isTTY: false } as unknown as NodeJS.WritableStream;
    await runSync(['price-paid'], { ...d, progress: createProgressReporter({ stream }) });
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toMatch(/^price-paid: synced \(full load\) 300 rows loaded, 0 rejected, 300 in the mirror; .* downloaded in .*; as of 1995-12-/);
  });
});
