/**
 * The bill calculator and the VAT derivations, exact: bills in integer pence (money.ts), rates as decimal
 * text scaled to integer ten-thousandths of a penny, derivations in decimal.js. Every rounding rule here
 * is listed in ROUNDING_RULES (answered in `meta.rounding` and documented with its source in docs/energy.md).
 */
import { JSON_TEXT, penceJson, type JsonText } from '../../contract/json-text.js';
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

/**
 * kWh x rate, in whole pence, halves up. kWh is a JSON number (>= 0), taken at its exact decimal value
 * (its shortest text, as JSON wrote it): integer arithmetic while the product stays a safe integer,
 * BigInt beyond.
 */
export function energyCostPence(kwh: number, rate: number): number {
  if (Number.isInteger(kwh)) {
    const p = kwh * rate;
    if (Number.isSafeInteger(p)) return divRound(p, RATE_SCALE, 'half-up');
  } else {
    // 1000.5 -> 10005 / 10^1: the digits of its text, no regex or BigInt for the common case
    const t = String(kwh);
    const dot = t.indexOf('.');
    if (dot > 0 && t.indexOf('e') < 0) {
      const scale = t.length - dot - 1;
      const units = Number(t.slice(0, dot) + t.slice(dot + 1));
      const p = units * rate;
      if (scale <= 8 && Number.isSafeInteger(units) && Number.isSafeInteger(p)) return divRound(p, POW10[scale]! * RATE_SCALE, 'half-up');
    }
  }
  const { units, scale } = decimalOf(kwh);
  return Number(divRoundBig(units * BigInt(rate), 10n ** BigInt(scale) * BigInt(RATE_SCALE), 'half-up'));
}
const POW10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

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

/**
 * Rate texts parsed once (rateUnits), as numbers for output and as their JSON text, with the year's
 * standing cost (the same for every consumption): what a batch prices its lines with.
 */
export interface ParsedRates {
  unitUnits: number;
  standingUnits: number;
  unit: number;
  standing: number;
  /** 365 x the standing charge, whole pence (standingCostPence). */
  standingPence: number;
  /** `{"kwh":` is written before the kWh, then this: `,"unit_rate":…,"standing_charge":…,"energy_cost":`. */
  json: string;
}

