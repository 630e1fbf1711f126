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
  /** Pence per kWh incl. VAT, decimal text as published (2 dp). */
  unit_rate: string;
  /** Pence per day incl. VAT, decimal text as published (2 dp). */
  standing_charge: string;
  source: SourceRef;
}
export interface ShippedPeriod {
  period_id: string;
  start_date: string;
  end_date: string;
  dates_source: SourceRef;
  consumption: { electricity_kwh: number; gas_kwh: number; source: SourceRef } | null;
  bills: Record<'direct_debit' | 'standard_credit' | 'prepayment', ShippedBill | null>;
  rates?: { electricity: ShippedFuelRates; gas: ShippedFuelRates };
}
export interface RegionDef {
  code: string;
  name: string;
  labels: string[];
}
export interface PriceCapData {
  meta: { as_of: string; licence: string; levels_page: string };
  vat: { rate: string; from: string; source: SourceRef };
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
