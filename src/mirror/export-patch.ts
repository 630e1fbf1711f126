/**
 * `--since` with the sync's record of changed rows (src/mirror/changes.ts): a touched partition's new
 * file is derived from its file in the earlier export and the record, not from a scan of the mirror:
 * the old file's rows in file order minus those whose row hash is a removed row's, then the added rows
 * sorted on the table's sort columns (exact EXCEPT ALL, sorted, when the row count disagrees). That
 * reads the partition and the record, not the table (price paid is stored in postcode order, so a
 * year's rows are spread over the whole table). COPY's row count is then checked against the
 * fingerprint (old count plus the record's change) like any write (docs/export.md).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { changesTable, SIGN } from './changes.js';
import { quoteIdent } from './db.js';
import type { ManifestPartition } from './export-manifest.js';
import { LAYOUT, type PartitionPrint, type TablePlan } from './export-table.js';
import { splitLarge, type LakeFile } from './export-write.js';

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Whether `plan`'s rows can be patched: Parquet, partitioned, the rows the table itself. */
export function patchable(plan: TablePlan): boolean {
  return plan.partitionColumns.length > 0 && plan.spec.select === undefined && plan.select.includes(`FROM (${plan.base}) s`);
}

/**
 * Write each partition of `parts` to `staging/<path>/data_0.parquet` from its old files (`old`, under
 * `fromDir`; none for a new partition) and the record's rows of it. Returns the files by partition path.
 */
export async function writePatched(
  conn: DuckDBConnection,
  plan: TablePlan,
  staging: string,
  fromDir: string,
  parts: readonly PartitionPrint[],
  old: ReadonlyMap<string, ManifestPartition>,
): Promise<Map<string, LakeFile[]>> {
  const cols = plan.columns.map((c) => quoteIdent(c.name)).join(', ');
  const rowsOf = (sign: number) => plan.select.replace(`FROM (${plan.base}) s`, `FROM (SELECT * EXCLUDE (${quoteIdent(SIGN)}) FROM ${changesTable(plan.spec.name)} WHERE ${quoteIdent(SIGN)} = ${sign}) s`);
  const order = plan.spec.sortBy?.length ? ` ORDER BY ${plan.spec.sortBy.map(quoteIdent).join(', ')}` : '';
  const out = new Map<string, LakeFile[]>();
  for (const p of parts) {
    const params: Array<string | number | boolean | null> = [];
    const inPart = plan.partitionColumns
      .map((c) => (params.push(p.values[c.name] ?? null), `${quoteIdent(c.name)} IS NOT DISTINCT FROM $${params.length + 1}`))
      .join(' AND ');
    const change = (sign: number) => `SELECT ${cols} FROM (${rowsOf(sign)}) WHERE ${inPart}`;
    const o = old.get(p.path);
    const files = (o?.files ?? []).map((f) => lit(join(fromDir, p.path, f.name)));
    const oldRows = `SELECT ${cols} FROM read_parquet([${files.join(', ')}], hive_partitioning = false)`;
    const dir = join(staging, p.path);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'data_0.parquet');
    const copy = async (rows: string) => {
      const reader = await conn.runAndReadAll(
        `COPY (${rows}) TO $1 (FORMAT parquet, COMPRESSION ${LAYOUT.compression}, COMPRESSION_LEVEL ${LAYOUT.compressionLevel}, ROW_GROUP_SIZE ${LAYOUT.rowGroupRows}, RETURN_STATS true)`,
        [file, ...params],
      );
      return reader.getRowObjectsJson().reduce((s, r) => s + Number(r.count), 0);
    };
    // fast: the old rows in file order minus those whose row hash is a removed row's, then the added
    // rows in sortBy order (two runs, as a copy from the mirror gives). A row count other than the
    // fingerprint's (a duplicate row, a hash shared with a kept row) falls back to the exact multiset
    // difference, sorted (EXCEPT ALL is a hash operation and loses the file's order).
    const h = `hash(struct_pack(${plan.columns.map((c) => `${quoteIdent(c.name)} := ${quoteIdent(c.name)}`).join(', ')}))`;
    let n = files.length
      ? await copy(`SELECT * FROM (${oldRows}) WHERE ${h} NOT IN (SELECT ${h} FROM (${change(-1)})) UNION ALL (${change(1)}${order})`)
      : await copy(`${change(1)}${order}`);
    if (n !== p.rows && files.length) n = await copy(`SELECT * FROM ((${oldRows} EXCEPT ALL ${change(-1)}) UNION ALL ${change(1)})${order}`);
    out.set(p.path, [{ name: 'data_0.parquet', bytes: statSync(file).size, rows: n }]);
  }
  await splitLarge(conn, staging, out);
  return out;
}
