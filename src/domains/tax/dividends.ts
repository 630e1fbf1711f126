/**
 * Dividend tax on dividend income that falls in one band (data/tax/dividends.yaml).
 * The dividend allowance is a 0% band (ITA 2007 s.13A, the dividend nil rate): the first `allowance` of
 * dividends is taxed at 0%, the rest at the rate of the band the caller names (ITA 2007 s.8).
 * Tax is exact in fractions of a penny and rounded down to the whole penny (docs/tax-business.md "Rounding").
 */
import { loadData } from '../../data.js';
import { applyRate } from '../../money.js';

export type DividendBand = 'basic' | 'higher' | 'additional';

export interface DividendYear {
  dividend_allowance: number;
  rates: Record<DividendBand, number>;
  source: string[];
}

export interface DividendData {
  meta: { as_of: string; source_url: string; bands: DividendBand[] };
  sources: Record<string, string>;
  years: Record<string, DividendYear>;
}

export function dividendData(): DividendData {
  return loadData<DividendData>('tax/dividends');
}

export function dividendYears(): string[] {
  return Object.keys(dividendData().years);
}

export interface DividendResult {
  dividend_income_pence: number;
  /** The allowance used (at most the income), pence. */
  allowance_pence: number;
  taxable_pence: number;
  rate: number;
  tax_pence: number;
}

export function computeDividendTax(incomePence: number, allowancePence: number, rate: number): DividendResult {
  if (!Number.isSafeInteger(incomePence) || incomePence < 0) throw new RangeError('dividend income must be a non-negative integer of pence');
  const used = Math.min(incomePence, allowancePence);
  const taxable = incomePence - used;
  const tax = applyRate(taxable, rate, 'down');
  return { dividend_income_pence: incomePence, allowance_pence: used, taxable_pence: taxable, rate, tax_pence: tax };
}
