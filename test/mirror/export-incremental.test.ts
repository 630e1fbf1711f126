/**
 * `mirror export --since`: after a price-paid monthly update (the real excerpt, applied by the real sync),
 * only the year partitions whose rows changed are rewritten (which years is computed here from the two
 * CSV files, not from the exporter), the others keep their files (same inode and mtime), and the result
 * equals a fresh full export; `--since` another directory copies the unchanged partitions over.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMirror, ExportUsageError, type ExportedTable } from '../../src/mirror/export.js';
import { DATASETS } from '../../src/registry.js';
import type { Manifest } from '../../src/mirror/export-manifest.js';
import { createExportProgress } from '../../src/mirror/export-progress.js';
import { buildDataset, cleanup } from '../support/mirror-helper.js';
import { applyUpdate, fixture, readPpd, type PpdRow } from '../property/ppd-fixture.js';
import { coldDuck, hyparquetRows, parquetFiles } from './export-helper.js';

let root = '';
let mirror = '';
const before = readPpd('pp-complete.csv');
const update = readPpd('pp-monthly-update-new-version.csv');
const after = applyUpdate(before, update);

/** Years whose rows differ between two versions of the data (rows compared whole, as multisets). */
function changedYears(a: PpdRow[], b: PpdRow[]): Set<number> {
  const byYear = (rows: PpdRow[]) => {
    const m = new Map<number, string[]>();
    for (const r of rows) {
      const y = Number(r.date.slice(0, 4));
      m.set(y, [...(m.get(y) ?? []), JSON.stringify({ ...r, status: undefined })]);
    }
    for (const v of m.values()) v.sort();
    return m;
  };
  const [x, y] = [byYear(a), byYear(b)];
  const years = new Set([...x.keys(), ...y.keys()]);
  return new Set([...years].filter((k) => JSON.stringify(x.get(k) ?? []) !== JSON.stringify(y.get(k) ?? [])));
}

const stamp = (lake: string) =>
  new Map(parquetFiles(join(lake, 'price-paid', 'price_paid')).map((f) => [Number(f.values.year), { ino: statSync(f.file).ino, mtime: statSync(f.file).mtimeMs }]));
const run = (out: string, since?: string, from = mirror): Promise<ExportedTable[]> =>
  exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: out, datasets: ['price-paid'], mirrorDir: from, ...(since ? { since } : {}) });
const manifestOf = (lake: string) => JSON.parse(readFileSync(join(lake, 'manifest.json'), 'utf8')) as Manifest;
const glob = (lake: string) => `read_parquet('${join(lake, 'price-paid', 'price_paid')}/*/*.parquet', hive_partitioning = true)`;

let lake = '';
let lakeA = '';
let stampsBefore: Map<number, { ino: number; mtime: number }>;
let incremental: ExportedTable[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-inc-'));
  mirror = join(root, 'mirror');
  await buildDataset('price-paid', fixture('pp-complete.csv'), mirror);
  lake = join(root, 'lake');
  lakeA = join(root, 'lake-a');
  await run(lake);
  await run(lakeA);
  stampsBefore = stamp(lake);
  await new Promise((r) => setTimeout(r, 20)); // mtimes of rewritten files must differ
  await buildDataset('price-paid', fixture('pp-monthly-update-new-version.csv'), mirror);
  incremental = await run(lake, lake);
}, 120_000);
afterAll(() => cleanup([root]));

