/**
 * Bank holidays: GOV.UK's bank-holidays.json normalised to flat records, and the date arithmetic the
 * /v1/calendar handlers share. Pure functions: no I/O here (see source.ts for where the data comes from).
 */

import { REGION_SLUGS, type RegionSlug } from './routes.js';

export { REGION_SLUGS, type RegionSlug };

export const REGIONS: ReadonlyArray<{ slug: RegionSlug; name: string }> = [
  { slug: 'england_and_wales', name: 'England and Wales' },
  { slug: 'scotland', name: 'Scotland' },
  { slug: 'northern_ireland', name: 'Northern Ireland' },
];

/** GOV.UK's division keys (`england-and-wales`) to our slugs (`england_and_wales`). */
export const DIVISION_TO_SLUG: Readonly<Record<string, RegionSlug>> = {
  'england-and-wales': 'england_and_wales',
  scotland: 'scotland',
  'northern-ireland': 'northern_ireland',
};

export interface BankHoliday {
  /** YYYY-MM-DD */
  date: string;
  title: string;
  region: RegionSlug;
  /** null where GOV.UK has an empty string (e.g. 'Substitute day' otherwise). */
  notes: string | null;
  bunting: boolean;
}

/** The shape of https://www.gov.uk/bank-holidays.json. */
export interface GovUkBankHolidays {
  [division: string]: { division: string; events: Array<{ title: string; date: string; notes: string; bunting: boolean }> };
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Flatten and check GOV.UK's file. Throws on a structurally wrong file (so a sync keeps the old data).
 * Unknown divisions are ignored; all three known divisions must be present.
 */
export function normaliseGovUk(doc: unknown): BankHoliday[] {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('bank-holidays.json: not a JSON object');
  const out: BankHoliday[] = [];
  for (const [division, slug] of Object.entries(DIVISION_TO_SLUG)) {
    const d = (doc as Record<string, unknown>)[division] as { events?: unknown } | undefined;
    if (!d || !Array.isArray(d.events)) throw new Error(`bank-holidays.json: division '${division}' missing or without events`);
    for (const e of d.events as Array<Record<string, unknown>>) {
      if (typeof e.date !== 'string' || !DATE_RE.test(e.date) || typeof e.title !== 'string') {
        throw new Error(`bank-holidays.json: malformed event in '${division}': ${JSON.stringify(e)}`);
      }
      const notes = typeof e.notes === 'string' && e.notes.trim() !== '' ? e.notes : null;
      out.push({ date: e.date, title: e.title, region: slug, notes, bunting: e.bunting === true });
    }
  }
  return sortHolidays(out);
}

/** Order: date ascending, then region in the order of REGION_SLUGS (England and Wales, Scotland, Northern Ireland). */
export function sortHolidays(items: BankHoliday[]): BankHoliday[] {
  const rank = (r: RegionSlug) => REGION_SLUGS.indexOf(r);
  return items.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : rank(a.region) - rank(b.region)));
}

/** The calendar date (YYYY-MM-DD) of an instant in the UK (Europe/London): src/uk-time.ts. */
export { ukDate } from '../../uk-time.js';

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `date` plus `months` calendar months (day clamped to the month's end). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const idx = y * 12 + (m - 1) + months;
  const ny = Math.floor(idx / 12);
  const nm = (idx % 12) + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export function lastDate(items: readonly BankHoliday[]): string | null {
  let max: string | null = null;
  for (const h of items) if (max === null || h.date > max) max = h.date;
  return max;
}

export function firstDate(items: readonly BankHoliday[]): string | null {
  let min: string | null = null;
  for (const h of items) if (min === null || h.date < min) min = h.date;
  return min;
}

/**
 * The staleness warning: when the data's last date is less than six months after today (UK date),
 * the calendar is about to run out. Returns null when the data reaches far enough.
 */
export function stalenessWarning(items: readonly BankHoliday[], today: string): string | null {
  const last = lastDate(items);
  const horizon = addMonths(today, 6);
  if (last !== null && last >= horizon) return null;
  return last === null
    ? "No bank-holiday data is available. Run 'publicdata sync bank-holidays' to fetch it from GOV.UK."
    : `Bank-holiday data ends on ${last}, less than six months ahead of today (${today}). ` +
        "Run 'publicdata sync bank-holidays' to refresh it from GOV.UK.";
}

/** Holidays of the given years (inclusive), optionally of one region. Keeps the input order. */
export function inYears(items: readonly BankHoliday[], fromYear: number, toYear: number, region?: string): BankHoliday[] {
  return items.filter((h) => {
    const y = Number(h.date.slice(0, 4));
    return y >= fromYear && y <= toYear && (region === undefined || h.region === region);
  });
}

export interface NextBankHoliday extends BankHoliday {
  /** Days from today (UK date) to the holiday: 0 when today is the holiday. */
  days_until: number;
}

/**
 * The next holiday on or after today for each region (today counts: on a bank holiday, `next` is today
 * with days_until 0). Regions in REGION_SLUGS order; a region with no upcoming holiday in the data is left out.
 */
export function nextPerRegion(items: readonly BankHoliday[], today: string, region?: string): NextBankHoliday[] {
  const out: NextBankHoliday[] = [];
  for (const slug of REGION_SLUGS) {
    if (region !== undefined && slug !== region) continue;
    let best: BankHoliday | undefined;
    for (const h of items) {
      if (h.region !== slug || h.date < today) continue;
      if (!best || h.date < best.date) best = h;
    }
    if (best) out.push({ ...best, days_until: daysBetween(today, best.date) });
  }
  return out;
}
