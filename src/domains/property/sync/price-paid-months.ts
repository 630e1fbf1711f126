/**
 * Which months of registrations the price-paid mirror covers, so a skipped monthly update is noticed and
 * repaired (issue 21 item 3; docs/property.md "Monthly updates and missed months").
 *
 * HM Land Registry's `pp-monthly-update-new-version.csv` holds only the transactions it received in one
 * month (published around the 20th working day of the next). A mirror synced in January and again in
 * March would apply March's update and never February's. So every load records the month it brings the
 * data up to in `price_paid_months`:
 *  - a full load (complete or yearly files): the month before the files' publication date (none for a
 *    local file with no date: the next update is then applied without a gap check, and says so);
 *  - an update: the month of the latest transfer date in the update file (a transfer cannot be registered
 *    before it happens, so the month received is the month of the newest date; the real excerpt's newest
 *    date, 2026-03-20, is in the month it was "lodged up to").
 * An update for month N applied to data covering month P < N-1 misses the months between. They are
 * repaired from the yearly files `pp-YYYY.csv` (tens of MB each, not the 5 GB complete file), which the
 * publisher regenerates every month: the years of the missing months and the year before the first of
 * them (transfers registered late). The rows dated in those years are replaced by the yearly files' rows,
 * then the update is applied. Transfers dated before those years that were registered in a missed month
 * are not recovered (the complete file, `sync price-paid --force`, recovers everything); the summary says
 * which months were repaired. Without the yearly files the sync refuses and says what to pass.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { recordChanged } from '../../../mirror/changes.js';
import { queryOne } from '../../../mirror/db.js';
import type { LoadContext } from '../../../../sync/types.js';

export const MONTHS_DDL = `CREATE TABLE IF NOT EXISTS price_paid_months (
  month       VARCHAR   NOT NULL, -- YYYY-MM: the data covers registrations up to (full) or in (update, repair) this month
  source      VARCHAR   NOT NULL, -- full, update, repair
  files       VARCHAR   NOT NULL, -- the file(s) it came from
  recorded_at TIMESTAMP NOT NULL
)`;

const YEARLY = /^pp-(\d{4})\.csv$/i;
/** More missing years than this are a job for the complete file (`--force`), not a repair. */
export const MAX_REPAIR_YEARS = 3;
const UPDATE = /^pp-monthly-update/i;

/** 'YYYY-MM' plus n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}

/** The months strictly between a and b ('YYYY-MM'). */
export function monthsBetween(a: string, b: string): string[] {
  const out: string[] = [];
  for (let m = addMonths(a, 1); m < b; m = addMonths(m, 1)) out.push(m);
  return out;
}

/** The yearly files that repair the months missing between `covered` and `next` (none when no gap). */
export function repairYears(covered: string | undefined, next: string): number[] {
  if (!covered) return [];
  const gap = monthsBetween(covered, next);
  if (!gap.length) return [];
  const years = new Set<number>([Number(gap[0]!.slice(0, 4)) - 1]);
  for (const m of gap) years.add(Number(m.slice(0, 4)));
  return [...years].sort((a, b) => a - b);
}

/**
 * The month the mirror covers up to: the newest month recorded, else (a file from before this table) the
 * month of the newest transfer date. On the live file's read-only connection (`readPrevious`) or the copy.
 */
export async function coveredThrough(conn: DuckDBConnection): Promise<string | undefined> {
  const has = await queryOne<{ n: number }>(conn, "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'price_paid_months' AND database_name = current_database()");
  // recorded, or unknown (a full load from a local file with no publication date records no month)
  if (has?.n) return (await queryOne<{ m: string | null }>(conn, 'SELECT max(month) AS m FROM price_paid_months'))?.m ?? undefined;
  return (await queryOne<{ m: string | null }>(conn, "SELECT strftime(max(date), '%Y-%m') AS m FROM price_paid"))?.m ?? undefined;
}

/** The month of the newest transfer date in the files (their third column, 'YYYY-MM-DD 00:00'). */
async function newestMonth(conn: DuckDBConnection, paths: string[]): Promise<string | undefined> {
  if (!paths.length) return undefined;
  const r = await queryOne<{ m: string | null }>(
    conn,
    `SELECT strftime(max(TRY_CAST(column2 AS DATE)), '%Y-%m') AS m FROM read_csv([${paths.map(() => '?').join(', ')}], header = false, auto_detect = false,
       columns = {'column0': 'VARCHAR', 'column1': 'VARCHAR', 'column2': 'VARCHAR'}, delim = ',', quote = '"', escape = '"',
       null_padding = true, strict_mode = false, ignore_errors = true)`,
    paths,
  );
  return r?.m ?? undefined;
}

const now = () => new Date().toISOString().replace('T', ' ').replace('Z', '');

