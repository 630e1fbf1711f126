/**
 * `mirror export` of every dataset (built by each domain's samples): the lake read back cold by DuckDB (a new
 * instance, hive_partitioning) and by hyparquet (pure JS) gives the mirror's row counts, per-partition
 * counts, sums of every numeric column and distinct keys; every partition is one ZSTD file; files keep
 * their declared order. The mirror side is computed with SQL over the dataset file; the hyparquet side in
 * JS from the decoded rows; neither reads the manifest's counts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetInfo } from '../../src/mirror/catalog.js';
import { DATASETS } from '../../src/registry.js';
import { exportMirror, type ExportedTable } from '../../src/mirror/export.js';
import type { Manifest, ManifestTable } from '../../src/mirror/export-manifest.js';
import { cleanup, sqlOn } from '../support/mirror-helper.js';
import { BUILT, buildAll, coldDuck, hyparquetRows, LAKES, lakeView, parquetFiles } from './export-helper.js';

/** The registry's datasets by name. */
const INFO: Record<string, DatasetInfo> = Object.fromEntries(DATASETS.map((d) => [d.name, d]));

let root = '';
let mirror = '';
let lake = '';
let report: ExportedTable[] = [];
let manifest: Manifest;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-'));
  mirror = await buildAll(root);
  lake = join(root, 'lake');
  report = await exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, mirrorDir: mirror });
  manifest = JSON.parse(readFileSync(join(lake, 'manifest.json'), 'utf8')) as Manifest;
}, 240_000);
afterAll(() => cleanup([root]));

const NUMERIC = /^(BIGINT|INTEGER|SMALLINT|TINYINT|DOUBLE|FLOAT|DECIMAL)/;
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Count, numeric sums and distinct first-column values of a relation, by SQL. */
function aggregateSql(from: string, t: ManifestTable): string {
  const nums = t.columns.filter((c) => NUMERIC.test(c.type));
  const key = t.sort_columns[0] ?? t.columns[0]!.name;
  return `SELECT count(*)::BIGINT AS n, count(DISTINCT ${q(key)})::BIGINT AS keys${nums.map((c, i) => `, sum(${q(c.name)})::DOUBLE AS s${i}`).join('')} FROM ${from}`;
}

/** The declared rows of a table in the mirror (the dataset's export declaration, or the table itself). */
function mirrorRows(dataset: string, table: string): string {
  const spec = INFO[dataset]!.export?.tables.find((x) => x.name === table);
  return `(${spec?.select ?? `SELECT * FROM ${q(table)}`})`;
}

function jsAggregates(rows: Array<Record<string, unknown>>, t: ManifestTable): Record<string, number> {
  const key = t.sort_columns[0] ?? t.columns[0]!.name;
  const out: Record<string, number> = { n: rows.length, keys: new Set(rows.map((r) => r[key]).filter((v) => v !== null && v !== undefined).map((v) => (v instanceof Date ? v.toISOString() : String(v)))).size };
  t.columns.filter((c) => NUMERIC.test(c.type)).forEach((c, i) => {
    out[`s${i}`] = rows.reduce((s, r) => (r[c.name] === null || r[c.name] === undefined ? s : s + Number(r[c.name])), 0);
  });
  return out;
}

