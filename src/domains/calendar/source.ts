/**
 * Where the calendar handlers get their bank holidays: the synced mirror copy (`publicdata sync bank-holidays`,
 * file `bank_holidays.duckdb` in the mirror dir) when present, else the GOV.UK snapshot shipped in
 * data/calendar/bank-holidays.json. The snapshot path never loads DuckDB.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HandlerContext } from '../../contract/types.js';
import { loadJsonFile } from '../../data.js';
import { type BankHoliday, normaliseGovUk, sortHolidays, type RegionSlug } from './holidays.js';

/** File name of the synced dataset in the mirror dir (sync/bank-holidays.ts writes it). */
export const BANK_HOLIDAYS_FILE = 'bank_holidays.duckdb';
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

/** Read the synced copy. Returns null when the mirror has none (or it cannot be read). */
async function mirrorHolidays(ctx: HandlerContext): Promise<HolidaySource | null> {
  const path = join(ctx.mirrorDir, BANK_HOLIDAYS_FILE);
  if (!existsSync(path)) return null;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    const rows = (
      await conn.runAndReadAll(
        `SELECT strftime(date, '%Y-%m-%d') AS date, title, region, notes, bunting FROM bank_holidays`,
      )
    ).getRowObjectsJS();
    const meta = (await conn.runAndReadAll(`SELECT fetched_on FROM bank_holidays_source LIMIT 1`)).getRowObjectsJS();
    const items: BankHoliday[] = rows.map((r) => ({
      date: String(r.date),
      title: String(r.title),
      region: String(r.region) as RegionSlug,
      notes: r.notes === null || r.notes === '' ? null : String(r.notes),
      bunting: r.bunting === true,
    }));
    if (items.length === 0) return null;
    return { items: sortHolidays(items), asOf: String(meta[0]?.fetched_on ?? ''), origin: 'mirror' };
  } catch {
    return null;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

export async function loadHolidays(ctx: HandlerContext): Promise<HolidaySource> {
  const synced = await mirrorHolidays(ctx);
  if (synced) return synced;
  return { items: snapshotHolidays(), asOf: SNAPSHOT_AS_OF, origin: 'snapshot' };
}
