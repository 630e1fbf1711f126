/**
 * `mirror export` writes a partitioned table with many partitions a group at a time (export-write.ts
 * `writeGroups`, `OPEN_PARTITIONS`: one COPY per group, filtered to its partitions, on one thread). The
 * layout is made small (4-row row groups) so a 20-year GENERATED table (rows made here with a seeded
 * generator, stored in key order, not year order, as price paid is stored in postcode order) needs
 * several groups. Expected rows are grouped and ordered in plain JS from the generated rows; the files are
 * read by hyparquet (not DuckDB), the year from the path.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprints, LAYOUT, planTable, type TablePlan } from '../../src/mirror/export-table.js';
import { OPEN_PARTITIONS, writeGroups, writeStaged } from '../../src/mirror/export-write.js';
import { parquetFiles } from './export-helper.js';

const saved = { ...LAYOUT };
const layout = LAYOUT as unknown as { rowGroupRows: number };

/** 20 years (2000-2019), 3-30 rows each, keys spread over the years (a seeded LCG: the same rows every run). */
function generate(): Array<{ k: string; v: number; d: string }> {
  let s = 12345;
  const next = (n: number) => ((s = (s * 1103515245 + 12345) % 2 ** 31), s % n);
  const rows: Array<{ k: string; v: number; d: string }> = [];
  for (let y = 2000; y < 2020; y++) {
    const n = 3 + next(28);
    for (let i = 0; i < n; i++) {
      rows.push({ k: `K${String(next(1e6)).padStart(6, '0')}-${y}-${i}`, v: next(100_000), d: `${y}-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(28)).padStart(2, '0')}` });
    }
  }
  return rows;
}
const ROWS = generate();
/** Year -> its rows as sorted `key|value` strings (a partitioned write keeps the stored order only roughly: compared as sets). */
function expected(years?: ReadonlySet<string>): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const r of ROWS) {
    const y = r.d.slice(0, 4);
    if (!years || years.has(y)) m.set(y, [...(m.get(y) ?? []), `${r.k}|${r.v}`]);
  }
  for (const v of m.values()) v.sort();
  return m;
}

async function readStaged(dir: string): Promise<Map<string, string[]>> {
  const m = new Map<string, string[]>();
  for (const { file, values } of parquetFiles(dir)) {
    const data = (await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors })) as Array<Record<string, unknown>>;
    m.set(values.year!, [...(m.get(values.year!) ?? []), ...data.map((r) => `${String(r.k)}|${Number(r.v)}`)]);
  }
  for (const v of m.values()) v.sort();
  return m;
}

let root = '';
let db: DuckDBInstance;
let conn: DuckDBConnection;
let plan: TablePlan;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-groups-'));
  const csv = join(root, 'rows.csv');
  writeFileSync(csv, 'k,v,d\n' + ROWS.map((r) => `${r.k},${r.v},${r.d}`).join('\n') + '\n');
  db = await DuckDBInstance.create(join(root, 't.duckdb'));
  conn = await db.connect();
  await conn.run(`CREATE TABLE t AS SELECT k::VARCHAR AS k, v::BIGINT AS v, d::DATE AS d FROM read_csv($1, header = true, all_varchar = true) ORDER BY k`, [csv]);
  layout.rowGroupRows = 4;
  plan = await planTable(conn, { name: 't', description: 'generated', partitionBy: [{ column: 'year', expr: 'CAST(year(d) AS INTEGER)' }], sortBy: ['k'], stored: true }, 'parquet');
});
afterAll(() => {
  Object.assign(LAYOUT, saved);
  conn?.closeSync();
  db?.closeSync();
  rmSync(root, { recursive: true, force: true });
});

describe('mirror export: a table of many partitions written a group at a time', () => {
  it('groups hold at most OPEN_PARTITIONS row groups of partitions, in order, every partition once', async () => {
    const prints = await fingerprints(conn, plan);
    const groups = writeGroups(prints);
    expect(prints.length).toBe(20);
    expect(groups.length).toBeGreaterThan(1); // else the grouped write is not exercised
    expect(groups.flat().map((p) => p.path)).toEqual(prints.map((p) => p.path));
    for (const g of groups) expect(g.reduce((s, p) => s + Math.min(p.rows, 4), 0)).toBeLessThanOrEqual(OPEN_PARTITIONS * 4);
  });

  it('a full write: every year whole (its rows, no other), the row counts COPY reported right, nothing hidden left', async () => {
    const staging = join(root, 'full', '.staging');
    const files = await writeStaged(conn, plan, 'parquet', staging, await fingerprints(conn, plan), false);
    const want = expected();
    expect(await readStaged(staging)).toEqual(want);
    expect([...files.keys()].sort()).toEqual([...want.keys()].map((y) => `year=${y}`).sort());
    for (const [path, list] of files) expect(list.reduce((s, f) => s + (f.rows ?? -1), 0), path).toBe(want.get(path.slice(5))!.length);
    expect(readdirSync(staging).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('a partial write of 16 of the 20 years (still more than one group): exactly those years', async () => {
    const all = await fingerprints(conn, plan);
    const some = all.filter((_, i) => i % 5 !== 0); // 16 of 20
    expect(writeGroups(some).length).toBeGreaterThan(1);
    const staging = join(root, 'partial', '.staging');
    await writeStaged(conn, plan, 'parquet', staging, some, true);
    expect(await readStaged(staging)).toEqual(expected(new Set(some.map((p) => String(p.values.year)))));
    expect(existsSync(join(staging, all[0]!.path))).toBe(false);
  });
});
