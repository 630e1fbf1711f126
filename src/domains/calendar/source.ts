/**
 * Where the calendar handlers get their bank holidays: the synced mirror copy (`publicdata sync bank-holidays`,
 * file `bank_holidays.duckdb` in the mirror dir) when present, else the GOV.UK snapshot shipped in
 * data/calendar/bank-holidays.json. The snapshot path never loads DuckDB.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { HandlerContext } from '../../contract/types.js';
import { loadJsonFile } from '../../data.js';
import { openDataset, provenanceMeta, query } from '../../mirror/db.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import { type BankHoliday, normaliseGovUk, sortHolidays, type RegionSlug } from './holidays.js';
import { BANK_HOLIDAYS_INFO } from './datasets.js';

const DATASET = BANK_HOLIDAYS_INFO;

/** Date the shipped snapshot was fetched from GOV.UK (data/calendar/SOURCE.md). */
export const SNAPSHOT_AS_OF = '2025-08-17';

export interface HolidaySource {
  items: BankHoliday[];
  /** Date the data was fetched from GOV.UK. */
  asOf: string;
  origin: 'mirror' | 'snapshot';
}

let snapshotCache: BankHoliday[] | undefined;

export function snapshotHolidays(): BankHoliday[] {
  snapshotCache ??= normaliseGovUk(loadJsonFile<unknown>('calendar/bank-holidays.json'));
  return snapshotCache;
}

/**
 * The synced copy, read once per open dataset file: openDataset hands out a new connection when a sync
 * has replaced the file, so a cache keyed on the connection is never stale. null: the file has no rows.
 */
const mirrorCache = new WeakMap<DuckDBConnection, Promise<HolidaySource | null>>();

async function readMirror(conn: DuckDBConnection): Promise<HolidaySource | null> {
  const rows = await query(conn, 'SELECT date, title, region, notes, bunting FROM bank_holidays ORDER BY date');
  if (rows.length === 0) return null;
  const items: BankHoliday[] = rows.map((r) => ({
    date: String(r.date),
    title: String(r.title),
    region: String(r.region) as RegionSlug,
    notes: r.notes === null || r.notes === '' ? null : String(r.notes),
    bunting: r.bunting === true,
  }));
  const { as_of } = await provenanceMeta(DATASET, conn);
  return { items: sortHolidays(items), asOf: as_of ?? SNAPSHOT_AS_OF, origin: 'mirror' };
}

/** Read the synced copy (table `bank_holidays`). Returns null when the mirror has none or it cannot be read. */
async function mirrorHolidays(ctx: HandlerContext): Promise<HolidaySource | null> {
  if (!isDatasetPresent(DATASET, ctx.mirrorDir)) return null;
  try {
    const conn = await openDataset(DATASET, ctx.mirrorDir);
    let cached = mirrorCache.get(conn);
    if (!cached) {
      cached = readMirror(conn);
      mirrorCache.set(conn, cached);
      cached.catch(() => mirrorCache.delete(conn)); // a failed read is tried again next time
    }
    return await cached;
  } catch {
    return null;
  }
}

export async function loadHolidays(ctx: HandlerContext): Promise<HolidaySource> {
  const synced = await mirrorHolidays(ctx);
  if (synced) return synced;
  return { items: snapshotHolidays(), asOf: SNAPSHOT_AS_OF, origin: 'snapshot' };
}