function close(a: Record<string, unknown>, b: Record<string, unknown>): void {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const k of Object.keys(a)) {
    const [x, y] = [Number(a[k] ?? 0), Number(b[k] ?? 0)];
    expect(Math.abs(x - y), `${k}: ${x} vs ${y}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(x)));
  }
}

describe('mirror export: every dataset, read back by two readers', () => {
  it('the manifest lists every built dataset with its declared tables and sync_log', () => {
    expect(Object.keys(manifest.datasets).sort()).toEqual([...BUILT].sort());
    for (const name of BUILT) {
      const declared = INFO[name]!.export!.tables.map((t) => t.name);
      expect(manifest.datasets[name]!.tables.map((t) => t.name)).toEqual([...declared, 'sync_log']);
      expect(manifest.datasets[name]).toMatchObject({ source: INFO[name]!.publisher, licence: INFO[name]!.licence });
    }
  });

  it('every dataset of the registry is built and exported (each domain declares its export build in test/<domain>/samples.ts)', () => {
    expect([...BUILT].sort()).toEqual(DATASETS.map((d) => d.name).sort());
  });

  it.each(BUILT)('%s: counts, per-partition counts, sums and distinct keys agree (mirror, DuckDB cold, hyparquet)', async (name) => {
    const file = join(mirror, INFO[name]!.file);
    for (const t of manifest.datasets[name]!.tables) {
      const dir = join(lake, t.path);
      const parts = t.partition_columns;
      const mirrorAgg = (await sqlOn(file, aggregateSql(`${mirrorRows(name, t.name)} s`, t)))[0]!;
      const glob = `'${dir}/${'*/'.repeat(parts.length)}*.parquet'`;
      const lakeFrom = `read_parquet(${glob}${parts.length ? ', hive_partitioning = true' : ''})`;
      const duckAgg = (await coldDuck(aggregateSql(lakeFrom, t)))[0]!;
      const rows = await hyparquetRows(dir);
      close(duckAgg, mirrorAgg);
      close(jsAggregates(rows, t), mirrorAgg);
      expect(Number(mirrorAgg.n), `${name}/${t.name} rows`).toBe(report.find((r) => r.dataset === name && r.table === t.name)!.rows);
      if (!parts.length) continue;
      // per-partition counts: the mirror grouped by the declared expression, DuckDB by the hive column, JS by path
      const exprs = parts.map((p) => `(${p.expr})::VARCHAR`).join(` || '/' || `);
      const m = await sqlOn(file, `SELECT ${exprs} AS k, count(*)::BIGINT AS n FROM ${mirrorRows(name, t.name)} s GROUP BY 1 ORDER BY 1`);
      const d = await coldDuck<{ k: string; n: string }>(
        `SELECT ${parts.map((p) => `${q(p.name)}::VARCHAR`).join(` || '/' || `)} AS k, count(*) AS n FROM ${lakeFrom} GROUP BY 1 ORDER BY 1`,
      );
      const js = new Map<string, number>();
      for (const r of rows) {
        const k = parts.map((p) => String(r[p.name])).join('/');
        js.set(k, (js.get(k) ?? 0) + 1);
      }
      const mm = m.map((r) => [String(r.k), Number(r.n)]);
      expect(mm.length).toBeGreaterThan(0);
      expect(d.map((r) => [r.k, Number(r.n)])).toEqual(mm);
      expect([...js.entries()].sort()).toEqual(mm);
    }
  });

  it.each(BUILT)('%s: every row of every table equals the mirror row (DuckDB, both directions)', async (name) => {
    const file = join(mirror, INFO[name]!.file);
    for (const t of manifest.datasets[name]!.tables) {
      const parts = t.partition_columns;
      // sync_log's source_url and files name a --from file by its name only in the lake (checked against
      // the local paths below and in test/food-hygiene/export-sync-log.test.ts); every other column equal
      const local = t.name === 'sync_log' ? ['source_url', 'files'] : [];
      const cols = [...t.columns.filter((c) => !local.includes(c.name)), ...parts];
      const lakeFrom = `read_parquet('${join(lake, t.path)}/${'*/'.repeat(parts.length)}*.parquet'${parts.length ? `, hive_partitioning = true, hive_types = {${parts.map((p) => `'${p.name}': ${p.type}`).join(', ')}}` : ''})`;
      const mirrorSel = `SELECT ${[...t.columns.filter((c) => !local.includes(c.name)).map((c) => `CAST(s.${q(c.name)} AS ${c.type}) AS ${q(c.name)}`), ...parts.map((p) => `(${p.expr}) AS ${q(p.name)}`)].join(', ')} FROM ${mirrorRows(name, t.name)} s`;
      const list = cols.map((c) => q(c.name)).join(', ');
      // USE m: the declarations name the mirror's tables unqualified
      const [both] = await coldDuck<{ a: string; b: string }>(
        `SELECT (SELECT count(*) FROM (SELECT ${list} FROM ${lakeFrom} EXCEPT ALL SELECT ${list} FROM (${mirrorSel}))) AS a,
                (SELECT count(*) FROM (SELECT ${list} FROM (${mirrorSel}) EXCEPT ALL SELECT ${list} FROM ${lakeFrom})) AS b`,
        [`ATTACH '${file}' AS m (READ_ONLY)`, 'USE m'],
      );
      expect([Number(both!.a), Number(both!.b)], `${name}/${t.name}`).toEqual([0, 0]);
      if (local.length) {
        // each source of the mirror's log, as the lake gives it: an upstream URL whole, a local path by its name
        const pairs = await coldDuck<{ m: string | null; f: string | null; l: string | null }>(
          `SELECT s.source_url AS m, s.files AS f, l.source_url AS l FROM sync_log s JOIN ${lakeFrom} l USING (synced_at)`,
          [`ATTACH '${file}' AS m (READ_ONLY)`, 'USE m'],
        );
        expect(pairs.length).toBeGreaterThan(0);
        const asLake = (u: string) => (/^[a-z]+:\/\//.test(u) ? u : `local:${u.split('/').pop()}`);
        // source_url is the files' urls joined by spaces (a path may hold spaces: read them from the file list)
        for (const p of pairs) {
          const urls = p.f ? (JSON.parse(p.f) as Array<{ url: string }>).map((x) => x.url) : [];
          if (urls.length) expect(p.m, name).toBe(urls.join(' '));
          expect(p.l, name).toBe(urls.length ? urls.map(asLake).join(' ') : p.m);
        }
      }
    }
  });

  it('no file per tiny partition: one ZSTD file per partition', async () => {
    for (const name of BUILT) {
      for (const t of manifest.datasets[name]!.tables) {
        const files = parquetFiles(join(lake, t.path));
        const byDir = new Map<string, number>();
        for (const f of files) byDir.set(JSON.stringify(f.values), (byDir.get(JSON.stringify(f.values)) ?? 0) + 1);
        expect([...byDir.values()].every((n) => n === 1), `${name}/${t.name}`).toBe(true);
        expect(files.length).toBe(Math.max(1, t.partitions.length));
        for (const f of files) {
          const meta = await parquetMetadataAsync(await asyncBufferFromFile(f.file));
          const codecs = new Set(meta.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec)));
          expect([...codecs], f.file).toEqual(['ZSTD']);
        }
      }
    }
  });

  // Each domain's own checks of its tables (test/<domain>/samples.ts `lake.check`): rows counted from its
  // fixture files, the columns a reader needs, the declared order within each file.
  it.each(LAKES.filter((l) => l.lake.check).map((l) => [l.domain, l.lake] as const))('%s: the lake holds what its fixture files hold', async (_d, l) => {
    await l.check!(lakeView(lake, manifest));
  });
});
