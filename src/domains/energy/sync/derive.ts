/**
 * Rates from the levels model's annual levels, and both VAT bases, in decimal.js (sync time only: the
 * calculator and the handlers never load decimal.js). Rounding rules: docs/energy.md "Derivations".
 */
import { Decimal } from 'decimal.js';
import { DAYS_A_YEAR } from '../calc.js';


const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** Excluding VAT (unrounded) -> incl. VAT: ex x (1 + vat), 2 decimal places, halves up. */
export function includingVat(ex: Decimal.Value, vatRate: string): string {
  return new D(ex).times(new D(1).plus(vatRate)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/**
 * Rates from the levels model's annual levels (pounds a year, as the workbook states them) at nil kWh
 * and at the benchmark consumption: standing charge = nil level x 100 / 365 (pence a day); unit rate =
 * (benchmark level - nil level) x 100 / benchmark kWh (pence per kWh). Returned unrounded: the caller
 * rounds (ex VAT to 4 dp, incl. VAT to 2 dp, see below).
 */
export function ratesFromLevels(nilPounds: string, benchmarkPounds: string, benchmarkKwh: number): { standing: Decimal; unit: Decimal } {
  const nil = new D(nilPounds);
  return {
    standing: nil.times(100).div(DAYS_A_YEAR),
    unit: new D(benchmarkPounds).minus(nil).times(100).div(benchmarkKwh),
  };
}

export interface DerivedRates {
  unit_rate: string;
  standing_charge: string;
  unit_rate_ex_vat: string;
  standing_charge_ex_vat: string;
}

/**
 * Both VAT bases from rates on one basis (unrounded): excluding VAT to 4 dp; including VAT to 2 dp
 * (the precision Ofgem publishes), each computed from the unrounded value, halves up.
 */
export function bothBases(unit: Decimal, standing: Decimal, basis: 'excluding' | 'including', vatRate: string): DerivedRates {
  const f = new D(1).plus(vatRate);
  const exU = basis === 'excluding' ? unit : unit.div(f);
  const exS = basis === 'excluding' ? standing : standing.div(f);
  return {
    unit_rate: includingVat(exU, vatRate),
    standing_charge: includingVat(exS, vatRate),
    unit_rate_ex_vat: exU.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4),
    standing_charge_ex_vat: exS.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4),
  };
}
