/**
 * Tax years: `YYYY-YY`, running 6 April to 5 April (ITA 2007 s.4). The current year follows the
 * injected clock (UK civil date, Europe/London), so on 2026-11-21 it is 2026-27.
 */
import { errors } from '../../contract/errors.js';
import { isValidTaxYear } from '../../contract/validate.js';

/** The UK civil date (Europe/London) of an instant, YYYY-MM-DD. */
export function ukDate(now: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

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

export function currentTaxYear(now: Date): string {
  return taxYearOfDate(ukDate(now));
}

/**
 * The tax year a request asks for (`undefined` means the current year), checked against the years the
 * data covers. Throws 404 `invalid_tax_year` for a malformed or uncovered year.
 */
export function resolveTaxYear(value: unknown, now: Date, covered: ReadonlySet<string> | readonly string[]): string {
  const year = value === undefined || value === null ? currentTaxYear(now) : value;
  const has = Array.isArray(covered) ? covered.includes(year as string) : (covered as ReadonlySet<string>).has(year as string);
  if (typeof year !== 'string' || !isValidTaxYear(year) || !has) throw errors.invalidTaxYear(year);
  return year;
}
