/**
 * Where the energy handlers get their periods and rates: the shipped data (data/energy/price-cap.yaml:
 * periods and GB-average Direct Debit single-rate figures) always, plus the synced levels model
 * (`publicdata sync energy-price-cap`, energy_price_cap.duckdb) when present: every region x fuel x payment
 * method x meter of every period the workbook holds. The shipped path never loads DuckDB.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ApiError } from '../../contract/errors.js';
import type { HandlerContext } from '../../contract/types.js';
import { openDataset, provenanceMeta, query } from '../../mirror/db.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import { ukDate } from '../../uk-time.js';
import { excludingVat } from './calc.js';
import { ENERGY_PRICE_CAP_INFO } from './datasets.js';
import { priceCapData, vatOn, type Fuel, type ShippedFuelRates, type ShippedPeriod, type SourceRef } from './shipped.js';

export const DATASET = ENERGY_PRICE_CAP_INFO;

export interface RateRow {
  period_id: string;
  region_code: string;
  fuel: 'electricity' | 'gas';
  payment_method: string;
  meter: string;
  /** Pence incl. VAT, 2 dp text (as published for shipped rows); null when no page showed it. */
  unit_rate: string | null;
  standing_charge: string | null;
  /** Pence excluding VAT, 4 dp text. */
  unit_rate_ex_vat: string | null;
  standing_charge_ex_vat: string | null;
  /** The VAT rate of the fuel in the period (data/energy/price-cap.yaml `vat`), decimal text. */
  vat_rate: string;
  origin: 'published' | 'levels_model';
  /** What set the bills: the cap, or (October 2022 to June 2023) the Energy Price Guarantee. */
  tariff: 'price_cap' | 'energy_price_guarantee';
  source?: SourceRef;
  standing_charge_source?: SourceRef;
}

export interface PeriodEntry {
  period_id: string;
  start_date: string;
  end_date: string;
  shipped?: ShippedPeriod;
  /** The synced workbook holds this period. */
  synced: boolean;
}

export interface Mirror {
  rates: RateRow[];
  periods: Array<{ period_id: string; start_date: string; end_date: string }>;
  asOf?: string;
}

export interface EnergyState {
  /** Oldest first. */
  periods: PeriodEntry[];
  /** Rate rows by period, region, payment method, meter and fuel (nested maps: the keys are interned enum strings). */
  index: Map<string, Map<string, Map<string, Map<string, Map<string, RateRow>>>>>;
  /** Periods by id. */
  byId: Map<string, PeriodEntry>;
  /** Every rate row: the synced ones, then the shipped GB averages not in the mirror. */
  rates: RateRow[];
  /** The Energy Price Guarantee's GB-average Direct Debit single-rate rows, by period and fuel. */
  epg: Map<string, Map<string, RateRow>>;
  mirror: Mirror | null;
}

let shippedRatesCache: RateRow[] | undefined;
let shippedEpgCache: RateRow[] | undefined;

/** One shipped GB-average Direct Debit single-rate row (excluding VAT derived at the fuel's VAT of the period). */
function shippedRow(p: ShippedPeriod, fuel: Fuel, r: ShippedFuelRates, tariff: RateRow['tariff']): RateRow {
  const vat = vatOn(fuel, p.start_date).rate;
  return {
    period_id: p.period_id,
    region_code: 'gb_average',
    fuel,
    payment_method: 'direct_debit',
    meter: 'single_rate',
    unit_rate: r.unit_rate,
    standing_charge: r.standing_charge,
    unit_rate_ex_vat: r.unit_rate === null ? null : excludingVat(r.unit_rate, vat),
    standing_charge_ex_vat: r.standing_charge === null ? null : excludingVat(r.standing_charge, vat),
    vat_rate: vat,
    origin: 'published',
    tariff,
    source: r.source,
    ...(r.standing_charge_source ? { standing_charge_source: r.standing_charge_source } : {}),
  };
}

/** The shipped GB-average Direct Debit single-rate figures of the cap as rate rows (excluding VAT derived). */
export function shippedRates(): RateRow[] {
  if (shippedRatesCache) return shippedRatesCache;
  const out: RateRow[] = [];
  for (const p of priceCapData().periods) {
    if (!p.rates) continue;
    for (const fuel of ['electricity', 'gas'] as const) out.push(shippedRow(p, fuel, p.rates[fuel], 'price_cap'));
  }
  shippedRatesCache = out;
  return out;
}

/** The Energy Price Guarantee's shipped GB-average Direct Debit single-rate figures (October 2022 to June 2023). */
export function shippedEpgRates(): RateRow[] {
  if (shippedEpgCache) return shippedEpgCache;
  const out: RateRow[] = [];
  for (const p of priceCapData().periods) {
    if (!p.energy_price_guarantee) continue;
    for (const fuel of ['electricity', 'gas'] as const) out.push(shippedRow(p, fuel, p.energy_price_guarantee.rates[fuel], 'energy_price_guarantee'));
  }
  shippedEpgCache = out;
  return out;
}

