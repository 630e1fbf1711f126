/**
 * `mirror export --since`: after an example-records update file (INVENTED records of 2023 to 2026,
 * records-gen.ts, and test/fixtures/example/records-update.csv, applied by the real sync), only the year
 * partitions whose rows changed are rewritten (which years is computed here from the two CSV files, not
 * from the exporter), the others keep their files (same inode and mtime), and the result
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
import { applyRecordsUpdate, readRecords, recordsCsv, type RecordRow } from '../support/example-domain/records-gen.js';
import { coldDuck, hyparquetRows, parquetFiles } from './export-helper.js';

let root = '';
let mirror = '';
/** 600 records, dated 2023-01-03 to 2026-04-14 (four years), and the update of the fixtures (touching 2023 and 2024). */
const COMPLETE = recordsCsv(1, 600);
const UPDATE_FILE = join(import.meta.dirname, '..', 'fixtures', 'example', 'records-update.csv');
const UPDATE = readFileSync(UPDATE_FILE, 'utf8');
const before = readRecords(COMPLETE);
const update = UPDATE.trimEnd().split('\n').slice(1).map((l) => ({ status: l.split(',')[0]!, id: Number(l.split(',')[1]), recorded_on: l.split(',')[4]! }));
const after = applyRecordsUpdate(before, UPDATE);
const yearOf = (r: { recorded_on: string }) => Number(r.recorded_on.slice(0, 4));

/** Years whose rows differ between two versions of the data (rows compared whole, as multisets). */
function changedYears(a: RecordRow[], b: RecordRow[]): Set<number> {
  const byYear = (rows: RecordRow[]) => {
    const m = new Map<number, string[]>();
    for (const r of rows) {
      const y = yearOf(r);
      m.set(y, [...(m.get(y) ?? []), JSON.stringify(r)]);
    }
    for (const v of m.values()) v.sort();
    return m;
  };
  const [x, y] = [byYear(a), byYear(b)];
  const years = new Set([...x.keys(), ...y.keys()]);
  return new Set([...years].filter((k) => JSON.stringify(x.get(k) ?? []) !== JSON.stringify(y.get(k) ?? [])));
}

const stamp = (lake: string) =>
  new Map(parquetFiles(join(lake, 'example-records', 'records')).map((f) => [Number(f.values.year), { ino: statSync(f.file).ino, mtime: statSync(f.file).mtimeMs }]));
const run = (out: string, since?: string, from = mirror): Promise<ExportedTable[]> =>
  exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: out, datasets: ['example-records'], mirrorDir: from, ...(since ? { since } : {}) });
const manifestOf = (lake: string) => JSON.parse(readFileSync(join(lake, 'manifest.json'), 'utf8')) as Manifest;
const glob = (lake: string) => `read_parquet('${join(lake, 'example-records', 'records')}/*/*.parquet', hive_partitioning = true)`;

let lake = '';
let lakeA = '';
let stampsBefore: Map<number, { ino: number; mtime: number }>;
let incremental: ExportedTable[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-inc-'));
  mirror = join(root, 'mirror');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'records-complete.csv'), COMPLETE);
  await buildDataset('example-records', join(root, 'src', 'records-complete.csv'), mirror);
  lake = join(root, 'lake');
  lakeA = join(root, 'lake-a');
  await run(lake);
  await run(lakeA);
  stampsBefore = stamp(lake);
  await new Promise((r) => setTimeout(r, 20)); // mtimes of rewritten files must differ
  await buildDataset('example-records', UPDATE_FILE, mirror);
  incremental = await run(lake, lake);
}, 120_000);
afterAll(() => cleanup([root]));