const parsedCache = new WeakMap<FuelRates, ParsedRates>();
export function parsed(r: FuelRates): ParsedRates {
  let p = parsedCache.get(r);
  if (!p) {
    const unit = Number(r.unit_rate);
    const standing = Number(r.standing_charge);
    const standingUnits = rateUnits(r.standing_charge);
    p = {
      unitUnits: rateUnits(r.unit_rate),
      standingUnits,
      unit,
      standing,
      standingPence: standingCostPence(standingUnits),
      json: `,"unit_rate":${JSON.stringify(unit)},"standing_charge":${JSON.stringify(standing)},"energy_cost":`,
    };
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

/** One fuel's bill from its energy cost in pence; money in pounds (from integer pence), rates in pence as published. */
function fuelBill(kwh: number, p: ParsedRates, energy: number): FuelBill {
  return {
    kwh,
    unit_rate: p.unit,
    standing_charge: p.standing,
    energy_cost: toPounds(energy),
    standing_cost: toPounds(p.standingPence),
    total: toPounds(energy + p.standingPence),
  };
}

/** A fuel's JSON from its pence: what JSON.stringify writes for fuelBill's object. */
function fuelJson(kwh: number, p: ParsedRates, energy: number): string {
  // (a validated kWh is finite: String writes it as JSON.stringify does)
  return `{"kwh":${Number.isFinite(kwh) ? String(kwh) : 'null'}${p.json}${penceJson(energy)},"standing_cost":${penceJson(p.standingPence)},"total":${penceJson(energy + p.standingPence)}}`;
}

/** Who the bill is for: the answer's first fields, as the handler resolved them. */
export interface BillHead {
  period_id: string;
  region: Readonly<{ code: string; name: string }>;
  payment_method: string;
  meter: string;
}

/**
 * The JSON text of a head's four fields, `{"period_id":…,"meter":…` without the closing brace, kept for frozen
 * heads (the handler shares one per period, region, payment method and meter: a batch repeats a handful).
 */
const headJson = new WeakMap<BillHead, string>();
function headText(h: BillHead): string {
  let j = headJson.get(h);
  if (j === undefined) {
    j = JSON.stringify({ period_id: h.period_id, region: h.region, payment_method: h.payment_method, meter: h.meter }).slice(0, -1);
    if (Object.isFrozen(h) && Object.isFrozen(h.region)) headJson.set(h, j);
  }
  return j;
}

/**
 * The calculator's answer (`data`): own fields exactly as the route answers them, in this order, plus its
 * integer pence, kept private (invisible to JSON.stringify and deep equality), from which [JSON_TEXT]
 * writes the same bytes JSON.stringify would, without turning the pounds figures back into text.
 * Read only once made (the handler returns it; nothing downstream writes to an answer).
 */
/** The calculator's `data` as the route answers it (the bill table renders it: render.ts). */
export interface BillData {
  period_id: string;
  region: Readonly<{ code: string; name: string }>;
  payment_method: string;
  meter: string;
  electricity: FuelBill | null;
  gas: FuelBill | null;
  total_annual: number;
  monthly: number;
}

export class BillAnswer implements BillData, JsonText {
  period_id: string;
  region: Readonly<{ code: string; name: string }>;
  payment_method: string;
  meter: string;
  electricity: FuelBill | null;
  gas: FuelBill | null;
  total_annual: number;
  monthly: number;
  readonly #head: BillHead;
  readonly #e: ParsedRates | undefined;
  readonly #eEnergy: number;
  readonly #g: ParsedRates | undefined;
  readonly #gEnergy: number;
  readonly #total: number;
  readonly #monthly: number;

  constructor(head: BillHead, electricityKwh: number | undefined, e: ParsedRates | undefined, gasKwh: number | undefined, g: ParsedRates | undefined) {
    this.period_id = head.period_id;
    this.region = head.region;
    this.payment_method = head.payment_method;
    this.meter = head.meter;
    let total = 0;
    let eEnergy = 0;
    let gEnergy = 0;
    if (electricityKwh !== undefined) {
      if (!e) throw new Error('electricity rates missing');
      eEnergy = energyCostPence(electricityKwh, e.unitUnits);
      total += eEnergy + e.standingPence;
      this.electricity = fuelBill(electricityKwh, e, eEnergy);
    } else this.electricity = null;
    if (gasKwh !== undefined) {
      if (!g) throw new Error('gas rates missing');
      gEnergy = energyCostPence(gasKwh, g.unitUnits);
      total += gEnergy + g.standingPence;
      this.gas = fuelBill(gasKwh, g, gEnergy);
    } else this.gas = null;
    const monthly = divRound(total, 12, 'half-up');
    this.total_annual = toPounds(total);
    this.monthly = toPounds(monthly);
    this.#head = head;
    this.#e = electricityKwh === undefined ? undefined : e;
    this.#eEnergy = eEnergy;
    this.#g = gasKwh === undefined ? undefined : g;
    this.#gEnergy = gEnergy;
    this.#total = total;
    this.#monthly = monthly;
  }

  /** The annual total in whole pence. */
  get totalPence(): number {
    return this.#total;
  }

  [JSON_TEXT](): string {
    const el = this.#e ? fuelJson(this.electricity!.kwh, this.#e, this.#eEnergy) : 'null';
    const gas = this.#g ? fuelJson(this.gas!.kwh, this.#g, this.#gEnergy) : 'null';
    return (
      `${headText(this.#head)},"electricity":${el},"gas":${gas},"total_annual":${penceJson(this.#total)},"monthly":${penceJson(this.#monthly)}}`
    );
  }
}

export interface BillTotals {
  electricity: FuelBill | null;
  gas: FuelBill | null;
  total_annual: number;
  monthly: number;
  /** The annual total in pence (tests, comparisons). */
  total_pence: number;
}

const NO_HEAD: BillHead = { period_id: '', region: { code: '', name: '' }, payment_method: '', meter: '' };

/** The bill of a consumption at given rates (the calculator's arithmetic, as BillAnswer does it). */
export function bill(
  electricityKwh: number | undefined,
  gasKwh: number | undefined,
  rates: { electricity?: FuelRates | undefined; gas?: FuelRates | undefined },
): BillTotals {
  const e = rates.electricity && parsed(rates.electricity);
  const g = rates.gas && parsed(rates.gas);
  const a = new BillAnswer(NO_HEAD, electricityKwh, e, gasKwh, g);
  return { electricity: a.electricity, gas: a.gas, total_annual: a.total_annual, monthly: a.monthly, total_pence: a.totalPence };
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
