/** `publicdata sql`: read-only SQL over every synced dataset. */
import { DATASETS } from './catalog.js';
import { jsonConverter, loadDuckDB, type Param, type Row } from './db.js';
import { datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from './paths.js';


/** A string literal for DuckDB statements that take no bound parameters (ATTACH): quotes doubled. */
function sqlLiteral(s: string): string {
  if (s.includes('\0')) throw new Error('path contains a NUL byte');
  return `'${s.replace(/'/g, "''")}'`;
}

export interface SqlResult {
  columns: Array<{ name: string; type: string }>;
  rows: Row[];
  /** Datasets attached (schema names). */
  attached: string[];
}

/**
 * Run user SQL against every synced dataset, each ATTACHed READ_ONLY under its schema name (e.g.
 * `price_paid.price_paid`; unqualified table names resolve through the search path too). After attaching,
 * file system access is disabled and the configuration locked, so a query can neither write a dataset
 * file nor attach or read other files.
 */
export async function runSql(sql: string, opts: { env?: Env; mirrorDir?: string; params?: Param[]; maxRows?: number } = {}): Promise<SqlResult> {
  const env = opts.env ?? process.env;
  const dir = opts.mirrorDir ?? defaultMirrorDir(env);
  const duck = await loadDuckDB();
  const instance = await duck.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const attached: string[] = [];
    for (const [name, info] of Object.entries(DATASETS)) {
      if (!isDatasetPresent(name, dir)) continue;
      await conn.run(`ATTACH ${sqlLiteral(datasetPath(name, dir))} AS "${info.schema}" (READ_ONLY)`);
      attached.push(info.schema);
    }
    if (attached.length) await conn.run(`SET search_path = ${sqlLiteral(attached.map((s) => `${s}.main`).join(','))}`);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
    // With maxRows only that many rows are read from DuckDB (a chunk or so), not the whole result.
    const reader =
      opts.maxRows !== undefined
        ? await conn.streamAndReadUntil(sql, opts.maxRows, (opts.params ?? []) as never)
        : await conn.runAndReadAll(sql, (opts.params ?? []) as never);
    const names = reader.columnNames();
    const types = reader.columnTypes();
    const columns = names.map((n, i) => ({ name: n, type: types[i]!.toString() }));
    const conv = await jsonConverter();
    let rows = reader.convertRowObjects(conv) as Row[];
    if (opts.maxRows !== undefined) rows = rows.slice(0, opts.maxRows);
    return { columns, rows, attached };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
