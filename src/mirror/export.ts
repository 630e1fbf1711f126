/** `publicdata mirror export`: every table of the synced datasets as Parquet (Hive-partitioned) or CSV. */
import { mkdirSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { DatasetInfo } from './catalog.js';
import { loadDuckDB, query, quoteIdent } from './db.js';
import { datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from './paths.js';
import { mainTables } from './tables.js';

export interface ExportOptions {
  format: 'parquet' | 'csv';
  outDir: string;
  datasets?: string[];
  /** Every dataset there is (the registry's catalogue): `datasets` names some of them. */
  catalogue: readonly DatasetInfo[];
  env: Env;
  mirrorDir?: string;
  /**
   * A dataset's table layout for export (its sync module's `tables`, `partitionBy`, `exportColumns`).
   * Default: the sync module, imported lazily (only `mirror export` reads it).
   */
  layout?: (dataset: string) => Promise<ExportLayout | undefined>;
}

export interface ExportLayout {
  tables?: readonly string[];
  partitionBy?: Record<string, string>;
  exportColumns?: Record<string, string>;
}

async function moduleLayout(dataset: string): Promise<ExportLayout | undefined> {
  const { isSyncDataset, loadModule } = await import('../../sync/registry.js');
  return isSyncDataset(dataset) ? loadModule(dataset).catch(() => undefined) : undefined;
}

export interface ExportedTable {
  dataset: string;
  table: string;
  path: string;
  rows: number;
  partitioned_by?: string;
}

/**
 * Copy every table of the synced datasets to `<outDir>/<dataset>/<table>` with DuckDB COPY: Parquet
 * Hive-partitioned where the module says so (price_paid by year: `price_paid/year=2024/data_0.parquet`),
 * else one `<table>.parquet`; CSV as one `<table>.csv` with a header.
 */
export async function exportMirror(o: ExportOptions): Promise<ExportedTable[]> {
  const env = o.env;
  const dir = o.mirrorDir ?? defaultMirrorDir(env);
  const outDir = isAbsolute(o.outDir) ? o.outDir : resolve(o.outDir);
  const byName = new Map(o.catalogue.map((d) => [d.name, d]));
  const names = o.datasets?.length ? o.datasets : o.catalogue.filter((d) => isDatasetPresent(d, dir)).map((d) => d.name);
  const duck = await loadDuckDB();
  const out: ExportedTable[] = [];
  for (const name of names) {
    const info = byName.get(name);
    if (!info) throw new Error(`Unknown dataset '${name}'. Known: ${[...byName.keys()].join(', ')}.`);
    const p = datasetPath(info, dir);
    if (!isDatasetPresent(info, dir)) throw new Error(`${name} is not synced: run 'publicdata sync ${name}'`);
    const mod = await (o.layout ?? moduleLayout)(name);
    const instance = await duck.DuckDBInstance.create(p, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      const tables = [...(await mainTables(conn, mod)), 'sync_log'];
      for (const t of tables) {
        const q = quoteIdent(t);
        const dsDir = join(outDir, name);
        mkdirSync(dsDir, { recursive: true });
        const [cnt] = await query<{ n: number }>(conn, `SELECT count(*) AS n FROM ${q}`);
        const part = o.format === 'parquet' ? mod?.partitionBy?.[t] : undefined;
        const extra = part ? mod?.exportColumns?.[t] : undefined;
        const select = `SELECT *${extra ? `, ${extra}` : ''} FROM ${q}`;
        let target: string;
        if (o.format === 'parquet' && part) {
          target = join(dsDir, t);
          rmSync(target, { recursive: true, force: true });
          await conn.run(`COPY (${select}) TO ? (FORMAT parquet, PARTITION_BY (${quoteIdent(part)}), COMPRESSION zstd)`, [target]);
        } else if (o.format === 'parquet') {
          target = join(dsDir, `${t}.parquet`);
          await conn.run(`COPY (${select}) TO ? (FORMAT parquet, COMPRESSION zstd)`, [target]);
        } else {
          target = join(dsDir, `${t}.csv`);
          await conn.run(`COPY (${select}) TO ? (FORMAT csv, HEADER true)`, [target]);
        }
        out.push({ dataset: name, table: t, path: target, rows: cnt?.n ?? 0, ...(part ? { partitioned_by: part } : {}) });
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return out;
}
