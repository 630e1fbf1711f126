/**
 * `mirror export --since` after crime syncs: the sync records the months it loaded (src/domains/crime/sync.ts
 * `recordMonths`), and the export fingerprints and rewrites only those `month` partitions of `street`; the
 * other months keep their files (same inode and mtime). Each step's lake equals a fresh full export (every
 * row, both ways), and its per-month row counts, "No Location" counts and distinct crime IDs are those
 * counted from the real CSV files here (plain split, fixture.ts), not by the code under test.
 *
 * Steps (each a real sync of real data.police.uk files, then `--since` the previous step's export):
 * 1. the 2024-01 archive (City as first published, Surrey), exported in full;
 * 2. the 2025-05 City street file (a new month): only month=2025-05 written;
 * 3. the 2024-01 City street file as re-published 18 months later (outcomes updated): only month=2024-01;
 * 4. the 2025-05 file again (re-issued unchanged): recorded, fingerprinted, equal: nothing written.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMirror, type ExportedTable } from '../../src/mirror/export.js';
import { createExportProgress, type ExportEvent } from '../../src/mirror/export-progress.js';
import { DATASETS } from '../../src/registry.js';
import { syncDataset } from '../../src/sync-runner.js';
import { archive, bytesOf, type CsvRow, FILES, month2401, rowsOf } from './fixture.js';
import { cleanup } from '../support/mirror-helper.js';
import { coldDuck, hyparquetRows, parquetFiles } from '../mirror/export-helper.js';

let root = '';
let mirror = '';
let src = '';
let lake = '';

const sync = async (file: string, data: Buffer) => {
  const p = join(src, file);
  writeFileSync(p, data);
  const r = await syncDataset('crime', { mirrorDir: mirror, cacheDir: join(root, 'cache'), env: {}, from: p });
  expect(r.status).toBe('synced');
};
const exportTo = (out: string, since?: string, from = mirror, progress?: (e: ExportEvent) => void): Promise<ExportedTable[]> =>
  exportMirror({
    catalogue: DATASETS, env: {}, format: 'parquet', outDir: out, datasets: ['crime'], mirrorDir: from,
    ...(since ? { since } : {}), ...(progress ? { progress } : {}),
  });
const street = (r: ExportedTable[]) => r.find((t) => t.table === 'street')!;

/** month -> inode and mtime of its files, as a listing of the lake's street table shows them. */
const stamp = (l: string) => {
  const m = new Map<string, string>();
  for (const f of parquetFiles(join(l, 'crime', 'street'))) m.set(f.values.month!, `${m.get(f.values.month!) ?? ''}${statSync(f.file).ino}@${statSync(f.file).mtimeMs};`);
  return m;
};

/** Per month, from CSV rows: rows, rows without a location, distinct crime IDs. */
function expected(rows: CsvRow[]): Record<string, { rows: number; noLocation: number; ids: number }> {
  const out: Record<string, { rows: number; noLocation: number; ids: Set<string> }> = {};
  for (const r of rows) {
    const m = (out[r['Month']!] ??= { rows: 0, noLocation: 0, ids: new Set() });
    m.rows++;
    if (!r['Latitude']) m.noLocation++;
    if (r['Crime ID']) m.ids.add(r['Crime ID']);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { rows: v.rows, noLocation: v.noLocation, ids: v.ids.size }]));
}

/** The same figures read from the lake by hyparquet (month from the path). */
async function observed(l: string): Promise<Record<string, { rows: number; noLocation: number; ids: number }>> {
  const out: Record<string, { rows: number; noLocation: number; ids: Set<string> }> = {};
  for (const r of await hyparquetRows(join(l, 'crime', 'street'))) {
    const m = (out[String(r.month)] ??= { rows: 0, noLocation: 0, ids: new Set() });
    m.rows++;
    if (r.latitude === null || r.latitude === undefined) m.noLocation++;
    if (r.crime_id) m.ids.add(String(r.crime_id));
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { rows: v.rows, noLocation: v.noLocation, ids: v.ids.size }]));
}

const glob = (l: string) => `read_parquet('${join(l, 'crime', 'street')}/*/*.parquet', hive_partitioning = true)`;

/** The lake's street table equals a fresh full export of the same mirror, row for row, both ways. */
async function equalsFresh(l: string, name: string): Promise<void> {
  const fresh = join(root, name);
  await exportTo(fresh);
  const [d] = await coldDuck<{ a: string; b: string; n: string; f: string }>(
    `SELECT (SELECT count(*) FROM (FROM ${glob(l)} EXCEPT ALL FROM ${glob(fresh)})) AS a, (SELECT count(*) FROM (FROM ${glob(fresh)} EXCEPT ALL FROM ${glob(l)})) AS b,
       (SELECT count(*) FROM ${glob(l)}) AS n, (SELECT count(*) FROM ${glob(fresh)}) AS f`,
  );
  expect([Number(d!.a), Number(d!.b), Number(d!.n)]).toEqual([0, 0, Number(d!.f)]);
}