describe('mirror export --since after an example-records update', () => {
  it('rewrites only the years the update touched; the other files are the same files', () => {
    const want = changedYears(before, after);
    expect(want.size).toBeGreaterThan(0);
    const pp = incremental.find((t) => t.table === 'records')!;
    expect(pp.rows).toBe(after.length);
    expect(pp.written).toBe(want.size);
    expect(pp.partitions).toBe(new Set(after.map(yearOf)).size);
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
    const parts = (l: string) => manifestOf(l).datasets['example-records']!.tables.find((t) => t.name === 'records')!.partitions.map((p) => [p.path, p.rows, p.fingerprint]);
    expect(parts(lake)).toEqual(parts(fresh));
    const [d] = await coldDuck<{ a: string; b: string; n: string }>(
      `SELECT (SELECT count(*) FROM (FROM ${glob(lake)} EXCEPT ALL FROM ${glob(fresh)})) AS a, (SELECT count(*) FROM (FROM ${glob(fresh)} EXCEPT ALL FROM ${glob(lake)})) AS b, (SELECT count(*) FROM ${glob(lake)}) AS n`,
    );
    expect([Number(d!.a), Number(d!.b), Number(d!.n)]).toEqual([0, 0, after.length]);
    // hyparquet agrees on the ids
    const ids = (await hyparquetRows(join(lake, 'example-records', 'records'))).map((r) => Number(r.id)).sort((a, b) => a - b);
    expect(ids).toEqual(after.map((r) => r.id).sort((a, b) => a - b));
  });

  it('a rewritten year holds exactly that year\'s rows of the updated CSV, in at most two id runs', async () => {
    // the rewrite derives the year from its earlier file (id order) minus the removed rows, then the added
    // rows in id order; checked from the CSV rows
    const want = changedYears(before, after);
    for (const year of want) {
      const rows = await hyparquetRows(join(lake, 'example-records', 'records', `year=${year}`));
      const expected = after.filter((r) => yearOf(r) === year).map((r) => r.id);
      const got = rows.map((r) => Number(r.id));
      expect(got.length, `year ${year}`).toBe(expected.length);
      expect([...got].sort((a, b) => a - b), `year ${year}`).toEqual(expected.sort((a, b) => a - b));
      const descents = got.filter((x, i) => i > 0 && got[i - 1]! > x).length;
      expect(descents, `year ${year}: ascending id runs - 1`).toBeLessThanOrEqual(1);
    }
  });

  it('--since another directory: unchanged partitions copied from it, the earlier export left as it was', async () => {
    const aBefore = readdirSync(join(lakeA, 'example-records', 'records')).sort();
    const stampsA = stamp(lakeA);
    const out = join(root, 'lake-c');
    const r = await run(out, lakeA);
    const want = changedYears(before, after);
    expect(r.find((t) => t.table === 'records')!.written).toBe(want.size);
    expect(stamp(lakeA)).toEqual(stampsA);
    expect(readdirSync(join(lakeA, 'example-records', 'records')).sort()).toEqual(aBefore);
    const [d] = await coldDuck<{ a: string; n: string }>(`SELECT (SELECT count(*) FROM (FROM ${glob(out)} EXCEPT ALL FROM ${glob(lake)})) AS a, (SELECT count(*) FROM ${glob(out)}) AS n`);
    expect([Number(d!.a), Number(d!.n)]).toEqual([0, after.length]);
  });

  it('nothing changed: nothing written, files untouched; a dead run’s staging directory is swept', async () => {
    const dead = join(lake, 'example-records', 'records', '.staging-999999999', 'year=2001');
    mkdirSync(dead, { recursive: true });
    writeFileSync(join(dead, 'data_0.parquet'), 'half a file');
    const s = stamp(lake);
    const lines: string[] = [];
    const r = await exportMirror({
      catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, datasets: ['example-records'], mirrorDir: mirror, since: join(lake, 'manifest.json'),
      progress: createExportProgress({ stream: { write: (x: string) => lines.push(x) }, tty: false }),
    });
    expect(r.map((t) => t.written)).toEqual([0, 0]);
    expect(stamp(lake)).toEqual(s);
    expect(readdirSync(join(lake, 'example-records', 'records')).filter((n) => n.startsWith('.'))).toEqual([]);
    // not a terminal: one summary line
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatch(new RegExp(`^exported 1 dataset\\(s\\), 2 tables, ${(after.length + 2).toLocaleString('en-GB')} rows, \\d+ partitions \\(0 written, \\d+ unchanged\\)`));
  });

  it('on a terminal: a redrawn line per table, cleared before the summary', async () => {
    let text = '';
    await exportMirror({
      catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, datasets: ['example-records'], mirrorDir: mirror, since: lake,
      progress: createExportProgress({ stream: { write: (x: string) => (text += x), columns: 200 }, tty: true }),
    });
    expect(text).toContain('\rexport example-records/records (1 of 2): fingerprinting…');
    expect(text).toContain('\rexport example-records/sync_log (2 of 2): swapping in…');
    const last = text.slice(text.lastIndexOf('\r') + 1);
    expect(last).toMatch(/^exported 1 dataset\(s\), 2 tables, .*\n$/);
    expect(last.split('\n').length).toBe(2);
  });

  it('refuses a --since without a manifest, and a second format in the same directory', async () => {
    await expect(run(join(root, 'x'), join(root, 'nowhere'))).rejects.toBeInstanceOf(ExportUsageError);
    await expect(exportMirror({ catalogue: DATASETS, env: {}, format: 'csv', outDir: lake, datasets: ['example-records'], mirrorDir: mirror })).rejects.toThrow(/holds a parquet export/);
    const bad = join(root, 'not-written');
    await expect(exportMirror({ catalogue: DATASETS, env: { PUBLICDATA_EXPORT_MEMORY: 'lots' }, format: 'parquet', outDir: bad, datasets: ['example-records'], mirrorDir: mirror })).rejects.toThrow(/PUBLICDATA_EXPORT_MEMORY must be a size/);
    expect(existsSync(bad)).toBe(false);
  });

  it('CSV: the same partitions with a header each, and the DuckDB DDL reads them', async () => {
    const out = join(root, 'csv');
    await exportMirror({ catalogue: DATASETS, env: {}, format: 'csv', outDir: out, datasets: ['example-records'], mirrorDir: mirror });
    const dir = join(out, 'example-records', 'records');
    const years = readdirSync(dir).sort();
    expect(years).toEqual([...new Set(after.map((r) => `year=${yearOf(r)}`))].sort());
    const lines = years.flatMap((y) => readFileSync(join(dir, y, 'data_0.csv'), 'utf8').trim().split('\n').slice(1));
    expect(lines.length).toBe(after.length);
    const ddl = readFileSync(join(out, 'ddl', 'duckdb.sql'), 'utf8').split(/;\s*\n/).map((s) => s.replace(/^(--[^\n]*\n)+/g, '').trim()).filter(Boolean);
    const [n] = await coldDuck<{ n: string; s: string }>('SELECT count(*) AS n, sum(count)::BIGINT AS s FROM example_records.records', ddl);
    expect([Number(n!.n), Number(n!.s)]).toEqual([after.length, after.reduce((s, r) => s + r.count, 0)]);
  });

  it('uses the sync\'s record of the rows it changed, only for the step it describes (else fingerprints)', async () => {
    // the years the update's rows touch, from the CSVs: new versions' dates and the old versions of their ids
    const ids = new Set(update.map((u) => u.id));
    const touched = new Set([...update.filter((u) => u.status !== 'D'), ...before.filter((b) => ids.has(b.id))].map(yearOf));
    const years = [...new Set(after.map(yearOf))];
    const other = years.find((y) => !touched.has(y))!;
    expect(other).toBeDefined();
    // a copy of the updated mirror with a change no sync recorded: one more on every record's count in `other`
    const m2 = join(root, 'mirror-2');
    mkdirSync(m2);
    copyFileSync(join(mirror, 'example_records.duckdb'), join(m2, 'example_records.duckdb'));
    const edit = async (sql: string) => {
      const db = await DuckDBInstance.create(join(m2, 'example_records.duckdb'));
      const c = await db.connect();
      await c.run(sql);
      c.closeSync();
      db.closeSync();
    };
    await edit(`UPDATE records SET count = count + 1 WHERE year(recorded_on) = ${other}`);
    const want = changedYears(before, after);
    // --since the export of the sync the record starts from: the record is trusted, `other` not looked at
    const trusted = await run(join(root, 'lake-r1'), lakeA, m2);
    expect(trusted.find((t) => t.table === 'records')!.written).toBe(want.size);
    // a sync in between that recorded nothing: the record no longer describes the step; fingerprints find `other` too
    await edit(`INSERT INTO sync_log (dataset, rows_loaded, rows_rejected, rows_total, duration_ms, mode, synced_at)
      SELECT dataset, 0, 0, rows_total, 0, 'incremental', synced_at + INTERVAL 1 SECOND FROM sync_log ORDER BY synced_at DESC LIMIT 1`);
    const out = join(root, 'lake-r2');
    const r = await run(out, lakeA, m2);
    expect(r.find((t) => t.table === 'records')!.written).toBe(want.size + 1);
    const fresh = join(root, 'fresh-2');
    await run(fresh, undefined, m2);
    const [d] = await coldDuck<{ a: string; b: string; s: string }>(
      `SELECT (SELECT count(*) FROM (FROM ${glob(out)} EXCEPT ALL FROM ${glob(fresh)})) AS a, (SELECT count(*) FROM (FROM ${glob(fresh)} EXCEPT ALL FROM ${glob(out)})) AS b,
        (SELECT sum(count)::BIGINT FROM ${glob(out)}) AS s`,
    );
    const bumped = after.filter((x) => yearOf(x) === other).length;
    expect([Number(d!.a), Number(d!.b), Number(d!.s)]).toEqual([0, 0, after.reduce((t, x) => t + x.count, 0) + bumped]);
  });
});
