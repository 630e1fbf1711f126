/**
 * A load's staging database: a scratch DuckDB file in the load's work folder, attached to the load's
 * connection as `stage` (docs/performance.md, "Staging in a scratch file"; used by every large load that
 * stages its rows before sorting them into the mirror's tables: crime, companies, PSC, MOT).
 *
 * Why a file and not TEMP tables: DuckDB holds TEMP tables uncompressed in its buffer pool and spills them
 * only past the memory limit, so millions of staged rows sat in memory beside the sort that followed (crime
 * at a year of every force: 3.1-3.5 GB of RSS). A table in an attached file has its row groups written
 * compressed as they fill, so memory during staging stays flat and the sort has the memory limit to itself.
 *
 * When the load ends, failed or not, every table of `stage` is dropped BEFORE the file is detached (a DETACH
 * checkpoints the file: it would rewrite the staged rows, 30-45 s at crime's full scale, only for the file to
 * be deleted), then the file and its WAL are deleted. The framework empties the work folder before and after
 * every load too (sync/framework.ts), so a killed sync leaves nothing behind either; the mirror's guarantees
 * are untouched: the new mirror file is still built beside the live one and renamed only after verify.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '../src/mirror/db.js';
import type { LoadContext } from './types.js';

/** The catalog name of the staging database on the load's connection: `stage.<table>`. */
export const STAGE_DB = 'stage';

/**
 * Run `fn` with the staging database attached as `stage`; `fn` gets the folder the file is in (the load's
 * work folder, or a folder of its own under the system temp folder when the load has none), for members
 * it extracts. `name` names that folder (a dataset's id).
 */
export async function withStaging<T>(ctx: Pick<LoadContext, 'conn' | 'workDir'>, name: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const { conn } = ctx;
  const dir = ctx.workDir ?? join(tmpdir(), `publicdata-${name}-stage-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'stage.duckdb');
  const remove = () => {
    for (const f of [file, `${file}.wal`]) rmSync(f, { force: true });
  };
  remove();
  await conn.run(`ATTACH '${file.replace(/'/g, "''")}' AS ${STAGE_DB}`);
  try {
    return await fn(dir);
  } finally {
    const tables = await query<{ t: string }>(conn, `SELECT table_name AS t FROM duckdb_tables() WHERE database_name = '${STAGE_DB}'`).catch(() => []);
    for (const { t } of tables) await conn.run(`DROP TABLE IF EXISTS ${STAGE_DB}."${t.replace(/"/g, '""')}"`).catch(() => undefined);
    await conn.run(`DETACH ${STAGE_DB}`).catch(() => undefined);
    remove();
    if (!ctx.workDir) rmSync(dir, { recursive: true, force: true });
  }
}
