/**
 * VAT return engine: enumerations of the v1 contract, the request after validation (amounts in integer
 * pence, dates as YYYY-MM-DD strings, which compare correctly as strings), and date helpers.
 */
import { isValidDate } from '../../../contract/validate.js';

export const SCHEMES = ['standard', 'flat_rate', 'cash_accounting', 'annual_accounting'] as const;
export type Scheme = (typeof SCHEMES)[number];

export const TRANSACTION_TYPES = [
  'sale',
  'purchase',
  'credit_note_issued',
  'credit_note_received',
  'debit_note_issued',
  'debit_note_received',
  'bad_debt_relief',
  'journal',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const SUPPLY_TYPES = [
  'domestic',
  'domestic_reverse_charge',
  'ec_supply_goods',
  'ec_supply_services',
  'ec_acquisition_goods',
  'ec_acquisition_services',
  'export_outside_ec',
  'import_outside_ec',
  'import_postponed_vat',
  'outside_scope',
] as const;
export type SupplyType = (typeof SUPPLY_TYPES)[number];

/** `vat_rate` names: the three of GET /v1/tax/vat/rates, the 2020-22 temporary hospitality rate, and two non-rates. */
export const VAT_RATE_NAMES = ['standard', 'reduced', 'zero', 'hospitality_reduced', 'exempt', 'outside_scope'] as const;
export type VatRateName = (typeof VAT_RATE_NAMES)[number];

export const ATTRIBUTIONS = ['taxable', 'exempt', 'residual'] as const;
export type Attribution = (typeof ATTRIBUTIONS)[number];

export const FUEL_TYPES = ['petrol', 'diesel', 'hybrid', 'bi_fuel', 'electric', 'other'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];

export const DE_MINIMIS_TESTS = ['simplified_test_1', 'simplified_test_2', 'full_test'] as const;
export type DeMinimisTest = (typeof DE_MINIMIS_TESTS)[number];

export type Side = 'output' | 'input';

/** Which side of the return a transaction type sits on (journals carry their own `direction`). */
export const SIDE_OF_TYPE: Record<Exclude<TransactionType, 'journal'>, Side> = {
  sale: 'output',
  credit_note_issued: 'output',
  debit_note_issued: 'output',
  bad_debt_relief: 'output',
  purchase: 'input',
  credit_note_received: 'input',
  debit_note_received: 'input',
};

/** Supply types that only make sense for sales (outputs) or only for purchases (inputs). */
export const OUTPUT_ONLY_SUPPLIES: ReadonlySet<SupplyType> = new Set(['ec_supply_goods', 'ec_supply_services', 'export_outside_ec']);
export const INPUT_ONLY_SUPPLIES: ReadonlySet<SupplyType> = new Set([
  'ec_acquisition_goods',
  'ec_acquisition_services',
  'import_outside_ec',
  'import_postponed_vat',
]);

/** The `vat_rate` values allowed with each supply type (INVALID_RATE_SUPPLY_COMBINATION otherwise). */
export const RATES_FOR_SUPPLY: Record<SupplyType, ReadonlySet<VatRateName>> = {
  domestic: new Set(['standard', 'reduced', 'zero', 'hospitality_reduced', 'exempt']),
  domestic_reverse_charge: new Set(['standard', 'reduced']),
  ec_supply_goods: new Set(['zero']),
  ec_supply_services: new Set(['zero', 'outside_scope']),
  ec_acquisition_goods: new Set(['standard', 'reduced', 'zero']),
  ec_acquisition_services: new Set(['standard', 'reduced', 'zero', 'exempt']),
  export_outside_ec: new Set(['zero', 'outside_scope']),
  import_outside_ec: new Set(['standard', 'reduced', 'zero', 'exempt']),
  import_postponed_vat: new Set(['standard', 'reduced', 'zero']),
  outside_scope: new Set(['outside_scope', 'exempt']),
};

export interface SchemeEntry {
  index: number;
  scheme: Scheme;
  effective_from: string;
  effective_to: string | null;
  flat_rate_category?: string;
  flat_rate_percentage?: number; // percent, e.g. 14.5
  limited_cost_trader: boolean;
  /** First-year reduction: true/false forces it; undefined derives it from company.vat_registration_date. */
  first_year?: boolean;
}

export interface FuelCharge {
  index: number;
  vehicle?: string;
  fuel_type: FuelType;
  band?: string; // '120_or_less' | '125' .. | '225_or_more'
  co2_emissions?: number;
  period_months?: number;
  vat_inclusive_charge?: number; // pence
}

export interface PriorReturns {
  taxable_supplies: number;
  exempt_supplies: number;
  taxable_input_tax: number;
  exempt_input_tax: number;
  residual_input_tax: number;
  input_tax_recovered: number;
}

export interface PartialExemptionConfig {
  method: 'standard' | 'special';
  special_method_recoverable_percentage?: number;
  de_minimis_tests: DeMinimisTest[];
  annual_adjustment?: { year_months: number; prior_returns: PriorReturns };
}

export interface Company {
  vat_registration_number?: string;
  vat_registration_date?: string;
  northern_ireland: boolean;
  schemes: SchemeEntry[];
  schemes_given: boolean;
  partially_exempt: boolean;
  partial_exemption: PartialExemptionConfig;
  fuel: FuelCharge[];
}

export interface Txn {
  index: number;
  id: string;
  date: string;
  type: TransactionType;
  side: Side;
  net: number; // pence
  vat: number; // pence
  gross: number; // pence
  vat_rate: VatRateName;
  vat_rate_percentage?: number;
  supply: SupplyType;
  capital: boolean;
  /** Capital asset sales under the flat rate scheme: the input tax on the asset was reclaimed. */
  input_tax_reclaimed: boolean;
  attribution?: Attribution;
  payment_date?: string;
  amount_paid?: number; // pence
  original_transaction_id?: string;
  original_transaction_date?: string;
  payment_due_date?: string;
  scheme_override?: Scheme;
  flat_rate_percentage?: number;
  description?: string;
}

export interface Request {
  company: Company;
  period: { start_date: string; end_date: string };
  transactions: Txn[];
}

// ---------- dates (UTC calendar arithmetic on YYYY-MM-DD strings) ----------

const validDates = new Map<string, boolean>();

/**
 * A calendar date YYYY-MM-DD (isValidDate of src/contract/validate.ts, the rule for every route), memoised
 * because a 10,000-transaction body repeats a few hundred dates. addMonths/daysBetween below have twins in
 * src/domains/calendar/holidays.ts (owned by calendar); not merged here.
 */
export function isDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  let ok = validDates.get(s);
  if (ok === undefined) {
    ok = isValidDate(s);
    if (validDates.size < 100_000) validDates.set(s, ok);
  }
  return ok;
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function fmt(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Add calendar months; a day past the end of the target month is clamped (31 Aug + 6 months = 28/29 Feb). */
export function addMonths(date: string, n: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  const idx = y * 12 + (m - 1) + n;
  const ny = Math.floor(idx / 12);
  const nm = (idx % 12) + 1;
  return fmt(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

export function addDays(date: string, n: number): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

export function daysBetween(a: string, b: string): number {
  return (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;
}

/**
 * Length of [start, end] in months: whole when end + 1 day is exactly start + k months, otherwise
 * whole months plus the remaining days over 30 (rounded to 2 dp) -- used for monthly averages.
 */
export function periodMonths(start: string, end: string): { months: number; whole: boolean } {
  const next = addDays(end, 1);
  let k = 0;
  while (k < 1200 && addMonths(start, k + 1) <= next) k++;
  const rest = daysBetween(addMonths(start, k), next);
  if (rest === 0) return { months: k, whole: true };
  return { months: Math.round((k + rest / 30) * 100) / 100, whole: false };
}
