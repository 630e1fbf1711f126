/**
 * The bill calculator and the VAT derivations, exact: bills in integer pence (money.ts), rates as decimal
 * text scaled to integer ten-thousandths of a penny, derivations in decimal.js. Every rounding rule here
 * is listed in ROUNDING_RULES (answered in `meta.rounding` and documented with its source in docs/energy.md).
 */
import { Decimal } from 'decimal.js';
import { decimalOf, divRound, divRoundBig, toPounds } from '../../money.js';

/** Days a year of standing charges: Ofgem annualises the daily standing charge over 365 days. */
export const DAYS_A_YEAR = 365;
/** Rates are held to 4 decimal places of a penny (integer units of 1/10,000 p). */
const RATE_SCALE = 10_000;

export const ROUNDING_RULES = [
  'energy_cost = kWh x unit rate (pence per kWh, incl. VAT), rounded to the nearest penny, halves up',
  'standing_cost = 365 days x standing charge (pence per day, incl. VAT), rounded to the nearest penny, halves up',
  'total of a fuel = energy_cost + standing_cost; total_annual = sum of the fuels (exact, in pence)',
  'monthly = total_annual / 12, rounded to the nearest penny, halves up',
  'rates incl. VAT are the published (or derived) figures to 2 decimal places; excluding_vat = incl. VAT / 1.05 to 4 decimal places, halves up',
] as const;

/** A rate's decimal text ('26.35', '25.1234') as integer units of 1/10,000 p. Throws on anything else. */
export function rateUnits(text: string): number {
  const m = /^(\d{1,6})(?:\.(\d{1,4}))?$/.exec(text);
  if (!m) throw new RangeError(`not a rate with at most 4 decimal places: '${text}'`);
  return Number(m[1]) * RATE_SCALE + Number((m[2] ?? '').padEnd(4, '0'));
}

/** kWh x rate, in whole pence, halves up. kWh is a JSON number (>= 0), taken at its exact decimal value. */
export function energyCostPence(kwh: number, rate: number): number {
  if (Number.isInteger(kwh)) {
    const p = kwh * rate;
    if (Number.isSafeInteger(p)) return divRound(p, RATE_SCALE, 'half-up');
  }
  const { units, scale } = decimalOf(kwh);
  return Number(divRoundBig(units * BigInt(rate), 10n ** BigInt(scale) * BigInt(RATE_SCALE), 'half-up'));
}

/** 365 days x a standing charge, in whole pence, halves up. */
export function standingCostPence(standing: number): number {
  return divRound(DAYS_A_YEAR * standing, RATE_SCALE, 'half-up');
}

export interface FuelRates {
  /** Pence per kWh incl. VAT, decimal text. */
  unit_rate: string;
  /** Pence per day incl. VAT, decimal text. */
  standing_charge: string;
}

export interface FuelBill {
  kwh: number;
  unit_rate: number;
  standing_charge: number;
  energy_cost: number;
  standing_cost: number;
  total: number;
}

/** One fuel's bill; money in pounds (from integer pence), rates in pence as published. */
export function fuelBill(kwh: number, rates: FuelRates): { bill: FuelBill; pence: number } {
  const energy = energyCostPence(kwh, rateUnits(rates.unit_rate));
  const standing = standingCostPence(rateUnits(rates.standing_charge));
  const pence = energy + standing;
  return {
    bill: {
      kwh,
      unit_rate: Number(rates.unit_rate),
      standing_charge: Number(rates.standing_charge),
      energy_cost: toPounds(energy),
      standing_cost: toPounds(standing),
      total: toPounds(pence),
    },
    pence,
  };
}

export interface BillTotals {
  electricity: FuelBill | null;
  gas: FuelBill | null;
  total_annual: number;
  monthly: number;
  /** The annual total in pence (tests, comparisons). */
  total_pence: number;
}

export function bill(
  electricityKwh: number | undefined,
  gasKwh: number | undefined,
  rates: { electricity?: FuelRates; gas?: FuelRates },
): BillTotals {
  let total = 0;
  let electricity: FuelBill | null = null;
  let gas: FuelBill | null = null;
  if (electricityKwh !== undefined) {
    if (!rates.electricity) throw new Error('electricity rates missing');
    const r = fuelBill(electricityKwh, rates.electricity);
    electricity = r.bill;
    total += r.pence;
  }
  if (gasKwh !== undefined) {
    if (!rates.gas) throw new Error('gas rates missing');
    const r = fuelBill(gasKwh, rates.gas);
    gas = r.bill;
    total += r.pence;
  }
  return { electricity, gas, total_annual: toPounds(total), monthly: toPounds(divRound(total, 12, 'half-up')), total_pence: total };
}

// ---- VAT derivations (decimal.js; sync time and shipped data, never the batch hot path) ----

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** Incl. VAT -> excluding VAT: inc / (1 + vat), 4 decimal places, halves up. */
export function excludingVat(inc: string, vatRate: string): string {
  return new D(inc).div(new D(1).plus(vatRate)).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4);
}

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