/** Whether a row states both figures (a shipped row with a null figure never hides a synced one). */
export function complete(r: RateRow): boolean {
  return r.unit_rate !== null && r.standing_charge !== null;
}

const mirrorCache = new WeakMap<DuckDBConnection, Promise<Mirror>>();

async function readMirror(conn: DuckDBConnection): Promise<Mirror> {
  const periods = await query(
    conn,
    'SELECT period_id, CAST(start_date AS VARCHAR) AS start_date, CAST(end_date AS VARCHAR) AS end_date FROM periods ORDER BY start_date',
  );
  const rows = await query(
    conn,
    `SELECT period_id, region_code, fuel, payment_method, meter,
            CAST(unit_rate AS VARCHAR) AS unit_rate, CAST(standing_charge AS VARCHAR) AS standing_charge,
            CAST(unit_rate_ex_vat AS VARCHAR) AS unit_rate_ex_vat, CAST(standing_charge_ex_vat AS VARCHAR) AS standing_charge_ex_vat
       FROM rates ORDER BY period_id, region_code, fuel, payment_method, meter`,
  );
  const { as_of } = await provenanceMeta(DATASET, conn);
  const startOf = new Map(periods.map((p) => [String(p.period_id), String(p.start_date)]));
  return {
    periods: periods.map((p) => ({ period_id: String(p.period_id), start_date: String(p.start_date), end_date: String(p.end_date) })),
    rates: rows.map((r) => ({
      period_id: String(r.period_id),
      region_code: String(r.region_code),
      fuel: String(r.fuel) as RateRow['fuel'],
      payment_method: String(r.payment_method),
      meter: String(r.meter),
      unit_rate: String(r.unit_rate),
      standing_charge: String(r.standing_charge),
      unit_rate_ex_vat: String(r.unit_rate_ex_vat),
      standing_charge_ex_vat: String(r.standing_charge_ex_vat),
      vat_rate: vatOn(String(r.fuel) as Fuel, startOf.get(String(r.period_id)) ?? String(r.period_id) + '-01').rate,
      origin: 'levels_model',
      tariff: 'price_cap',
    })),
    ...(as_of ? { asOf: as_of } : {}),
  };
}

/** The synced levels, read once per open dataset file (a sync that replaces the file gives a new connection). */
async function mirrorLevels(ctx: HandlerContext): Promise<Mirror | null> {
  if (!isDatasetPresent(DATASET, ctx.mirrorDir)) return null;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  let cached = mirrorCache.get(conn);
  if (!cached) {
    cached = readMirror(conn);
    mirrorCache.set(conn, cached);
    cached.catch(() => mirrorCache.delete(conn));
  }
  return cached;
}

const stateCache = new WeakMap<Mirror, EnergyState>();
let shippedState: EnergyState | undefined;

function merge(mirror: Mirror | null): EnergyState {
  const byId = new Map<string, PeriodEntry>();
  for (const p of priceCapData().periods) byId.set(p.period_id, { period_id: p.period_id, start_date: p.start_date, end_date: p.end_date, shipped: p, synced: false });
  for (const p of mirror?.periods ?? []) {
    const e = byId.get(p.period_id);
    // The shipped dates carry their source; a workbook period not shipped takes the workbook's dates.
    if (e) e.synced = true;
    else byId.set(p.period_id, { ...p, synced: true });
  }
  const periods = [...byId.values()].sort((a, b) => (a.start_date < b.start_date ? -1 : 1));
  // The GB average: the figure Ofgem published (shipped) where it states both figures; otherwise the synced
  // model's `GB average` row (origin levels_model); a shipped row with a null figure only where the model has none.
  const key = (r: RateRow) => `${r.period_id}|${r.region_code}|${r.fuel}|${r.payment_method}|${r.meter}`;
  const shippedFull = new Set(shippedRates().filter(complete).map(key));
  const rates = (mirror?.rates ?? []).filter((r) => !shippedFull.has(key(r)));
  const have = new Set(rates.map(key));
  for (const r of shippedRates()) if (!have.has(key(r))) rates.push(r);
  const index: EnergyState['index'] = new Map();
  const level = <V>(m: Map<string, V>, k: string, make: () => V): V => {
    let v = m.get(k);
    if (v === undefined) m.set(k, (v = make()));
    return v;
  };
  for (const r of rates) {
    const byMeter = level(level(level(index, r.period_id, () => new Map()), r.region_code, () => new Map()), r.payment_method, () => new Map());
    level(byMeter, r.meter, () => new Map<string, RateRow>()).set(r.fuel, r);
  }
  const epg: EnergyState['epg'] = new Map();
  for (const r of shippedEpgRates()) level(epg, r.period_id, () => new Map<string, RateRow>()).set(r.fuel, r);
  return { periods, rates, index, epg, byId: new Map(periods.map((p) => [p.period_id, p])), mirror };
}

