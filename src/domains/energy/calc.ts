/**
 * The bill calculator and the VAT derivations, exact: bills in integer pence (money.ts), rates as decimal
 * text scaled to integer ten-thousandths of a penny, derivations in decimal.js. Every rounding rule here
 * is listed in ROUNDING_RULES (answered in `meta.rounding` and documented with its source in docs/energy.md).
 */
import { decimalOf, divRound, divRoundBig, toPounds } from '../../money.js';

/** Days a year of standing charges: Ofgem annualises the daily standing charge over 365 days. */
export const DAYS_A_YEAR = 365;
/** Rates are held to 4 decimal places of a penny (integer units of 1/10,000 p). */
const RATE_SCALE = 10_000;

/** The rules as `meta.rounding` states them (each with its source in docs/energy.md "Rounding"). */
export const ROUNDING_RULES = {
  energy_cost: 'kWh x unit rate incl. VAT, to the penny, half up',
  standing_cost: '365 x standing charge incl. VAT, to the penny, half up',
  monthly: 'total_annual / 12, to the penny, half up',
} as const;

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

/** Rate texts parsed once (rateUnits) and as numbers for output: what a batch prices its lines with. */
export interface ParsedRates {
  unitUnits: number;
  standingUnits: number;
  unit: number;
  standing: number;
}

const parsedCache = new WeakMap<FuelRates, ParsedRates>();
export function parsed(r: FuelRates): ParsedRates {
  let p = parsedCache.get(r);
  if (!p) {
    p = { unitUnits: rateUnits(r.unit_rate), standingUnits: rateUnits(r.standing_charge), unit: Number(r.unit_rate), standing: Number(r.standing_charge) };
    parsedCache.set(r, p);
  }
  return p;
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
  const p = parsed(rates);
  const energy = energyCostPence(kwh, p.unitUnits);
  const standing = standingCostPence(p.standingUnits);
  const pence = energy + standing;
  return {
    bill: {
      kwh,
      unit_rate: p.unit,
      standing_charge: p.standing,
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
  rates: { electricity?: FuelRates | undefined; gas?: FuelRates | undefined },
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

/**
 * Incl. VAT -> excluding VAT: inc / (1 + vat), to 4 decimal places, halves up; integer arithmetic on
 * ten-thousandths of a penny (`vatRate` a decimal text such as '0.05').
 */
export function excludingVat(inc: string, vatRate: string): string {
  const factor = rateUnits(vatRate) + RATE_SCALE; // (1 + vat) x 10,000
  const units = divRound(rateUnits(inc) * RATE_SCALE, factor, 'half-up');
  return `${Math.floor(units / RATE_SCALE)}.${String(units % RATE_SCALE).padStart(4, '0')}`;
}
