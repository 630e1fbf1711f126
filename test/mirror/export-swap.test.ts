/**
 * `mirror export`'s swap is atomic per partition, also for a partition of several files: a reader listing
 * the lake at every step of the swaps (the exporter's `onSwap` observer) sees each partition as the
 * previous export had it or as the new one has it, never a mixture; an injected failure and a SIGKILL
 * mid-export leave the previous export readable and complete (a kill between a directory swap's two
 * renames leaves that one partition aside until the next export puts it back).
 *
 * The layout is made small for the test (LAYOUT: small row groups, a file per row group), so the
 * example domain's 300 invented records (2023 and 2024, test/fixtures/example) have partitions of several
 * files; the update is the fixtures' update (a change and a deletion in 2023, two additions in 2024) and one
 * addition in 2026, a year not there before. Expected rows come from the CSV text (records-gen.ts readRecords,
 * plain JS); the lake is read by hyparquet (not
 * DuckDB) with the years from the paths.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMirror } from '../../src/mirror/export.js';
import { LAYOUT } from '../../src/mirror/export-table.js';
import { swapIn, type SwapEvent } from '../../src/mirror/export-write.js';
import { DATASETS } from '../../src/registry.js';
import { buildDataset, cleanup } from '../support/mirror-helper.js';
import { applyRecordsUpdate, readRecords, type RecordRow, UPDATE_LINES } from '../support/example-domain/records-gen.js';
import { RECORDS_INFO } from '../support/example-domain/dataset.js';
import { parquetFiles } from './export-helper.js';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const REPO = join(import.meta.dirname, '..', '..');
const COMPLETE = join(REPO, 'test', 'fixtures', 'example', 'records-complete.csv');
/** The fixtures' update (a change and a deletion in 2023, two additions in 2024) and one more addition, in a year not there before (2026). */
const UPDATE = `${[...UPDATE_LINES, 'A,303,green,7,2026-01-05,Record 303 added'].join('\n')}\n`;
const before = readRecords(readFileSync(COMPLETE, 'utf8'));
const after = applyRecordsUpdate(before, UPDATE);
const saved = { ...LAYOUT };
const layout = LAYOUT as unknown as { targetFileBytes: number; rowGroupRows: number };

/** Year -> the year's rows as sorted `id|count|day` strings (what a partition must hold whole). */
function byYear(rows: RecordRow[]): Map<string, string> {
  const m = new Map<string, string[]>();
  for (const r of rows) m.set(r.recorded_on.slice(0, 4), [...(m.get(r.recorded_on.slice(0, 4)) ?? []), `${r.id}|${r.count}|${r.recorded_on}`]);
  return new Map([...m].map(([y, v]) => [y, v.sort().join('\n')]));
}
const OLD = byYear(before);
const NEW = byYear(after);
const CHANGED = [...new Set([...OLD.keys(), ...NEW.keys()])].filter((y) => OLD.get(y) !== NEW.get(y));

/** What a reader listing the lake now sees of the records: year -> its rows (same form), files per year. */
async function look(lake: string): Promise<{ rows: Map<string, string>; files: Map<string, number> }> {
  const rows = new Map<string, string[]>();
  const files = new Map<string, number>();
  for (const { file, values } of parquetFiles(join(lake, 'example-records', 'records'))) {
    const data = (await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors })) as Array<Record<string, unknown>>;
    const y = values.year!;
    files.set(y, (files.get(y) ?? 0) + 1);
    const iso = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d));
    rows.set(y, [...(rows.get(y) ?? []), ...data.map((r) => `${String(r.id)}|${Number(r.count)}|${iso(r.recorded_on)}`)]);
  }
  return { rows: new Map([...rows].map(([y, v]) => [y, v.sort().join('\n')])), files };
}

/** Year -> inodes of the files a listing of the records shows. */
function inodes(lake: string): Map<string, Set<number>> {
  const m = new Map<string, Set<number>>();
  for (const { file, values } of parquetFiles(join(lake, 'example-records', 'records'))) m.set(values.year!, (m.get(values.year!) ?? new Set()).add(statSync(file).ino));
  return m;
}