/** The rate row of one period, region, payment method, meter and fuel, if loaded. */
export function findRate(s: EnergyState, period: string, region: string, payment: string, meter: string, fuel: string): RateRow | undefined {
  return s.index.get(period)?.get(region)?.get(payment)?.get(meter)?.get(fuel);
}

/** Shipped data only (the calculator's fast path never needs more when the dataset is not synced). */
export function shippedOnly(): EnergyState {
  shippedState ??= merge(null);
  return shippedState;
}

export async function loadState(ctx: HandlerContext): Promise<EnergyState> {
  const mirror = await mirrorLevels(ctx);
  if (!mirror) return shippedOnly();
  let s = stateCache.get(mirror);
  if (!s) {
    s = merge(mirror);
    stateCache.set(mirror, s);
  }
  return s;
}

// ---- Period resolution ----

/** The first day of the first cap period (1 January 2019): earlier dates are invalid, never "not loaded". */
export function capStart(): string {
  return priceCapData().periods[0]!.start_date;
}

/** The UK civil date of an instant, YYYY-MM-DD: cap periods start at midnight UK time. */
export function ukToday(now: Date): string {
  return ukDate(now);
}

/**
 * The check that needs the shipped file: a date before the first cap period. Run by every handler before
 * the mirror is opened. (`period` with `date` is refused by the parameter specs' `excludes`, routes.ts.)
 */
export function checkPeriodArgs(date: unknown): void {
  if (typeof date === 'string' && date < capStart())
    throw new ApiError(400, 'invalid_parameter', `Invalid parameter 'date': '${date}' is before the first cap period (the price cap began on ${capStart()}).`);
}

export interface Resolved {
  period: PeriodEntry;
  /** Set when `current` had to fall back to the newest loaded period (none loaded covers today). */
  note?: string;
}

function loadedList(s: EnergyState): string {
  return s.periods.map((p) => p.period_id).join(', ');
}

/** `{ period }` of a period named by id or date, made once per period (read only by the handlers). */
const resolvedCache = new WeakMap<PeriodEntry, Resolved>();
function resolvedOf(p: PeriodEntry): Resolved {
  let r = resolvedCache.get(p);
  if (!r) resolvedCache.set(p, (r = Object.freeze({ period: p })));
  return r;
}

/** The period a request names (`period` YYYY-MM or current, or `date`), or ApiError 404. */
export function resolvePeriod(s: EnergyState, period: string | undefined, date: string | undefined, clock: { now(): Date }): Resolved {
  if (date !== undefined) {
    const p = s.periods.find((x) => x.start_date <= date && date <= x.end_date);
    if (!p) throw new ApiError(404, 'not_found', `No cap period covering ${date} is loaded. Loaded periods: ${loadedList(s)}.`);
    return resolvedOf(p);
  }
  if (period !== undefined) {
    // A loaded id first (ids are YYYY-MM, never 'current'): a batch names periods on most of its lines.
    const p = s.byId.get(period);
    if (p) return resolvedOf(p);
    if (!/^current$/i.test(period)) throw new ApiError(404, 'not_found', `Cap period '${period}' is not loaded. Loaded periods: ${loadedList(s)}.`);
  }
  const today = ukToday(clock.now());
  const inForce = s.periods.find((x) => x.start_date <= today && today <= x.end_date);
  if (inForce) {
    const note = nextPeriodNote(s, inForce, today);
    return note ? { period: inForce, note } : resolvedOf(inForce);
  }
  const started = s.periods.filter((x) => x.start_date <= today);
  const newest = started[started.length - 1];
  if (!newest) throw new ApiError(404, 'not_found', `No cap period has started by ${today}.`);
  return {
    period: newest,
    note:
      `No loaded cap period covers today (${today}): 'current' answers with the newest loaded period, ${newest.period_id} ` +
      `(${newest.start_date} to ${newest.end_date}). Run 'publicdata sync energy-price-cap' for newer levels.`,
  };
}

/** The day after a date (YYYY-MM-DD). */
function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * `current`'s note when the next period has probably been announced (Ofgem announces a level about five
 * weeks before it starts: data/energy/price-cap.yaml `announcement`) but is not loaded: it names the sync
 * that brings it. Nothing about the next period is guessed.
 */
function nextPeriodNote(s: EnergyState, p: PeriodEntry, today: string): string | undefined {
  const next = dayAfter(p.end_date);
  if (s.periods.some((x) => x.start_date === next)) return undefined;
  const days = Math.round((Date.parse(`${next}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (days > priceCapData().announcement.days_before_start) return undefined;
  return (
    `The cap period from ${next} is not loaded: Ofgem announces a level about ${priceCapData().announcement.days_before_start} days before it starts, ` +
    `so it is probably published. Run 'publicdata sync energy-price-cap' to load it from Ofgem's levels model ('publicdata sync --check energy-price-cap' says whether a newer model is out).`
  );
}
