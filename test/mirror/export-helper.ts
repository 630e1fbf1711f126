/**
 * Test support for `mirror export`: one mirror holding every dataset, built by each domain's samples
 * (test/<domain>/samples.ts `lake`: real excerpts, or generated format-true files), and two
 * independent readers of an exported lake: DuckDB (cold, a new in-memory instance, hive_partitioning)
 * and hyparquet (pure JS, ZSTD through hyparquet-compressors) with the partition values taken from the paths.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { DOMAIN_SAMPLES } from '../support/route-samples.js';
import type { LakeView } from '../support/samples-types.js';
import type { Manifest } from '../../src/mirror/export-manifest.js';
import { buildExampleLake, EXAMPLE_LAKE_DATASETS } from '../support/example-domain/lake.js';

/** Every domain's export build and checks (test/<domain>/samples.ts `lake`), by domain folder. */
export const LAKES = [...DOMAIN_SAMPLES].flatMap(([domain, s]) => (s.lake ? [{ domain, samples: s, lake: s.lake }] : []));

/**
 * Datasets built by buildAll: every domain's `lake.datasets` and the example domain's (test/support/
 * example-domain/lake.ts; the export tests check this is every dataset).
 */
export const BUILT: readonly string[] = [...LAKES.flatMap((l) => l.lake.datasets), ...EXAMPLE_LAKE_DATASETS];

/**
 * Build every domain's datasets into `<dir>/mirror` through the real sync framework, each by its domain's
 * `lake.build` (or its fixture `build`), and the example domain's, side by side (one DuckDB file a dataset);
 * returns the mirror.
 */
export async function buildAll(dir: string): Promise<string> {
  const mirror = join(dir, 'mirror');
  mkdirSync(mirror, { recursive: true });
  await Promise.all([
    ...LAKES.map(async ({ domain, samples, lake }) => {
      const src = join(dir, 'src', domain);
      mkdirSync(src, { recursive: true });
      if (lake.build) await lake.build({ mirror, src });
      else await samples.build!({ dataDir: src, mirror, cacheDir: join(src, 'cache') });
    }),
    buildExampleLake(mirror, join(dir, 'src', 'example')),
  ]);
  return mirror;
}

/** Every .parquet file under a table directory with the Hive values of its path. */
export function parquetFiles(tableDir: string): Array<{ file: string; values: Record<string, string> }> {
  const out: Array<{ file: string; values: Record<string, string> }> = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      if (n.startsWith('.') || n.startsWith('_')) continue; // hidden, as Spark, Hive and Trino skip them
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.parquet')) {
        const segs = relative(tableDir, d).split(sep).filter(Boolean);
        out.push({ file: p, values: Object.fromEntries(segs.map((s) => [s.slice(0, s.indexOf('=')), decodeURIComponent(s.slice(s.indexOf('=') + 1))])) });
      }
    }
  };
  walk(tableDir);
  return out;
}

/** All rows of a lake table read by hyparquet (no DuckDB), partition values added from the paths (as text). */
export async function hyparquetRows(tableDir: string): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const { file, values } of parquetFiles(tableDir)) {
    const data = (await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors })) as Array<Record<string, unknown>>;
    for (const r of data) rows.push({ ...r, ...values });
  }
  return rows;
}

/** Run SQL on a fresh in-memory DuckDB (a cold reader: nothing cached from the export). */
export async function coldDuck<T = Record<string, unknown>>(sql: string, setup: string[] = []): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    for (const s of setup) await c.run(s);
    return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** The lake as the domains' checks read it: hyparquet rows and files of a table named in the manifest. */
export function lakeView(lake: string, manifest: Manifest): LakeView {
  const tableOf = (d: string, t: string) => {
    const table = manifest.datasets[d]?.tables.find((x) => x.name === t);
    if (!table) throw new Error(`lake: no table ${d}/${t} in the manifest`);
    return table;
  };
  return {
    rows: (d, t) => hyparquetRows(join(lake, tableOf(d, t).path)),
    files: (d, t) => parquetFiles(join(lake, tableOf(d, t).path)),
    columns: (d, t) => tableOf(d, t).columns.map((c) => c.name),
    async expectSorted(d, t, cols) {
      const files = parquetFiles(join(lake, tableOf(d, t).path));
      if (!files.length) throw new Error(`lake: ${d}/${t} has no files`);
      for (const f of files) {
        const rows = await hyparquetRows(join(f.file, '..'));
        const keys = rows.map((r) => cols.map((c) => (r[c] === null || r[c] === undefined ? '\uffff' : String(r[c]))).join('\u0000'));
        const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (keys.some((k, i) => k !== sorted[i])) throw new Error(`lake: ${f.file} is not in ${cols.join(', ')} order`);
      }
    },
  };
}
