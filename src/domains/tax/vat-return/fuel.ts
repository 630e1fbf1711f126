/**
 * VAT road fuel scale charges (VAT Notice 700/64) from data/tax/vat_fuel_scale.yaml: the CO2 band of a car,
 * the table in force for a prescribed accounting period, and the VAT-inclusive charge for 1, 3 or 12 months.
 */
import { loadData } from '../../../data.js';

interface FuelTable {
  valid_from: string;
  complete: boolean;
  incomplete?: string;
  source: string[];
  charges: Record<string, Record<string, number>>;
}

interface FuelData {
  bands: string[];
  rules: { engine_size_bands: Array<{ max_cc: number | null; band: string }>; source: string[] };
  tables: FuelTable[];
}

function fuelData(): FuelData {
  return loadData<FuelData>('tax/vat_fuel_scale');
}

/** Normalise a band as typed by a user (130, '130', '120_or_less', 'under_120', '225+') or undefined if it is no band. */
export function normaliseBand(v: unknown): string | undefined {
  const bands = fuelData().bands;
  if (typeof v === 'number' && Number.isInteger(v)) v = String(v);
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if (bands.includes(s)) return s;
  if (s === '120' || s === '120_or_less' || s === '120_or_under') return '120_or_less';
  if (s === '225' || s === '225+' || s === '225_or_more' || s === '225_or_above') return '225_or_more';
  return undefined;
}

/** The band of a CO2 emissions figure (g/km): rounded down to a multiple of 5, clamped to the end bands. */
export function bandFromEmissions(co2: number): string {
  const r = Math.floor(co2 / 5) * 5;
  if (r <= 120) return '120_or_less';
  if (r >= 225) return '225_or_more';
  return String(r);
}

/** The band of a car too old to have a CO2 figure, from its cylinder capacity. */
export function bandFromEngine(cc: number): string {
  for (const b of fuelData().rules.engine_size_bands) if (b.max_cc === null || cc <= b.max_cc) return b.band;
  return '225_or_more';
}

/** The table for a prescribed accounting period beginning on `periodStart`, or undefined before the first. */
function fuelTableFor(periodStart: string): FuelTable | undefined {
  let best: FuelTable | undefined;
  for (const t of fuelData().tables) if (t.valid_from <= periodStart && (!best || t.valid_from > best.valid_from)) best = t;
  return best;
}

export type FuelLookup =
  | { ok: true; charge_pounds: number; table_valid_from: string; source: string[] }
  | { ok: false; reason: string };

/** The VAT-inclusive charge (whole pounds) for a band, period length and period start. */
export function fuelCharge(band: string, months: 1 | 3 | 12, periodStart: string): FuelLookup {
  const t = fuelTableFor(periodStart);
  if (!t) return { ok: false, reason: `no fuel scale charge table is shipped for periods beginning on ${periodStart}` };
  const c = t.charges[String(months)]?.[band];
  if (c === undefined) {
    return {
      ok: false,
      reason: `the ${months}-month charge for CO2 band ${band} in the table from ${t.valid_from} is not in the shipped data${t.incomplete ? ` (${t.incomplete})` : ''}; pass vat_inclusive_charge`,
    };
  }
  return { ok: true, charge_pounds: c, table_valid_from: t.valid_from, source: t.source };
}