const hidden = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('.')) : []);
const exportTo = (lake: string, mirror: string, onSwap?: (e: SwapEvent) => void | Promise<void>) =>
  exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, datasets: ['example-records'], mirrorDir: mirror, since: lake, ...(onSwap ? { onSwap } : {}) });

let root = '';
let mirror = '';
let base = '';
const lakeCopy = (name: string) => {
  const d = join(root, name);
  cpSync(base, d, { recursive: true });
  return d;
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-swap-'));
  mirror = join(root, 'mirror');
  await buildDataset('example-records', COMPLETE, mirror);
  layout.targetFileBytes = 1; // every row group its own file
  layout.rowGroupRows = 4;
  base = join(root, 'base');
  await exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: base, datasets: ['example-records'], mirrorDir: mirror });
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'records-update.csv'), UPDATE);
  await buildDataset('example-records', join(root, 'src', 'records-update.csv'), mirror);
}, 120_000);
afterAll(async () => {
  Object.assign(LAYOUT, saved);
  await cleanup([root]);
});

describe('mirror export: a partition of several files swaps whole', () => {
  it('the previous export has partitions of several files (else the test proves nothing)', async () => {
    const { rows, files } = await look(base);
    expect(rows).toEqual(OLD);
    expect(CHANGED.length).toBeGreaterThan(0);
    for (const y of CHANGED.filter((x) => OLD.has(x))) expect(files.get(y), `year ${y}`).toBeGreaterThan(1);
  });

  it('a reader listing the lake at every swap step sees each year as the old or the new export has it, never a mixture', async () => {
    const lake = lakeCopy('read');
    const seen: string[] = [];
    const oldFiles = inodes(lake);
    await exportTo(lake, mirror, async (e) => {
      if (e.table !== 'example-records/records') return;
      // by file: a year's listed files are all the old files, or none of them
      for (const [y, files] of inodes(lake)) {
        const old = oldFiles.get(y) ?? new Set<number>();
        const kept = [...files].filter((i) => old.has(i)).length;
        expect(kept === 0 || (kept === files.size && files.size === old.size), `year ${y} at ${e.step} ${e.path}: old and new files mixed`).toBe(true);
      }
      // by row: a year's rows are the old export's or the new one's
      const { rows } = await look(lake);
      for (const y of new Set([...OLD.keys(), ...NEW.keys()])) {
        const got = rows.get(y);
        if (got === undefined) {
          // absent: the partition between its two renames, a new year not placed yet, a year gone from the data
          const between = e.step === 'retired' && e.path === `year=${y}`;
          const notYet = !OLD.has(y) && !seen.includes(`placed year=${y}`);
          expect(between || notYet || !NEW.has(y), `year ${y} absent at ${e.step} ${e.path}`).toBe(true);
          continue;
        }
        expect(got === OLD.get(y) || got === NEW.get(y), `year ${y} at ${e.step} ${e.path}: a mixture`).toBe(true);
      }
      seen.push(`${e.step} ${e.path}`);
    });
    // every changed year was swapped, those with files before through the directory swap (retired, then placed)
    for (const y of CHANGED) expect(seen, `year ${y}`).toContain(`placed year=${y}`);
    for (const y of CHANGED.filter((x) => OLD.has(x))) expect(seen).toContain(`retired year=${y}`);
    expect((await look(lake)).rows).toEqual(NEW);
    expect(hidden(join(lake, 'example-records', 'records'))).toEqual([]);
    expect(hidden(join(lake, 'example-records'))).toEqual([]);
  });

  it('an injected failure between the two renames: the export fails, the previous export is there whole', async () => {
    const lake = lakeCopy('fail');
    const manifest = readFileSync(join(lake, 'manifest.json'), 'utf8');
    await expect(
      exportTo(lake, mirror, (e) => {
        if (e.step === 'retired') throw new Error('injected failure');
      }),
    ).rejects.toThrow('injected failure');
    expect((await look(lake)).rows).toEqual(OLD);
    expect(readFileSync(join(lake, 'manifest.json'), 'utf8')).toBe(manifest);
    expect(hidden(join(lake, 'example-records', 'records'))).toEqual([]);
    // and the next export completes from there
    await exportTo(lake, mirror);
    expect((await look(lake)).rows).toEqual(NEW);
  });
});

