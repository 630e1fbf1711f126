/**
 * The shipped price-cap reference data (data/energy/price-cap.yaml, compiled to data/build/energy/price-cap.json):
 * cap periods with typical consumption, typical bills by payment method and the GB-average Direct Debit
 * single-rate rates as Ofgem published them (incl. VAT), each value with its source. No DuckDB here.
 */
import { loadData } from '../../data.js';

export interface SourceRef {
  url: string;
  title: string;
}
export interface ShippedBill {
  /** Pounds per year, decimal text as published. */
  pounds: string;
  source: SourceRef;
}
export interface ShippedFuelRates {
  /** Pence per kWh incl. VAT, decimal text as published (2 dp mostly); null when no page showed it. */
  unit_rate: string | null;
  /** Pence per day incl. VAT, decimal text as published; null when no page showed it. */
  standing_charge: string | null;
  source: SourceRef;
  /** The standing charge's source when it is not `source`. */
  standing_charge_source?: SourceRef;
}
export type Fuel = 'electricity' | 'gas';
export interface ShippedEpg {
  /** The typical bill households paid under the Energy Price Guarantee (pounds a year). */
  typical_bill: ShippedBill;
  rates: Record<Fuel, ShippedFuelRates>;
}
export interface VatEntry {
  fuel: Fuel;
  /** Decimal text, e.g. '0.05'. */
  rate: string;
  from: string;
  /** Inclusive; null open-ended. */
  to: string | null;
  source: SourceRef;
}
export interface ShippedPeriod {
  period_id: string;
  start_date: string;
  end_date: string;
  dates_source: SourceRef;
  consumption: { electricity_kwh: number; gas_kwh: number; electricity_multi_rate_kwh?: number; source: SourceRef } | null;
  bills: Record<'direct_debit' | 'standard_credit' | 'prepayment', ShippedBill | null>;
  /** The cap's GB-average Direct Debit single-rate figures. */
  rates?: Record<Fuel, ShippedFuelRates>;
  /** October 2022 to June 2023: what households paid under the government's guarantee. */
  energy_price_guarantee?: ShippedEpg;
  /** Which set the bills; absent: the cap. */
  applied?: 'price_cap' | 'energy_price_guarantee';
  /** What a null figure or a conflicting source means for this period. */
  note?: string;
}
export interface RegionDef {
  code: string;
  name: string;
  labels: string[];
}
export interface PriceCapData {
  meta: { as_of: string; licence: string; levels_page: string };
  vat: VatEntry[];
  announcement: { days_before_start: number; source: SourceRef };
  regions: RegionDef[];
  gb_average: RegionDef;
  periods: ShippedPeriod[];
}

export function priceCapData(): PriceCapData {
  return loadData<PriceCapData>('energy/price-cap');
}

/** The 14 regions then the GB average, as /regions lists them. */
export function allRegions(): RegionDef[] {
  const d = priceCapData();
  return [...d.regions, d.gb_average];
}

/** The shipped periods, oldest first (as in the file). */
export function shippedPeriods(): readonly ShippedPeriod[] {
  return priceCapData().periods;
}

/** The VAT entry in force for a fuel on a date (YYYY-MM-DD); throws when the data has none (a gap is a data defect). */
export function vatOn(fuel: Fuel, date: string): VatEntry {
  const v = priceCapData().vat.find((x) => x.fuel === fuel && x.from <= date && (x.to === null || date <= x.to));
  if (!v) throw new Error(`data/energy/price-cap.yaml: no VAT rate for ${fuel} on ${date}`);
  return v;
}