/** After a full load: the month the data covers up to (publication date, else the newest transfer). */
export async function recordFull(conn: DuckDBConnection, files: LoadContext['files']): Promise<void> {
  await conn.run(MONTHS_DDL);
  const published = files.map((f) => f.published).filter((d): d is string => !!d).sort().pop();
  if (!published) return; // a local file: which month it was published up to is not known
  const month = addMonths(published.slice(0, 7), -1);
  await conn.run('INSERT INTO price_paid_months VALUES (?, ?, ?, CAST(? AS TIMESTAMP))', [month, 'full', files.map((f) => f.name).join(' '), now()]);
}

export interface UpdatePlan {
  /** Years whose rows the yearly files replace (a repair), before the update is applied. */
  replaceYears: number[];
  /** The update's month and the months repaired, to record after the load. */
  month?: string;
  repaired: string[];
  repairFiles: string[];
  updateFiles: string[];
  note?: string;
}

/**
 * Before an incremental load: the update's month against the months covered. A gap is repaired when the
 * yearly files of every missing month's year are among the files; otherwise refused with what to pass.
 * Yearly files without an update file (`--from pp-YYYY.csv`, added) are plain additions: no plan.
 */
export async function planUpdate(conn: DuckDBConnection, files: LoadContext['files']): Promise<UpdatePlan> {
  const updates = files.filter((f) => UPDATE.test(f.name));
  const yearly = files.filter((f) => YEARLY.test(f.name));
  const plan: UpdatePlan = { replaceYears: [], repaired: [], repairFiles: [], updateFiles: updates.map((f) => f.name) };
  if (!updates.length) return plan;
  const month = await newestMonth(conn, updates.map((f) => f.path));
  if (!month) return plan;
  plan.month = month;
  const covered = await coveredThrough(conn);
  if (!covered) {
    plan.note = `applied the ${month} update; the months the data covered before are not known (loaded from a file with no publication date), so no missed month could be checked`;
    return plan;
  }
  const gap = monthsBetween(covered, month);
  if (!gap.length) return plan;
  const span = gap.length === 1 ? gap[0]! : `${gap.length} months, ${gap[0]} to ${gap[gap.length - 1]}`;
  const have = new Set(yearly.map((f) => Number(YEARLY.exec(f.name)![1])));
  const need = repairYears(covered, month);
  if (need.length > MAX_REPAIR_YEARS) {
    throw new Error(
      `the update covers ${month} but the mirror covers registrations only up to ${covered}: ${span} missing, more than the ` +
        `${MAX_REPAIR_YEARS} yearly files a repair reads; reload everything with 'publicdata sync price-paid --force'`,
    );
  }
  if (need.some((y) => !have.has(y))) {
    const names = need.map((y) => `pp-${y}.csv`);
    throw new Error(
      `the update covers ${month} but the mirror covers registrations only up to ${covered}: ${span} missing, repaired only ` +
        `with the yearly file(s) ${names.join(', ')}. Run 'publicdata sync price-paid' (it fetches them), or pass them: ` +
        `'publicdata sync price-paid ${names.map((n) => `--from ${n}`).join(' ')} --from ${updates[0]!.name}', ` +
        `or reload everything with 'publicdata sync price-paid --force'`,
    );
  }
  plan.replaceYears = need;
  plan.repaired = gap;
  plan.repairFiles = need.map((y) => `pp-${y}.csv`);
  plan.note = `repaired the missed month${gap.length === 1 ? '' : 's'} (${span}) from ${plan.repairFiles.join(', ')} (rows dated ${need[0]}-${need[need.length - 1]} replaced by the publisher's yearly files), then applied the ${month} update`;
  return plan;
}

/** The rows dated in the repaired years go (recorded as changed); the yearly files' rows then come back with the update. */
export async function dropYears(conn: DuckDBConnection, years: number[], idTable: string): Promise<void> {
  if (!years.length) return;
  const list = years.map((y) => Number(y)).join(', ');
  await conn.run(`DELETE FROM ${idTable} WHERE id IN (SELECT id FROM price_paid WHERE year(date) IN (${list}))`);
  await recordChanged(conn, 'price_paid', 'removed', `SELECT * FROM price_paid WHERE year(date) IN (${list})`);
  await conn.run(`DELETE FROM price_paid WHERE year(date) IN (${list})`);
}

/** After the update: the months it and the repair brought in. */
export async function recordUpdate(conn: DuckDBConnection, plan: UpdatePlan): Promise<void> {
  await conn.run(MONTHS_DDL);
  const at = now();
  for (const m of plan.repaired) {
    await conn.run('INSERT INTO price_paid_months VALUES (?, ?, ?, CAST(? AS TIMESTAMP))', [m, 'repair', plan.repairFiles.join(' '), at]);
  }
  if (plan.month) {
    await conn.run('INSERT INTO price_paid_months VALUES (?, ?, ?, CAST(? AS TIMESTAMP))', [plan.month, 'update', plan.updateFiles.join(' '), at]);
  }
}
