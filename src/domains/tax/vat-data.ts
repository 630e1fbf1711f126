/**
 * VAT reference data (data/tax/vat.yaml): the rates by date and the flat-rate scheme categories by date.
 * A stable API shared with the VAT return engine (src/domains/tax/vat-return/); see docs/tax-business.md.
 *
 * Category codes are snake_case slugs of the descriptions in the table of VAT Regulations 1995 reg 55K
 * (substituted by SI 2010/2940 reg 4 from 4 Jan 2011): lower case, "'s" -> "s", every run of other
 * non-alphanumerics -> "_". The 16.5% limited cost business category (from 1 Apr 2017) is `limited_cost_business`.
 */
import { decimalOf, decimalToNumber } from '../../money.js';
import { loadData } from '../../data.js';

export type Source = string | string[];

export interface VatRatePeriod {
  from: string;
  to: string | null;
  rate: number;
  source: Source;
}

export interface VatRateEntry {
  name: 'standard' | 'reduced' | 'zero';
  label: string;
  description: string;
  periods: VatRatePeriod[];
}

export interface TemporaryVatRate {
  name: string;
  label: string;
  description: string;
  from: string;
  to: string;
  rate: number;
  source: Source;
}

export interface ThresholdPeriod {
  from: string;
  to: string | null;
  amount: number;
  source: Source;
}

export interface FlatRatePeriod {
  from: string;
  to: string | null;
  percentage: number;
  source: Source;
}

export interface FlatRateCategoryData {
  code: string;
  description: string;
  percentages: FlatRatePeriod[];
}

export interface Sourced<T> {
  value: T;
  source: Source;
}

export interface VatData {
  meta: { as_of: string; source_url: string; tax_years: string[] };
  sources: Record<string, string>;
  rates: VatRateEntry[];
  temporary_rates: TemporaryVatRate[];
  registration: {
    registration_threshold: ThresholdPeriod[];
    deregistration_threshold: ThresholdPeriod[];
  };
  flat_rate_scheme: {
    source: string;
    table_effective_date: string;
    first_year_reduction_points: Sourced<number>;
    join_limit_taxable_turnover_ex_vat: Sourced<number>;
    leave_limit_total_income_inc_vat: Sourced<number>;
    categories: FlatRateCategoryData[];
  };
}

export interface FlatRateCategory {
  code: string;
  description: string;
  /** Percent of VAT-inclusive turnover (14.5 = 14.5%). */
  percentage: number;
  /** The percentage in the first year of VAT registration: 1 point lower (reg 55JB), never below 0. */
  first_year_percentage: number;
}

export interface VatRateInForce {
  rate: number;
  label: string;
  /** The date the rate in force on the asked date took effect. */
  effective_date: string;
  description: string;
}

/** The 16.5% limited cost business category (VAT Regulations 1995 reg 55A, from 1 April 2017). */
export const LIMITED_COST_TRADER_CODE = 'limited_cost_business';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function vatData(): VatData {
  return loadData<VatData>('tax/vat');
}

function checkDate(date: string): void {
  if (typeof date !== 'string' || !ISO_DATE.test(date)) throw new RangeError(`date '${String(date)}' is not YYYY-MM-DD`);
}

/** Whether [from, to] covers `date` (YYYY-MM-DD strings; inclusive bounds; `to: null` is open). */
export function inRange(date: string, from: string, to: string | null): boolean {
  return from <= date && (to === null || date <= to);
}

/** Whether a dated period covers `date` (inclusive bounds; `to: null` is open). */
export function inPeriod(p: { from: string; to: string | null }, date: string): boolean {
  return inRange(date, p.from, p.to);
}

/** The period of a list in force on `date`, if any. */
export function periodOn<P extends { from: string; to: string | null }>(periods: readonly P[], date: string): P | undefined {
  return periods.find((p) => inPeriod(p, date));
}

/**
 * The VAT rate of a contract name (standard, reduced, zero) in force on a date (YYYY-MM-DD).
 * Throws RangeError for a malformed date or a date before the data's history of that rate.
 * The temporary hospitality rates (2020-22) applied to particular supplies only; they are not the
 * `reduced` rate and are read with {@link temporaryVatRates}.
 */
export function vatRate(name: 'standard' | 'reduced' | 'zero', date: string): VatRateInForce {
  checkDate(date);
  const entry = vatData().rates.find((r) => r.name === name);
  if (!entry) throw new RangeError(`unknown VAT rate '${String(name)}'`);
  const p = periodOn(entry.periods, date);
  if (!p) throw new RangeError(`no ${name} VAT rate on ${date} in the data`);
  return { rate: p.rate, label: entry.label, effective_date: p.from, description: entry.description };
}

/** Temporary rates (hospitality 2020-22) whose period overlaps [from, to]. */
export function temporaryVatRates(from: string, to: string): TemporaryVatRate[] {
  return vatData().temporary_rates.filter((t) => t.from <= to && t.to >= from);
}

/** The flat-rate percentage in the first year of VAT registration: the reduction points off (reg 55JB), never below 0. */
export function firstYear(percentage: number): number {
  const points = vatData().flat_rate_scheme.first_year_reduction_points.value;
  // exact decimal subtraction (a percentage may have any number of decimal places)
  const a = decimalOf(percentage);
  const b = decimalOf(points);
  const scale = Math.max(a.scale, b.scale);
  const diff = a.units * 10n ** BigInt(scale - a.scale) - b.units * 10n ** BigInt(scale - b.scale);
  return diff <= 0n ? 0 : decimalToNumber(diff, scale);
}

function categoryOn(c: FlatRateCategoryData, date: string): (FlatRateCategory & { effective_date: string }) | undefined {
  const p = periodOn(c.percentages, date);
  if (!p) return undefined;
  return {
    code: c.code,
    description: c.description,
    percentage: p.percentage,
    first_year_percentage: firstYear(p.percentage),
    effective_date: p.from,
  };
}

/** The flat-rate categories in force on a date (YYYY-MM-DD), in table order; [] before 4 Jan 2011. */
export function flatRateCategories(date: string): FlatRateCategory[] {
  checkDate(date);
  const out: FlatRateCategory[] = [];
  for (const c of vatData().flat_rate_scheme.categories) {
    const x = categoryOn(c, date);
    if (x) out.push({ code: x.code, description: x.description, percentage: x.percentage, first_year_percentage: x.first_year_percentage });
  }
  return out;
}

/** One flat-rate category in force on a date, or undefined (unknown code, or not in force then). */
export function flatRateCategory(code: string, date: string): FlatRateCategory | undefined {
  checkDate(date);
  const c = vatData().flat_rate_scheme.categories.find((x) => x.code === code);
  const x = c && categoryOn(c, date);
  return x ? { code: x.code, description: x.description, percentage: x.percentage, first_year_percentage: x.first_year_percentage } : undefined;
}

/** The date the flat-rate table in force on `date` last changed (latest effective date of any row). */
export function flatRateTableEffectiveDate(date: string): string | undefined {
  checkDate(date);
  let latest: string | undefined;
  for (const c of vatData().flat_rate_scheme.categories) {
    const x = categoryOn(c, date);
    if (x && (latest === undefined || x.effective_date > latest)) latest = x.effective_date;
  }
  return latest;
}

/** The VAT registration threshold (pounds of taxable turnover, rolling 12 months) on a date. */
export function registrationThreshold(date: string): number | undefined {
  checkDate(date);
  return periodOn(vatData().registration.registration_threshold, date)?.amount;
}