describe('mirror export: an unpartitioned table of several files swaps its directory whole', () => {
  it('a listing at each step sees the old files or the new ones, and the table\'s other entries stay', async () => {
    const t = join(root, 'unpart', 'ds', 'tbl');
    mkdirSync(t, { recursive: true });
    for (const n of ['data_0.parquet', 'data_1.parquet', 'data_2.parquet']) writeFileSync(join(t, n), `old ${n}`);
    writeFileSync(join(t, 'README'), 'kept');
    const staging = join(t, '.staging-test');
    mkdirSync(staging);
    for (const n of ['data_0.parquet', 'data_1.parquet']) writeFileSync(join(staging, n), `new ${n}`);
    const list = () => (existsSync(t) ? readdirSync(t).filter((n) => n.startsWith('data_')).sort().map((n) => readFileSync(join(t, n), 'utf8')) : null);
    const views: Array<string[] | null> = [];
    await swapIn(staging, t, '', ['data_0.parquet', 'data_1.parquet'], (step) => void views.push([step, ...(list() ?? ['(absent)'])]));
    expect(views).toEqual([['retired', '(absent)'], ['placed', 'new data_0.parquet', 'new data_1.parquet']]);
    expect(list()).toEqual(['new data_0.parquet', 'new data_1.parquet']);
    expect(readFileSync(join(t, 'README'), 'utf8')).toBe('kept');
    expect(readdirSync(join(root, 'unpart', 'ds'))).toEqual(['tbl']);
  });
});

// ---- SIGKILL (a child process on the built sources, like test/sync/kill.test.ts) ----

function runChild(lake: string, step: string, table: string): { child: ChildProcess; reached: Promise<string> } {
  // dist/ never holds the example domain: the child gets its catalogue entry (plain data) in its environment
  const child = spawn(process.execPath, [join(REPO, 'test', 'mirror', 'export-kill-child.mjs'), mirror, lake, step, table], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PUBLICDATA_TEST_CATALOGUE: JSON.stringify([RECORDS_INFO]) },
  });
  let out = '';
  let err = '';
  const reached = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /AT (\S+) (\S*)/.exec(out);
      if (m) resolve(`${m[1]} ${m[2]}`);
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before the kill point: ${out} ${err}`)));
  });
  return { child, reached };
}
const kill = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });

describe('mirror export killed (SIGKILL) mid-export', () => {
  it('after staging, before any swap: the previous export is readable and complete; the next export sweeps and completes', async () => {
    const lake = lakeCopy('kill-staged');
    const { child, reached } = runChild(lake, 'staged', 'example-records/records');
    expect(await reached).toBe('staged ');
    await kill(child);
    expect((await look(lake)).rows).toEqual(OLD);
    expect(hidden(join(lake, 'example-records', 'records'))).toEqual([`.staging-${child.pid}`]);
    await exportTo(lake, mirror);
    expect((await look(lake)).rows).toEqual(NEW);
    expect(hidden(join(lake, 'example-records', 'records'))).toEqual([]);
  }, 60_000);

  it('between a directory swap\'s two renames: that partition is aside (hidden) until the next export puts it back', async () => {
    const lake = lakeCopy('kill-retired');
    const { child, reached } = runChild(lake, 'retired', 'example-records/records');
    const at = await reached;
    await kill(child);
    const year = at.replace(/^retired year=/, '');
    expect(CHANGED).toContain(year);
    const { rows } = await look(lake);
    // every other year whole (old or new), the one being swapped absent: no mixture
    expect(rows.has(year)).toBe(false);
    for (const [y, v] of rows) expect(v === OLD.get(y) || v === NEW.get(y), `year ${y}`).toBe(true);
    expect(hidden(join(lake, 'example-records', 'records')).sort()).toEqual([`.old-${child.pid}`, `.staging-${child.pid}`]);
    // the next export's sweep puts it back before anything else (this one then fails before its first swap)
    await expect(exportTo(lake, mirror, (e) => { if (e.step === 'staged') throw new Error('stop after the sweep'); })).rejects.toThrow('stop after the sweep');
    expect((await look(lake)).rows.get(year)).toBe(OLD.get(year));
    expect(hidden(join(lake, 'example-records', 'records'))).toEqual([]);
    await exportTo(lake, mirror);
    expect((await look(lake)).rows).toEqual(NEW);
  }, 60_000);
});
