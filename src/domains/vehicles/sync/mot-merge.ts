/**
 * `sync mot --from <files of other years>` ADDS those years to the years already in the mirror (issue 21
 * item 2): the load runs on a copy of the live file, its tables are set aside, the new files load as a
 * full load would, and the set-aside rows of the years the new files do not hold are put back. Every MOT
 * table is per test year (tests, years, pass rates, failures), so a year is replaced whole, never mixed.
 * The lookups (item detail and groups) are the new files' when they bring them, else the previous ones.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { query, quoteIdent } from '../../../mirror/db.js';
import { count } from '../../../../sync/common.js';

const YEAR_TABLES = ['mot_tests', 'mot_years', 'mot_pass_rates', 'mot_failures'] as const;
const LOOKUP_TABLES = ['mot_item_detail', 'mot_item_group', 'mot_defect_categories'] as const;
const prev = (t: string) => quoteIdent(`${t}_prev`);

async function exists(conn: DuckDBConnection, t: string): Promise<boolean> {
  return (await count(conn, 'SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = ? AND database_name = current_database()', [t])) > 0;
}

/** Rename the live data's tables out of the way (on the copy), before the new files load. */
export async function setAsidePrevious(conn: DuckDBConnection): Promise<void> {
  for (const t of [...YEAR_TABLES, ...LOOKUP_TABLES]) {
    if (await exists(conn, t)) await conn.run(`ALTER TABLE ${quoteIdent(t)} RENAME TO ${prev(t)}`);
  }
}

/** After the lookups loaded: without new lookup files, the previous lookups come back. */
export async function keepPreviousLookups(conn: DuckDBConnection): Promise<void> {
  const fresh = await count(conn, 'SELECT count(*) AS n FROM mot_item_detail');
  for (const t of LOOKUP_TABLES) {
    if (!(await exists(conn, `${t}_prev`))) continue;
    if (fresh > 0) {
      await conn.run(`DROP TABLE ${prev(t)}`);
    } else {
      await conn.run(`DROP TABLE IF EXISTS ${quoteIdent(t)}`);
      await conn.run(`ALTER TABLE ${prev(t)} RENAME TO ${quoteIdent(t)}`);
    }
  }
}

/** After the aggregates: the previous years the new files do not hold are put back. Returns them. */
export async function mergePreviousYears(conn: DuckDBConnection): Promise<number[]> {
  await conn.run('CREATE TEMP TABLE _mot_new_years AS SELECT DISTINCT test_year FROM mot_years');
  const kept = (await query<{ y: number }>(conn, `SELECT DISTINCT test_year::INTEGER AS y FROM ${prev('mot_years')} WHERE test_year NOT IN (SELECT test_year FROM _mot_new_years) ORDER BY 1`).catch(() => [])).map((r) => r.y);
  for (const t of YEAR_TABLES) {
    if (!(await exists(conn, `${t}_prev`))) continue;
    const order = t === 'mot_tests' ? ' ORDER BY test_year, make, model, test_date, test_id' : ' ORDER BY test_year';
    await conn.run(`INSERT INTO ${quoteIdent(t)} BY NAME SELECT * FROM ${prev(t)} WHERE test_year NOT IN (SELECT test_year FROM _mot_new_years)${order}`);
    await conn.run(`DROP TABLE ${prev(t)}`);
  }
  await conn.run('DROP TABLE _mot_new_years');
  return kept;
}
