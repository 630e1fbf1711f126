/** What the personal-tax handlers share: sources, amount conversion, the year a calculator uses, Marriage Allowance checks. */
import { errors } from '../../../contract/errors.js';
import type { HandlerContext } from '../../../contract/types.js';
import { divRound, toPence, toPounds } from '../../../money.js';
import { MaIneligible, type Region } from '../personal-calc.js';
import { coveredYearSet, yearParams, type YearParams } from '../personal-params.js';
import { resolveTaxYear } from '../tax-year.js';
export const HMRC = 'HM Revenue & Customs';
export const URL_INCOME_TAX = 'https://www.gov.uk/income-tax-rates';
export const URL_NI_LETTERS = 'https://www.gov.uk/national-insurance-rates-letters';
export const URL_STUDENT_LOANS = 'https://www.gov.uk/repaying-your-student-loan/what-you-pay';
export const URL_PENSIONS = 'https://www.gov.uk/tax-on-your-private-pension/annual-allowance';

/** Pence to pounds for output. */
export const gbp = toPounds;

/** A request amount in pounds to pence (src/money.ts toPence); beyond £1bn a 400 naming the field. */
export function amountP(pounds: number, field: string): number {
  try {
    return toPence(pounds);
  } catch {
    throw errors.badRequest(`Invalid field '${field}': at most £1,000,000,000.`);
  }
}

/** a / b as a fraction rounded half-up to 4 dp (0 when b is 0). */
export function ratio4(aP: number, bP: number): number {
  if (bP <= 0) return 0;
  return divRound(aP * 10_000, bP, 'half-up') / 10_000;
}

export function params(year: string): YearParams {
  const y = yearParams(year);
  if (!y) throw errors.invalidTaxYear(year);
  return y;
}

/** Resolve `tax_year` (body or path; default the current year) against the calculators' coverage. */
export function calcYear(value: unknown, ctx: HandlerContext): YearParams {
  return params(resolveTaxYear(value, () => ctx.now(), coveredYearSet()));
}

export function maErrorToApi(e: unknown, region: Region): never {
  if (e instanceof MaIneligible) {
    throw errors.unprocessable(
      'marriage_allowance_ineligible',
      e.message === 'no Marriage Allowance this year'
        ? 'Marriage Allowance exists from 2015-16.'
        : region === 'scotland'
          ? 'The Marriage Allowance recipient must not pay tax above the intermediate rate (Scotland: starter, basic or intermediate rate taxpayers only).'
          : 'The Marriage Allowance recipient must be a basic-rate taxpayer (not liable at the higher or additional rate).',
    );
  }
  throw e;
}
