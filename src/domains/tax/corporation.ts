/**
 * Corporation tax on one year's taxable profit (data/tax/corporation_tax.yaml), non-ring-fence profits.
 *
 * Years: the contract keys years as tax years; 'YYYY-YY' means the financial year FY YYYY (1 April YYYY to
 * 31 March YYYY+1). Accounting periods straddling 1 April and short periods are not modelled.
 *
 * FY2020-FY2022: one main rate (19%) on all profits. From FY2023 (CTA 2010 Part 2 Chapter 3A, ss.18A ff.):
 *  - augmented profits A <= lower limit: small profits rate (s.18A);
 *  - lower limit < A <= upper limit: main rate less marginal relief (s.18B)
 *      MR = (U - A) x (N / A) x standard fraction (3/200), N = taxable total profits;
 *  - A > upper limit: main rate.
 *  Both limits are divided by (1 + associated companies) (same Chapter). A is taken equal to N (no exempt
 *  distributions). The relief is continuous: at A = U it is nil; at A = L, 25% less (U - L) x 3/200 = 19%.
 *
 * Amounts are exact decimals (decimal.js, 40 significant digits). Rounding: marginal relief to the nearest
 * penny, half up; tax = main-rate tax (exact) less the rounded relief, the fraction of a penny dropped
 * (rounded down). See docs/tax-business.md "Rounding".
 */
import { formatTaxYear } from './tax-year.js';
import { Decimal } from 'decimal.js';
import { loadData } from '../../data.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
type Dec = InstanceType<typeof D>;

export interface CtSmallProfits {
  rate: number;
  lower_limit: number;
  upper_limit: number;
  marginal_relief_fraction: { numerator: number; denominator: number };
}

export interface CtYear {
  financial_year: number;
  main_rate: number;
  small_profits: CtSmallProfits | null;
  source: string[];
}

export interface CtData {
  meta: { as_of: string; source_url: string };
  sources: Record<string, string>;
  years: Record<string, CtYear>;
}

export function ctData(): CtData {
  return loadData<CtData>('tax/corporation_tax');
}

export function ctYears(): string[] {
  return Object.keys(ctData().years);
}

/** The financial year (as its 'YYYY-YY' label) containing a date: financial years start on 1 April. */
export function financialYearLabelOfDate(date: string): string {
  const y = Number(date.slice(0, 4));
  return formatTaxYear(date.slice(5) >= '04-01' ? y : y - 1);
}

export type CtRateType = 'main' | 'small_profits' | 'marginal_relief';

export interface CtResult {
  rate_type: CtRateType;
  /** Tax, pence (integer). */
  tax_pence: number;
  /** Marginal relief, pence (integer). */
  marginal_relief_pence: number;
  /** Effective rate tax / profit, exact decimal string (unrounded). */
  effective_rate: Dec;
  /** Limits after division by (1 + associated companies), exact; null before FY2023. */
  lower_limit: Dec | null;
  upper_limit: Dec | null;
  rate: number;
}

function toPenceDown(x: Dec): number {
  return x.times(100).toDecimalPlaces(0, Decimal.ROUND_DOWN).toNumber();
}
function toPenceHalfUp(x: Dec): number {
  return x.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/**
 * Corporation tax for a year. `profitPence`: taxable total profits (= augmented profits), integer pence.
 */
export function computeCorporationTax(year: CtYear, profitPence: number, associatedCompanies = 0): CtResult {
  if (!Number.isSafeInteger(profitPence) || profitPence < 0) throw new RangeError('profit must be a non-negative integer of pence');
  if (!Number.isSafeInteger(associatedCompanies) || associatedCompanies < 0) throw new RangeError('associated companies must be a non-negative integer');
  const N = new D(profitPence).div(100);
  const A = N;
  const main = new D(String(year.main_rate));
  const sp = year.small_profits;
  const effective = (taxPence: number): Dec => (profitPence === 0 ? new D(0) : new D(taxPence).div(profitPence));
  if (!sp) {
    const tax = toPenceDown(N.times(main));
    return { rate_type: 'main', tax_pence: tax, marginal_relief_pence: 0, effective_rate: effective(tax), lower_limit: null, upper_limit: null, rate: year.main_rate };
  }
  const divisor = new D(1 + associatedCompanies);
  const L = new D(sp.lower_limit).div(divisor);
  const U = new D(sp.upper_limit).div(divisor);
  if (A.lte(L)) {
    const tax = toPenceDown(N.times(String(sp.rate)));
    return { rate_type: 'small_profits', tax_pence: tax, marginal_relief_pence: 0, effective_rate: effective(tax), lower_limit: L, upper_limit: U, rate: sp.rate };
  }
  const mainTax = N.times(main);
  if (A.gt(U)) {
    const tax = toPenceDown(mainTax);
    return { rate_type: 'main', tax_pence: tax, marginal_relief_pence: 0, effective_rate: effective(tax), lower_limit: L, upper_limit: U, rate: year.main_rate };
  }
  const fraction = new D(sp.marginal_relief_fraction.numerator).div(sp.marginal_relief_fraction.denominator);
  const mr = U.minus(A).times(N.div(A)).times(fraction);
  const mrPence = toPenceHalfUp(mr);
  const tax = toPenceDown(mainTax.minus(new D(mrPence).div(100)));
  return {
    rate_type: 'marginal_relief',
    tax_pence: tax,
    marginal_relief_pence: mrPence,
    effective_rate: effective(tax),
    lower_limit: L,
    upper_limit: U,
    rate: year.main_rate,
  };
}
