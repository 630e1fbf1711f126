/**
 * Tax years: `YYYY-YY`, running 6 April to 5 April (ITA 2007 s.4). The current year follows the
 * injected clock (UK civil date, Europe/London), so on 2026-11-21 it is 2026-27.
 */
import { errors } from '../../contract/errors.js';
import { isValidTaxYear } from '../../contract/validate.js';

import { ukDate } from '../../uk-time.js';

export { ukDate };

/** The tax year containing a date (YYYY-MM-DD). */
export function taxYearOfDate(date: string): string {
  const y = Number(date.slice(0, 4));
  const start = date.slice(5) >= '04-06' ? y : y - 1;
  return formatTaxYear(start);
}

export function formatTaxYear(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

export function taxYearStartYear(taxYear: string): number {
  return Number(taxYear.slice(0, 4));
}

export function taxYearStart(taxYear: string): string {
  return `${taxYearStartYear(taxYear)}-04-06`;
}

export function taxYearEnd(taxYear: string): string {
  return `${taxYearStartYear(taxYear) + 1}-04-05`;
}

/**
 * The UK civil date changes only at local midnight and the clocks change at 01:00 UTC, both on a whole
 * UTC hour (the offset is 0 or 1 hour), so the tax year is the same for every instant of one UTC hour:
 * remembered for the last hour asked (a batch asks it once per line).
 */
let memoHour = Number.NaN;
let memoYear = '';

export function currentTaxYear(now: Date): string {
  const hour = Math.floor(now.getTime() / 3_600_000);
  if (hour !== memoHour) {
    memoYear = taxYearOfDate(ukDate(now)); // an invalid Date (NaN) throws here, as before, and is not remembered
    memoHour = hour;
  }
  return memoYear;
}

/**
 * The tax year a request asks for (`undefined` means the current year), checked against the years the
 * data covers (`now` may be the clock itself, read only when no year is given). Throws 404 `invalid_tax_year` for a malformed or uncovered year.
 */
export function resolveTaxYear(value: unknown, now: Date | (() => Date), covered: ReadonlySet<string> | readonly string[]): string {
  const year = value === undefined || value === null ? currentTaxYear(typeof now === 'function' ? now() : now) : value;
  const has = Array.isArray(covered) ? covered.includes(year as string) : (covered as ReadonlySet<string>).has(year as string);
  if (typeof year !== 'string' || !isValidTaxYear(year) || !has) {
    throw errors.invalidTaxYear(year, isValidTaxYear(String(year)) ? [...covered].sort() : undefined);
  }
  return year;
}