const city2401old = rowsOf(FILES.city2401old);
const city2401new = rowsOf(FILES.city2401new);
const surrey = rowsOf(FILES.surrey2401);
const city2505 = rowsOf(FILES.city2505);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-crime-'));
  mirror = join(root, 'mirror');
  src = join(root, 'src');
  mkdirSync(src, { recursive: true });
  lake = join(root, 'lake');
  await sync('latest.zip', await archive(month2401('old')));
  await exportTo(lake);
}, 120_000);
afterAll(() => cleanup([root]));

describe('mirror export --since after crime syncs: only the months the sync loaded', () => {
  it('the first export holds 2024-01 as first published', async () => {
    expect(await observed(lake)).toEqual(expected([...city2401old, ...surrey]));
  });

  it('a new month (2025-05): only its partition is written; 2024-01 keeps its file; equals a fresh export', async () => {
    const before = stamp(lake);
    const lakeB = join(root, 'lake-b');
    cpSync(lake, lakeB, { recursive: true });
    const stampB = stamp(lakeB);
    await sync(FILES.city2505, bytesOf(FILES.city2505));
    const r = await exportTo(lake, lake);
    expect(street(r)).toMatchObject({ written: 1, partitions: 2, changes_from: 'sync-partitions', rows: city2401old.length + surrey.length + city2505.length });
    expect(stamp(lake).get('2024-01')).toBe(before.get('2024-01'));
    expect(await observed(lake)).toEqual(expected([...city2401old, ...surrey, ...city2505]));
    // the other crime tables have no record: read whole (fingerprints), rewritten where they changed
    expect(r.filter((t) => t.table !== 'street').every((t) => t.changes_from === 'scan')).toBe(true);
    await equalsFresh(lake, 'fresh-2');

    // only the recorded months are read: in a copy of the mirror, every 2024-01 row changed behind the
    // sync's back; --since the step-1 export (lake-b) trusts the record and does not look at 2024-01
    const m2 = join(root, 'mirror-edited');
    mkdirSync(m2);
    copyFileSync(join(mirror, 'crime.duckdb'), join(m2, 'crime.duckdb'));
    const db = await DuckDBInstance.create(join(m2, 'crime.duckdb'));
    const c = await db.connect();
    await c.run("UPDATE street SET last_outcome = 'edited' WHERE month = '2024-01'");
    c.closeSync();
    db.closeSync();
    const trusted = await exportTo(lakeB, lakeB, m2);
    expect(street(trusted)).toMatchObject({ written: 1, changes_from: 'sync-partitions' });
    expect(stamp(lakeB).get('2024-01')).toBe(stampB.get('2024-01'));
    // and a fresh export of that copy does see it (the test would prove nothing otherwise)
    const f = join(root, 'fresh-edited');
    await exportTo(f, undefined, m2);
    const [e] = await coldDuck<{ n: string }>(`SELECT count(*) AS n FROM ${glob(f)} WHERE last_outcome = 'edited'`);
    expect(Number(e!.n)).toBe(city2401old.length + surrey.length);
  });

  it('a re-published month (2024-01 City, outcomes updated): only month=2024-01 is written', async () => {
    const before = stamp(lake);
    await sync('2024-01-city-of-london-street.csv', bytesOf(FILES.city2401new));
    const r = await exportTo(lake, lake);
    expect(street(r)).toMatchObject({ written: 1, changes_from: 'sync-partitions' });
    const after = stamp(lake);
    expect(after.get('2025-05')).toBe(before.get('2025-05'));
    expect(after.get('2024-01')).not.toBe(before.get('2024-01'));
    expect(await observed(lake)).toEqual(expected([...city2401new, ...surrey, ...city2505]));
    await equalsFresh(lake, 'fresh-3');
  });

  it('a month re-issued unchanged: recorded and fingerprinted, nothing written; the summary says what was read', async () => {
    const before = stamp(lake);
    await sync('2025-05-city-of-london-street.csv', bytesOf(FILES.city2505));
    const lines: string[] = [];
    const progress = createExportProgress({ stream: { write: (x: string) => lines.push(x) }, tty: false });
    const r = await exportTo(lake, lake, mirror, progress);
    expect(street(r)).toMatchObject({ written: 0, changes_from: 'sync-partitions' });
    expect(stamp(lake)).toEqual(before);
    expect(lines.length).toBe(1);
    expect(lines[0]).toContain("; --since: crime/street from the sync's change record, every other table read whole to find the changed partitions (no change record)");
    // again: the record's step (from the sync before) is not this lake's, so every table is read whole
    lines.length = 0;
    const again = await exportTo(lake, lake, mirror, progress);
    expect(street(again)).toMatchObject({ written: 0, changes_from: 'scan' });
    expect(lines[0]).toContain('; --since: every table read whole to find the changed partitions (no change record)');
    await equalsFresh(lake, 'fresh-4');
  });
});