describe('mirror export --since after a price-paid update', () => {
  it('rewrites only the years the update touched; the other files are the same files', () => {
    const want = changedYears(before, after);
    expect(want.size).toBeGreaterThan(0);
    const pp = incremental.find((t) => t.table === 'price_paid')!;
    expect(pp.rows).toBe(after.length);
    expect(pp.written).toBe(want.size);
    expect(pp.partitions).toBe(new Set(after.map((r) => r.date.slice(0, 4))).size);
    expect(want.size).toBeLessThan(pp.partitions); // some years untouched, or the test would prove nothing
    const now = stamp(lake);
    for (const [year, s] of now) {
      const old = stampsBefore.get(year);
      if (want.has(year)) expect(old === undefined || old.ino !== s.ino || old.mtime !== s.mtime, `year ${year} rewritten`).toBe(true);
      else expect(s, `year ${year} kept`).toEqual(old);
    }
    // the sync log gained a row: rewritten too
    expect(incremental.find((t) => t.table === 'sync_log')).toMatchObject({ rows: 2, written: 1 });
  });

  it('equals a fresh full export (manifest fingerprints, and every row both ways)', async () => {
    const fresh = join(root, 'fresh');
    await run(fresh);
    const parts = (l: string) => manifestOf(l).datasets['price-paid']!.tables.find((t) => t.name === 'price_paid')!.partitions.map((p) => [p.path, p.rows, p.fingerprint]);
    expect(parts(lake)).toEqual(parts(fresh));
    const [d] = await coldDuck<{ a: string; b: string; n: string }>(
      `SELECT (SELECT count(*) FROM (FROM ${glob(lake)} EXCEPT ALL FROM ${glob(fresh)})) AS a, (SELECT count(*) FROM (FROM ${glob(fresh)} EXCEPT ALL FROM ${glob(lake)})) AS b, (SELECT count(*) FROM ${glob(lake)}) AS n`,
    );
    expect([Number(d!.a), Number(d!.b), Number(d!.n)]).toEqual([0, 0, after.length]);
    // hyparquet agrees on the ids
    const ids = (await hyparquetRows(join(lake, 'price-paid', 'price_paid'))).map((r) => String(r.id)).sort();
    expect(ids).toEqual(after.map((r) => r.id).sort());
  });

  it('a rewritten year holds exactly that year\'s rows of the updated CSV, in at most two postcode runs', async () => {
    // the rewrite derives the year from its earlier file (postcode order) minus the removed rows, then
    // the added rows in postcode order; checked from the CSV rows
    const want = changedYears(before, after);
    for (const year of want) {
      const rows = await hyparquetRows(join(lake, 'price-paid', 'price_paid', `year=${year}`));
      const expected = after.filter((r) => Number(r.date.slice(0, 4)) === year).map((r) => r.postcode ?? '');
      const got = rows.map((r) => (r.postcode === null || r.postcode === undefined ? '' : String(r.postcode)));
      expect(got.length, `year ${year}`).toBe(expected.length);
      expect([...got].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), `year ${year}`).toEqual(expected.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const nonNull = got.filter((x) => x !== '');
      const descents = nonNull.filter((x, i) => i > 0 && nonNull[i - 1]! > x).length;
      expect(descents, `year ${year}: ascending postcode runs - 1`).toBeLessThanOrEqual(1);
    }
  });

  it('--since another directory: unchanged partitions copied from it, the earlier export left as it was', async () => {
    const aBefore = readdirSync(join(lakeA, 'price-paid', 'price_paid')).sort();
    const stampsA = stamp(lakeA);
    const out = join(root, 'lake-c');
    const r = await run(out, lakeA);
    const want = changedYears(before, after);
    expect(r.find((t) => t.table === 'price_paid')!.written).toBe(want.size);
    expect(stamp(lakeA)).toEqual(stampsA);
    expect(readdirSync(join(lakeA, 'price-paid', 'price_paid')).sort()).toEqual(aBefore);
    const [d] = await coldDuck<{ a: string; n: string }>(`SELECT (SELECT count(*) FROM (FROM ${glob(out)} EXCEPT ALL FROM ${glob(lake)})) AS a, (SELECT count(*) FROM ${glob(out)}) AS n`);
    expect([Number(d!.a), Number(d!.n)]).toEqual([0, after.length]);
  });

  it('nothing changed: nothing written, files untouched; a dead run’s staging directory is swept', async () => {
    const dead = join(lake, 'price-paid', 'price_paid', '.staging-999999999', 'year=2001');
    mkdirSync(dead, { recursive: true });
    writeFileSync(join(dead, 'data_0.parquet'), 'half a file');
    const s = stamp(lake);
    const lines: string[] = [];
    const r = await exportMirror({
      catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, datasets: ['price-paid'], mirrorDir: mirror, since: join(lake, 'manifest.json'),
      progress: createExportProgress({ stream: { write: (x: string) => lines.push(x) }, tty: false }),
    });
    expect(r.map((t) => t.written)).toEqual([0, 0]);
    expect(stamp(lake)).toEqual(s);
    expect(readdirSync(join(lake, 'price-paid', 'price_paid')).filter((n) => n.startsWith('.'))).toEqual([]);
    // not a terminal: one summary line
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatch(new RegExp(`^exported 1 dataset\\(s\\), 2 tables, ${(after.length + 2).toLocaleString('en-GB')} rows, \\d+ partitions \\(0 written, \\d+ unchanged\\)`));
  });

  it('on a terminal: a redrawn line per table, cleared before the summary', async () => {
    let text = '';
    await exportMirror({
      catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, datasets: ['price-paid'], mirrorDir: mirror, since: lake,
      progress: createExportProgress({ stream: { write: (x: string) => (text += x), columns: 200 }, tty: true }),
    });
    expect(text).toContain('\rexport price-paid/price_paid (1 of 2): fingerprinting…');
    expect(text).toContain('\rexport price-paid/sync_log (2 of 2): swapping in…');
    const last = text.slice(text.lastIndexOf('\r') + 1);
    expect(last).toMatch(/^exported 1 dataset\(s\), 2 tables, .*\n$/);
    expect(last.split('\n').length).toBe(2);
  });

  it('refuses a --since without a manifest, and a second format in the same directory', async () => {
    await expect(run(join(root, 'x'), join(root, 'nowhere'))).rejects.toBeInstanceOf(ExportUsageError);
    await expect(exportMirror({ catalogue: DATASETS, env: {}, format: 'csv', outDir: lake, datasets: ['price-paid'], mirrorDir: mirror })).rejects.toThrow(/holds a parquet export/);
    const bad = join(root, 'not-written');
    await expect(exportMirror({ catalogue: DATASETS, env: { PUBLICDATA_EXPORT_MEMORY: 'lots' }, format: 'parquet', outDir: bad, datasets: ['price-paid'], mirrorDir: mirror })).rejects.toThrow(/PUBLICDATA_EXPORT_MEMORY must be a size/);
    expect(existsSync(bad)).toBe(false);
  });

  it('CSV: the same partitions with a header each, and the DuckDB DDL reads them', async () => {
    const out = join(root, 'csv');
    await exportMirror({ catalogue: DATASETS, env: {}, format: 'csv', outDir: out, datasets: ['price-paid'], mirrorDir: mirror });
    const dir = join(out, 'price-paid', 'price_paid');
    const years = readdirSync(dir).sort();
    expect(years).toEqual([...new Set(after.map((r) => `year=${r.date.slice(0, 4)}`))].sort());
    const lines = years.flatMap((y) => readFileSync(join(dir, y, 'data_0.csv'), 'utf8').trim().split('\n').slice(1));
    expect(lines.length).toBe(after.length);
    const ddl = readFileSync(join(out, 'ddl', 'duckdb.sql'), 'utf8').split(/;\s*\n/).map((s) => s.replace(/^(--[^\n]*\n)+/g, '').trim()).filter(Boolean);
    const [n] = await coldDuck<{ n: string; s: string }>('SELECT count(*) AS n, sum(price)::BIGINT AS s FROM price_paid.price_paid', ddl);
    expect([Number(n!.n), Number(n!.s)]).toEqual([after.length, after.reduce((s, r) => s + r.price, 0)]);
  });

  it('uses the sync\'s record of the rows it changed, only for the step it describes (else fingerprints)', async () => {
    // the years the update's rows touch, from the CSVs: new versions' dates and the old versions of their ids
    const ids = new Set(update.map((u) => u.id));
    const touched = new Set([...update.filter((u) => u.status !== 'D'), ...before.filter((b) => ids.has(b.id))].map((r) => Number(r.date.slice(0, 4))));
    const years = [...new Set(after.map((r) => Number(r.date.slice(0, 4))))];
    const other = years.find((y) => !touched.has(y))!;
    expect(other).toBeDefined();
    // a copy of the updated mirror with a change no sync recorded: one more pound on every sale of `other`
    const m2 = join(root, 'mirror-2');
    mkdirSync(m2);
    copyFileSync(join(mirror, 'price_paid.duckdb'), join(m2, 'price_paid.duckdb'));
    const edit = async (sql: string) => {
      const db = await DuckDBInstance.create(join(m2, 'price_paid.duckdb'));
      const c = await db.connect();
      await c.run(sql);
      c.closeSync();
      db.closeSync();
    };
    await edit(`UPDATE price_paid SET price = price + 1 WHERE year(date) = ${other}`);
    const want = changedYears(before, after);
    // --since the export of the sync the record starts from: the record is trusted, `other` not looked at
    const trusted = await run(join(root, 'lake-r1'), lakeA, m2);
    expect(trusted.find((t) => t.table === 'price_paid')!.written).toBe(want.size);
    // a sync in between that recorded nothing: the record no longer describes the step; fingerprints find `other` too
    await edit(`INSERT INTO sync_log (dataset, rows_loaded, rows_rejected, rows_total, duration_ms, mode, synced_at)
      SELECT dataset, 0, 0, rows_total, 0, 'incremental', synced_at + INTERVAL 1 SECOND FROM sync_log ORDER BY synced_at DESC LIMIT 1`);
    const out = join(root, 'lake-r2');
    const r = await run(out, lakeA, m2);
    expect(r.find((t) => t.table === 'price_paid')!.written).toBe(want.size + 1);
    const fresh = join(root, 'fresh-2');
    await run(fresh, undefined, m2);
    const [d] = await coldDuck<{ a: string; b: string; s: string }>(
      `SELECT (SELECT count(*) FROM (FROM ${glob(out)} EXCEPT ALL FROM ${glob(fresh)})) AS a, (SELECT count(*) FROM (FROM ${glob(fresh)} EXCEPT ALL FROM ${glob(out)})) AS b,
        (SELECT sum(price)::BIGINT FROM ${glob(out)}) AS s`,
    );
    const bumped = after.filter((x) => Number(x.date.slice(0, 4)) === other).length;
    expect([Number(d!.a), Number(d!.b), Number(d!.s)]).toEqual([0, 0, after.reduce((t, x) => t + x.price, 0) + bumped]);
  });
});
