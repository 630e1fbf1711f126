/**
 * Where the calendar handlers get their bank holidays: the synced mirror copy (`publicdata sync bank-holidays`,
 * file `bank_holidays.duckdb` in the mirror dir) when present, else the GOV.UK snapshot shipped in
 * data/calendar/bank-holidays.json. The snapshot path never loads DuckDB.
 */
import type { HandlerContext } from '../../contract/types.js';
import { loadJsonFile } from '../../data.js';
import { type BankHoliday, normaliseGovUk, sortHolidays, type RegionSlug } from './holidays.js';

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

/** Read the synced copy (table `bank_holidays`). Returns null when the mirror has none or it cannot be read. */
async function mirrorHolidays(ctx: HandlerContext): Promise<HolidaySource | null> {
  const { isDatasetPresent } = await import('../../mirror/paths.js');
  if (!isDatasetPresent('bank-holidays', ctx.mirrorDir)) return null;
  try {
    const { openDataset, query, lastSync } = await import('../../mirror/db.js');
    const conn = await openDataset('bank-holidays', ctx.mirrorDir);
    const rows = await query(conn, 'SELECT date, title, region, notes, bunting FROM bank_holidays ORDER BY date');
    if (rows.length === 0) return null;
    const log = await lastSync(conn);
    const items: BankHoliday[] = rows.map((r) => ({
      date: String(r.date),
      title: String(r.title),
      region: String(r.region) as RegionSlug,
      notes: r.notes === null || r.notes === '' ? null : String(r.notes),
      bunting: r.bunting === true,
    }));
    const asOf = log?.as_of ?? (log?.synced_at ? String(log.synced_at).slice(0, 10) : SNAPSHOT_AS_OF);
    return { items: sortHolidays(items), asOf: String(asOf), origin: 'mirror' };
  } catch {
    return null;
  }
}

export async function loadHolidays(ctx: HandlerContext): Promise<HolidaySource> {
  const synced = await mirrorHolidays(ctx);
  if (synced) return synced;
  return { items: snapshotHolidays(), asOf: SNAPSHOT_AS_OF, origin: 'snapshot' };
}
