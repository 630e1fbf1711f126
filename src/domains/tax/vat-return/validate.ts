/**
 * Structural validation of the VAT return body, field by field: the company (VAT number, schemes, partial
 * exemption, fuel scale charges) and each transaction with its per-transaction rules. Every failure is
 * collected in a Collector, none thrown early. Resolution against the period and the schemes is in prepare.ts.
 */
import type { ErrorDetail } from '../../../contract/types.js';
import { nearestName } from '../../../contract/unknown-names.js';
import { MAX_AMOUNT_PENCE, toPence } from '../../../money.js';
import { temporaryVatRates, vatRate } from '../vat-data.js';
import { bandFromEmissions, bandFromEngine, normaliseBand } from './fuel.js';
import {
  ATTRIBUTIONS,
  DE_MINIMIS_TESTS,
  FUEL_TYPES,
  INPUT_ONLY_SUPPLIES,
  OUTPUT_ONLY_SUPPLIES,
  RATES_FOR_SUPPLY,
  SCHEMES,
  SIDE_OF_TYPE,
  SUPPLY_TYPES,
  TRANSACTION_TYPES,
  VAT_RATE_NAMES,
  isDate,
  type Attribution,
  type Company,
  type DeMinimisTest,
  type FuelCharge,
  type FuelType,
  type PartialExemptionConfig,
  type PriorReturns,
  type Scheme,
  type SchemeEntry,
  type Side,
  type SupplyType,
  type Txn,
  type VatRateName,
} from './model.js';

export interface Warning {
  code: string;
  message: string;
  field?: string;
}

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Collector {
  details: ErrorDetail[] = [];
  add(field: string, code: string, message: string): void {
    this.details.push({ field, code, message });
  }
}

/**
 * The fields each object of the document takes (docs/vat-return.md): a field not named here is refused as
 * UNKNOWN_FIELD with the nearest declared name (issue 37: a misspelled `vat_ammount` must not be ignored).
 */
const names = (...n: string[]): ReadonlySet<string> => new Set(n);
export const DOCUMENT_FIELDS = {
  body: names('company', 'period', 'transactions'),
  company: names('vat_registration_number', 'vat_registration_date', 'northern_ireland', 'partially_exempt', 'vat_schemes', 'partial_exemption', 'fuel_scale_charges'),
  period: names('start_date', 'end_date'),
  scheme: names('scheme', 'effective_from', 'effective_to', 'limited_cost_trader', 'first_year', 'flat_rate_category', 'flat_rate_percentage'),
  partialExemption: names('method', 'special_method_recoverable_percentage', 'de_minimis_tests', 'annual_adjustment'),
  annualAdjustment: names('year_months', 'prior_returns'),
  priorReturns: names('taxable_supplies', 'exempt_supplies', 'taxable_input_tax', 'exempt_input_tax', 'residual_input_tax', 'input_tax_recovered'),
  fuel: names('fuel_type', 'vehicle', 'period_months', 'vat_inclusive_charge', 'co2_band', 'co2_emissions', 'co2_emissions_secondary', 'engine_size_cc'),
  transaction: names(
    'id', 'date', 'type', 'net_amount', 'vat_amount', 'gross_amount', 'vat_rate', 'vat_rate_percentage', 'supply_type', 'is_capital_asset',
    'input_tax_reclaimed', 'direction', 'input_tax_attribution', 'payment_date', 'amount_paid', 'original_transaction_date',
    'payment_due_date', 'original_transaction_id', 'scheme_override', 'flat_rate_percentage', 'description',
  ),
} as const;

/**
 * Where a checked field sits: an object's path ('period', 'company.vat_schemes[0]'), or a transaction's
 * index, which stands for `transactions[i]` and is spelt out only when a failure is reported (a valid
 * 10,000-transaction body would otherwise build 10,000 path strings just in case).
 */
export type At = string | number;
const pathOf = (at: At): string => (typeof at === 'number' ? `transactions[${at}]` : at);

/** Every field of `o` (at path `at`, '' for the body) that `allowed` does not name: an UNKNOWN_FIELD detail each. */
export function checkKnownFields(c: Collector, o: Obj, at: At, allowed: ReadonlySet<string>): void {
  for (const k in o) {
    if (allowed.has(k)) continue;
    const near = nearestName(k, allowed);
    const path = pathOf(at);
    const field = path ? `${path}.${k}` : k;
    c.add(field, 'UNKNOWN_FIELD', `Unknown field '${field}'; ${near !== undefined ? `did you mean '${path ? `${path}.` : ''}${near}'?` : `it takes ${[...allowed].map((n) => `'${n}'`).join(', ')}.`}`);
  }
}

/**
 * Pounds (number, at most 2 dp, at most £1bn either way: MAX_AMOUNT_PENCE, which keeps sums of 10,000
 * amounts exact integers) to pence, or undefined when not a valid amount (reported as INVALID_AMOUNT).
 */
function pence(v: unknown): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  const x = v * 100;
  const p = Math.round(x);
  if (Math.abs(p - x) > 1e-6 || Math.abs(p) > MAX_AMOUNT_PENCE) return undefined; // a third decimal place, or out of range
  return toPence(v);
}

/** A journal's `direction`. */
const DIRECTIONS = ['output', 'input'] as const;

/** The allowed values of an enum as a set, made once per list (a hashed lookup instead of a scan per value). */
const enumSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function enumSet(allowed: readonly string[]): ReadonlySet<string> {
  let set = enumSets.get(allowed);
  if (!set) enumSets.set(allowed, (set = new Set(allowed)));
  return set;
}

/*
 * The checks take the field's value, read by name at the call (`checkEnum(c, raw['type'], 'type', …)`: a
 * string-literal key is a named property load, which V8 caches for the body's object shape; `o[key]` in a
 * helper shared by every field is a keyed load that misses its cache on most calls, and a 10,000-transaction
 * return runs the checks 150,000 times, mostly before V8 has optimised them). They take `at`, where the
 * object that holds `key` sits (a path such as 'period', or a transaction's index: `At`), and name the
 * field `${path}.${key}` only when they report it: a valid body builds no field names.
 */
function checkEnum<T extends string>(c: Collector, v: unknown, key: string, at: At, allowed: readonly T[], required: boolean): T | undefined {
  if (v === undefined || v === null || v === '') {
    if (required) c.add(`${pathOf(at)}.${key}`, 'MISSING_FIELD', `'${key}' is required.`);
    return undefined;
  }
  if (typeof v !== 'string' || !enumSet(allowed).has(v)) {
    c.add(`${pathOf(at)}.${key}`, 'INVALID_ENUM_VALUE', `'${key}' must be one of ${allowed.join(', ')}; got ${JSON.stringify(v)}.`);
    return undefined;
  }
  return v as T;
}

export function checkDate(c: Collector, v: unknown, key: string, at: At, required: boolean): string | undefined {
  if (v === undefined || v === null || v === '') {
    if (required) c.add(`${pathOf(at)}.${key}`, 'MISSING_FIELD', `'${key}' is required.`);
    return undefined;
  }
  if (!isDate(v)) {
    c.add(`${pathOf(at)}.${key}`, 'INVALID_DATE', `'${key}' must be a calendar date YYYY-MM-DD; got ${JSON.stringify(v)}.`);
    return undefined;
  }
  return v;
}

function checkAmount(c: Collector, v: unknown, key: string, at: At, required: boolean): number | undefined | null {
  if (v === undefined || v === null || v === '') {
    if (required) c.add(`${pathOf(at)}.${key}`, 'MISSING_FIELD', `'${key}' is required.`);
    return null;
  }
  const p = pence(v);
  if (p === undefined) {
    c.add(`${pathOf(at)}.${key}`, 'INVALID_AMOUNT', `'${key}' must be a number of pounds with at most 2 decimal places, at most £1,000,000,000 either way; got ${JSON.stringify(v)}.`);
    return undefined;
  }
  return p;
}

function checkBool(c: Collector, v: unknown, key: string, at: At, dflt: boolean): boolean {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') {
    c.add(`${pathOf(at)}.${key}`, 'INVALID_FIELD_TYPE', `'${key}' must be true or false.`);
    return dflt;
  }
  return v;
}

function checkPercent(c: Collector, v: unknown, key: string, at: At): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) {
    c.add(`${pathOf(at)}.${key}`, 'INVALID_FIELD_TYPE', `'${key}' must be a percentage between 0 and 100 (14.5 means 14.5%).`);
    return undefined;
  }
  return v;
}

export const fmtGBP = (p: number) => `£${(p / 100).toFixed(2)}`;

// ---------------------------------------------------------------------------------------------

/**
 * The company, checked stage by stage: its identity (VAT number, registration date, Northern Ireland, partial
 * exemption flag), its vat_schemes, its partial exemption configuration and its fuel scale charges.
 */
export function prepareCompany(c: Collector, raw: unknown, warnings: Warning[]): Company {
  const company: Company = {
    northern_ireland: false,
    schemes: [],
    schemes_given: false,
    partially_exempt: false,
    partial_exemption: { method: 'standard', de_minimis_tests: [...DE_MINIMIS_TESTS] },
    fuel: [],
  };
  if (raw === undefined || raw === null) {
    warnings.push({ code: 'NO_COMPANY', message: 'No company given: standard accounting assumed for the whole period.' });
    return company;
  }
  if (!isObj(raw)) {
    c.add('company', 'INVALID_FIELD_TYPE', "'company' must be an object.");
    return company;
  }
  checkKnownFields(c, raw, 'company', DOCUMENT_FIELDS.company);
  checkCompanyIdentity(c, raw, company, warnings);
  checkVatSchemes(c, raw['vat_schemes'], company, warnings);
  checkPartialExemption(c, raw['partial_exemption'], company, warnings);
  checkFuelScaleCharges(c, raw['fuel_scale_charges'], company);
  return company;
}

/** VAT registration number (format warning, XI prefix), registration date, Northern Ireland and partial exemption flags. */
function checkCompanyIdentity(c: Collector, raw: Obj, company: Company, warnings: Warning[]): void {
  const vrn = raw['vat_registration_number'];
  if (vrn !== undefined && vrn !== null) {
    if (typeof vrn !== 'string') c.add('company.vat_registration_number', 'INVALID_FIELD_TYPE', "'vat_registration_number' must be a string.");
    else {
      company.vat_registration_number = vrn;
      if (!/^(GB|XI)?\s?\d{3}\s?\d{4}\s?\d{2}(\s?\d{3})?$/i.test(vrn.trim()))
        warnings.push({ code: 'VRN_FORMAT', field: 'company.vat_registration_number', message: `'${vrn}' does not look like a UK VAT number (9 or 12 digits, optional GB/XI prefix).` });
      if (/^XI/i.test(vrn.trim())) company.northern_ireland = true;
    }
  }
  const regDate = checkDate(c, raw['vat_registration_date'], 'vat_registration_date', 'company', false);
  if (regDate) company.vat_registration_date = regDate;
  company.northern_ireland = checkBool(c, raw['northern_ireland'], 'northern_ireland', 'company', company.northern_ireland);
  company.partially_exempt = checkBool(c, raw['partially_exempt'], 'partially_exempt', 'company', false);
}

/** company.vat_schemes: each entry's scheme, dates and flat-rate fields (entries with a scheme and a start are kept). */
function checkVatSchemes(c: Collector, vs: unknown, company: Company, warnings: Warning[]): void {
  if (vs === undefined || vs === null) return;
  if (!Array.isArray(vs)) {
    c.add('company.vat_schemes', 'INVALID_FIELD_TYPE', "'vat_schemes' must be an array.");
    return;
  }
  company.schemes_given = true;
  vs.forEach((e, j) => {
    const f = `company.vat_schemes[${j}]`;
    if (!isObj(e)) return c.add(f, 'INVALID_FIELD_TYPE', 'A scheme entry must be an object.');
    checkKnownFields(c, e, f, DOCUMENT_FIELDS.scheme);
    const scheme = checkEnum(c, e['scheme'], 'scheme', f, SCHEMES, true);
    const from = checkDate(c, e['effective_from'], 'effective_from', f, true);
    let to: string | null = null;
    if (e['effective_to'] !== undefined && e['effective_to'] !== null) to = checkDate(c, e['effective_to'], 'effective_to', f, false) ?? null;
    if (from && to && to < from) c.add(`${f}.effective_to`, 'INVALID_PERIOD', `effective_to ${to} is before effective_from ${from}.`);
    const entry: SchemeEntry = {
      index: j,
      scheme: scheme ?? 'standard',
      effective_from: from ?? '0000-01-01',
      effective_to: to,
      limited_cost_trader: checkBool(c, e['limited_cost_trader'], 'limited_cost_trader', f, false),
    };
    const fy = e['first_year'];
    if (fy !== undefined && fy !== null) entry.first_year = checkBool(c, e['first_year'], 'first_year', f, false);
    const cat = e['flat_rate_category'];
    if (cat !== undefined && cat !== null) {
      if (typeof cat !== 'string') c.add(`${f}.flat_rate_category`, 'INVALID_FIELD_TYPE', "'flat_rate_category' must be a string.");
      else entry.flat_rate_category = cat;
    }
    const pct = checkPercent(c, e['flat_rate_percentage'], 'flat_rate_percentage', f);
    if (pct !== undefined) entry.flat_rate_percentage = pct;
    if (scheme && scheme !== 'flat_rate' && (entry.flat_rate_category || pct !== undefined || entry.limited_cost_trader))
      warnings.push({ code: 'FLAT_RATE_FIELDS_IGNORED', field: f, message: `Flat-rate fields on a '${scheme}' entry are ignored.` });
    if (scheme && from) company.schemes.push(entry);
  });
}

/** company.partial_exemption (VAT Notice 706): method, special method percentage, de minimis tests, annual adjustment. */
function checkPartialExemption(c: Collector, pe: unknown, company: Company, warnings: Warning[]): void {
  if (pe === undefined || pe === null) return;
  if (!isObj(pe)) {
    c.add('company.partial_exemption', 'INVALID_FIELD_TYPE', "'partial_exemption' must be an object.");
    return;
  }
  const f = 'company.partial_exemption';
  checkKnownFields(c, pe, f, DOCUMENT_FIELDS.partialExemption);
  const cfg: PartialExemptionConfig = company.partial_exemption;
  cfg.method = checkEnum(c, pe['method'], 'method', f, ['standard', 'special'] as const, false) ?? 'standard';
  const sp = checkPercent(c, pe['special_method_recoverable_percentage'], 'special_method_recoverable_percentage', f);
  if (sp !== undefined) cfg.special_method_recoverable_percentage = sp;
  else if (cfg.method === 'special' && pe['special_method_recoverable_percentage'] === undefined)
    c.add(`${f}.special_method_recoverable_percentage`, 'MISSING_FIELD', "A special method needs 'special_method_recoverable_percentage' (the percentage your approved method gives).");
  const tests = pe['de_minimis_tests'];
  if (tests !== undefined && tests !== null) {
    if (!Array.isArray(tests) || tests.some((x) => !(DE_MINIMIS_TESTS as readonly unknown[]).includes(x)))
      c.add(`${f}.de_minimis_tests`, 'INVALID_ENUM_VALUE', `'de_minimis_tests' must be an array of ${DE_MINIMIS_TESTS.join(', ')}.`);
    else cfg.de_minimis_tests = tests as DeMinimisTest[];
  }
  const aa = pe['annual_adjustment'];
  if (aa !== undefined && aa !== null && aa !== false) checkAnnualAdjustment(c, aa, company, cfg);
  if (!company.partially_exempt)
    warnings.push({ code: 'PARTIAL_EXEMPTION_CONFIG_IGNORED', field: f, message: 'partial_exemption is ignored because company.partially_exempt is not true.' });
}

/** company.partial_exemption.annual_adjustment: the year's length and the prior returns' totals. */
function checkAnnualAdjustment(c: Collector, aa: unknown, company: Company, cfg: PartialExemptionConfig): void {
  const f = 'company.partial_exemption';
  if (!company.partially_exempt)
    c.add(`${f}.annual_adjustment`, 'ANNUAL_ADJUSTMENT_WITHOUT_PARTIAL_EXEMPTION', 'An annual adjustment is only made by a partly exempt business: set company.partially_exempt to true or remove annual_adjustment.');
  const a: Obj = isObj(aa) ? aa : {};
  if (!isObj(aa) && aa !== true) c.add(`${f}.annual_adjustment`, 'INVALID_FIELD_TYPE', "'annual_adjustment' must be an object (or true).");
  checkKnownFields(c, a, `${f}.annual_adjustment`, DOCUMENT_FIELDS.annualAdjustment);
  let months = 12;
  if (a['year_months'] !== undefined) {
    const m = a['year_months'];
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 1 || m > 12) c.add(`${f}.annual_adjustment.year_months`, 'INVALID_FIELD_TYPE', "'year_months' must be a whole number of months from 1 to 12.");
    else months = m;
  }
  const prior: PriorReturns = { taxable_supplies: 0, exempt_supplies: 0, taxable_input_tax: 0, exempt_input_tax: 0, residual_input_tax: 0, input_tax_recovered: 0 };
  const pr = a['prior_returns'];
  if (pr !== undefined && pr !== null) {
    if (!isObj(pr)) c.add(`${f}.annual_adjustment.prior_returns`, 'INVALID_FIELD_TYPE', "'prior_returns' must be an object.");
    else {
      checkKnownFields(c, pr, `${f}.annual_adjustment.prior_returns`, DOCUMENT_FIELDS.priorReturns);
      for (const k of Object.keys(prior) as Array<keyof PriorReturns>) {
        const p = checkAmount(c, pr[k], k, `${f}.annual_adjustment.prior_returns`, false);
        if (typeof p === 'number') prior[k] = p;
      }
    }
  }
  cfg.annual_adjustment = { year_months: months, prior_returns: prior };
}

/** company.fuel_scale_charges (VAT Notice 700/64): each car's fuel type, period, given charge and CO2 band. */
function checkFuelScaleCharges(c: Collector, fsc: unknown, company: Company): void {
  if (fsc === undefined || fsc === null) return;
  if (!Array.isArray(fsc)) {
    c.add('company.fuel_scale_charges', 'INVALID_FIELD_TYPE', "'fuel_scale_charges' must be an array.");
    return;
  }
  fsc.forEach((e, j) => {
    const f = `company.fuel_scale_charges[${j}]`;
    if (!isObj(e)) return c.add(f, 'INVALID_FIELD_TYPE', 'A fuel scale charge must be an object.');
    checkKnownFields(c, e, f, DOCUMENT_FIELDS.fuel);
    const ft = checkEnum(c, e['fuel_type'], 'fuel_type', f, FUEL_TYPES, false) ?? ('petrol' as FuelType);
    const fc: FuelCharge = { index: j, fuel_type: ft };
    const vehicle = e['vehicle'];
    if (typeof vehicle === 'string') fc.vehicle = vehicle;
    else if (vehicle !== undefined && vehicle !== null) c.add(`${f}.vehicle`, 'INVALID_FIELD_TYPE', "'vehicle' must be a string.");
    const pm = e['period_months'];
    if (pm !== undefined && pm !== null) {
      if (pm !== 1 && pm !== 3 && pm !== 12) c.add(`${f}.period_months`, 'INVALID_ENUM_VALUE', "'period_months' must be 1, 3 or 12.");
      else fc.period_months = pm;
    }
    const charge = checkAmount(c, e['vat_inclusive_charge'], 'vat_inclusive_charge', f, false);
    if (typeof charge === 'number') fc.vat_inclusive_charge = charge;
    checkFuelBand(c, e, f, fc);
    company.fuel.push(fc);
  });
}

/** A car's CO2 band: explicit, from CO2 figures (the lower of two for bi-fuel), or from engine size. */
function checkFuelBand(c: Collector, e: Obj, f: string, fc: FuelCharge): void {
  const rawBand = e['co2_band'];
  const co2 = e['co2_emissions'];
  const co2b = e['co2_emissions_secondary'];
  const cc = e['engine_size_cc'];
  const badNum = (v: unknown) => v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0);
  // a figure of the wrong type is refused even where another decides the band (never ignored)
  const overridden = (key: string, v: unknown) => {
    if (badNum(v)) c.add(`${f}.${key}`, 'INVALID_FIELD_TYPE', `'${key}' must be a non-negative number.`);
  };
  if (rawBand !== undefined && rawBand !== null) {
    overridden('co2_emissions', co2);
    overridden('co2_emissions_secondary', co2b);
    overridden('engine_size_cc', cc);
    const b = normaliseBand(rawBand);
    if (!b) c.add(`${f}.co2_band`, 'INVALID_CO2_BAND', `CO2 band ${JSON.stringify(rawBand)} is not a band of the fuel scale (120_or_less, 125, 130, ... 220, 225_or_more: multiples of 5).`);
    else fc.band = b;
  } else if (co2 !== undefined && co2 !== null) {
    overridden('engine_size_cc', cc);
    if (badNum(co2)) c.add(`${f}.co2_emissions`, 'INVALID_CO2_BAND', "'co2_emissions' must be a non-negative number of g/km.");
    else if (badNum(co2b)) c.add(`${f}.co2_emissions_secondary`, 'INVALID_CO2_BAND', "'co2_emissions_secondary' must be a non-negative number of g/km.");
    else {
      fc.co2_emissions = typeof co2b === 'number' ? Math.min(co2 as number, co2b) : (co2 as number);
      fc.band = bandFromEmissions(fc.co2_emissions);
    }
  } else if (cc !== undefined && cc !== null) {
    overridden('co2_emissions_secondary', co2b);
    if (badNum(cc) || cc === 0) c.add(`${f}.engine_size_cc`, 'INVALID_CO2_BAND', "'engine_size_cc' must be a positive number of cubic centimetres.");
    else fc.band = bandFromEngine(cc as number);
  } else {
    overridden('co2_emissions_secondary', co2b);
    if (fc.vat_inclusive_charge === undefined && fc.fuel_type !== 'electric')
      c.add(`${f}.co2_band`, 'INVALID_CO2_BAND', "A fuel scale charge needs 'co2_emissions', 'co2_band' or (for cars without a CO2 figure) 'engine_size_cc'.");
  }
}

const rateCache = new Map<VatRateName, Map<string, number[] | null>>();

/** Percentages (e.g. [20]) a rate name may carry on a date; null when the name has no rate then. */
function ratePercentages(name: VatRateName, date: string): number[] | null {
  let byDate = rateCache.get(name);
  if (!byDate) rateCache.set(name, (byDate = new Map()));
  let v = byDate.get(date);
  if (v !== undefined) return v;
  try {
    if (name === 'exempt' || name === 'outside_scope' || name === 'zero') v = [0];
    else if (name === 'hospitality_reduced') {
      const t = temporaryVatRates(date, date);
      v = t.length ? t.map((x) => Math.round(x.rate * 10000) / 100) : null;
    } else v = [Math.round(vatRate(name, date).rate * 10000) / 100];
  } catch {
    v = null;
  }
  if (byDate.size < 50_000) byDate.set(date, v);
  return v;
}

/** Whether `pct` is one of `allowed` (a loop, not `some` with a closure: this runs for every transaction). */
function includesRate(allowed: readonly number[], pct: number): boolean {
  for (let k = 0; k < allowed.length; k++) if (Math.abs(allowed[k]! - pct) < 1e-9) return true;
  return false;
}

export function parseTxn(c: Collector, raw: unknown, i: number): Txn | undefined {
  if (!isObj(raw)) {
    c.add(pathOf(i), 'INVALID_FIELD_TYPE', 'A transaction must be an object.');
    return undefined;
  }
  const before = c.details.length;
  checkKnownFields(c, raw, i, DOCUMENT_FIELDS.transaction);
  let id = raw['id'];
  if (typeof id === 'number' && Number.isFinite(id)) id = String(id);
  if (id === undefined || id === null || id === '') c.add(`transactions[${i}].id`, 'MISSING_FIELD', "'id' is required.");
  else if (typeof id !== 'string') c.add(`transactions[${i}].id`, 'INVALID_FIELD_TYPE', "'id' must be a string.");
  const date = checkDate(c, raw['date'], 'date', i, true);
  const type = checkEnum(c, raw['type'], 'type', i, TRANSACTION_TYPES, true);
  const net = checkAmount(c, raw['net_amount'], 'net_amount', i, true);
  const vat = checkAmount(c, raw['vat_amount'], 'vat_amount', i, true);
  const gross = checkAmount(c, raw['gross_amount'], 'gross_amount', i, false);
  const rate = checkEnum(c, raw['vat_rate'], 'vat_rate', i, VAT_RATE_NAMES, true);
  const supply = checkEnum(c, raw['supply_type'], 'supply_type', i, SUPPLY_TYPES, false) ?? ('domestic' as SupplyType);
  const capital = checkBool(c, raw['is_capital_asset'], 'is_capital_asset', i, false);
  const reclaimed = checkBool(c, raw['input_tax_reclaimed'], 'input_tax_reclaimed', i, false);
  let ratePct: number | undefined;
  const rp = raw['vat_rate_percentage'];
  if (rp !== undefined && rp !== null) {
    if (typeof rp !== 'number' || !Number.isFinite(rp) || rp < 0 || rp > 100) c.add(`transactions[${i}].vat_rate_percentage`, 'INVALID_FIELD_TYPE', "'vat_rate_percentage' must be a number from 0 to 100 (20 means 20%).");
    else ratePct = rp;
  }
  // checked on every transaction (a value of the wrong type is refused, not ignored); it decides the side of a journal only
  const direction = checkEnum(c, raw['direction'], 'direction', i, DIRECTIONS, type === 'journal');
  let side: Side | undefined;
  if (type === 'journal') side = direction;
  else if (type) side = SIDE_OF_TYPE[type];
  const attribution = checkEnum(c, raw['input_tax_attribution'], 'input_tax_attribution', i, ATTRIBUTIONS, false);
  const payment_date = checkDate(c, raw['payment_date'], 'payment_date', i, false);
  const amount_paid = checkAmount(c, raw['amount_paid'], 'amount_paid', i, false);
  const original_transaction_date = checkDate(c, raw['original_transaction_date'], 'original_transaction_date', i, false);
  const payment_due_date = checkDate(c, raw['payment_due_date'], 'payment_due_date', i, false);
  let origId = raw['original_transaction_id'];
  if (typeof origId === 'number' && Number.isFinite(origId)) origId = String(origId);
  else if (origId !== undefined && origId !== null && typeof origId !== 'string') c.add(`transactions[${i}].original_transaction_id`, 'INVALID_FIELD_TYPE', "'original_transaction_id' must be a string (the id of the unpaid sale).");
  let override: Scheme | undefined;
  const ov = raw['scheme_override'];
  if (ov !== undefined && ov !== null && ov !== '') {
    if (typeof ov !== 'string' || !(SCHEMES as readonly string[]).includes(ov))
      c.add(`transactions[${i}].scheme_override`, 'INVALID_SCHEME_OVERRIDE', `'scheme_override' must be one of ${SCHEMES.join(', ')}; got ${JSON.stringify(ov)}.`);
    else override = ov as Scheme;
  }
  const frsPct = checkPercent(c, raw['flat_rate_percentage'], 'flat_rate_percentage', i);
  const description = raw['description'];
  if (description !== undefined && description !== null && typeof description !== 'string') c.add(`transactions[${i}].description`, 'INVALID_FIELD_TYPE', "'description' must be a string.");
  if (c.details.length > before || !date || !type || !rate || !side || typeof net !== 'number' || typeof vat !== 'number' || gross === undefined) {
    return undefined;
  }
  // Every field in the one literal, absent ones undefined: fields added one by one afterwards gave each
  // transaction object a chain of hidden-class transitions and an out-of-object property array.
  const t: Txn = {
    index: i,
    id: id as string,
    date,
    type,
    side,
    net,
    vat,
    gross: gross ?? net + vat,
    vat_rate: rate,
    supply,
    capital,
    input_tax_reclaimed: reclaimed,
    vat_rate_percentage: ratePct,
    attribution: attribution || undefined,
    payment_date: payment_date || undefined,
    amount_paid: typeof amount_paid === 'number' ? amount_paid : undefined,
    original_transaction_id: typeof origId === 'string' && origId !== '' ? origId : undefined,
    original_transaction_date: original_transaction_date || undefined,
    payment_due_date: payment_due_date || undefined,
    scheme_override: override,
    flat_rate_percentage: frsPct,
    description: typeof description === 'string' ? description : undefined,
  };

  // --- per-transaction rules of the spec ---
  if (gross !== null && net + vat !== gross)
    c.add(`transactions[${i}].gross_amount`, 'AMOUNT_MISMATCH', `net_amount + vat_amount (${fmtGBP(net + vat)}) must equal gross_amount (${fmtGBP(gross)}).`);
  if (capital && gross === null)
    c.add(`transactions[${i}].gross_amount`, 'CAPITAL_GOODS_MISSING_VALUE', 'A capital asset needs its VAT-inclusive gross_amount: the flat rate scheme £2,000 capital goods test is made on it.');
  if ((rate === 'exempt' || rate === 'outside_scope') && vat !== 0)
    c.add(`transactions[${i}].vat_amount`, 'EXEMPT_WITH_VAT', `An ${rate === 'exempt' ? 'exempt' : 'outside-the-scope'} transaction carries no VAT; vat_amount is ${fmtGBP(vat)}.`);
  if (!RATES_FOR_SUPPLY[supply].has(rate))
    c.add(`transactions[${i}].vat_rate`, 'INVALID_RATE_SUPPLY_COMBINATION', `vat_rate '${rate}' cannot be used with supply_type '${supply}' (allowed: ${[...RATES_FOR_SUPPLY[supply]].join(', ')}).`);
  if ((side === 'output' && INPUT_ONLY_SUPPLIES.has(supply)) || (side === 'input' && OUTPUT_ONLY_SUPPLIES.has(supply)))
    c.add(`transactions[${i}].supply_type`, 'SUPPLY_TYPE_DIRECTION_MISMATCH', `supply_type '${supply}' is ${side === 'output' ? 'a purchase-side (input)' : 'a sales-side (output)'} supply, but '${type}'${type === 'journal' ? ` with direction '${side}'` : ''} is on the ${side} side.`);
  if (side === 'output' && supply === 'domestic_reverse_charge' && vat !== 0 && type !== 'bad_debt_relief')
    c.add(`transactions[${i}].vat_amount`, 'DOMESTIC_REVERSE_CHARGE_SALE_WITH_VAT', 'Under the domestic reverse charge the customer accounts for the VAT: the supplier charges none, so vat_amount must be 0.');
  if (type === 'credit_note_issued' || type === 'credit_note_received') {
    const k = net > 0 ? 'net_amount' : vat > 0 ? 'vat_amount' : t.gross > 0 ? 'gross_amount' : undefined;
    if (k) c.add(`transactions[${i}].${k}`, 'CREDIT_NOTE_POSITIVE_AMOUNTS', 'A credit note reduces a sale or purchase: its amounts must be negative (or zero).');
  } else if (type === 'sale' || type === 'purchase' || type === 'debit_note_issued' || type === 'debit_note_received') {
    const k = net < 0 ? 'net_amount' : vat < 0 ? 'vat_amount' : t.gross < 0 ? 'gross_amount' : undefined;
    if (k) c.add(`transactions[${i}].${k}`, 'NEGATIVE_AMOUNT_ON_POSITIVE_TYPE', `A ${type} has amounts of zero or more; record a reduction as a credit note.`);
  } else if (type === 'bad_debt_relief' && vat > 0) {
    c.add(`transactions[${i}].vat_amount`, 'BAD_DEBT_RELIEF_POSITIVE_VAT', 'Bad debt relief is entered as a negative vat_amount (the output tax reclaimed on the unpaid debt).');
  }
  if (side === 'output' && attribution)
    c.add(`transactions[${i}].input_tax_attribution`, 'PARTIAL_EXEMPTION_ATTRIBUTION_ON_OUTPUT', `input_tax_attribution applies to input tax only; '${type}' is an output.`);
  const allowed = ratePercentages(rate, date);
  if (allowed === null) c.add(`transactions[${i}].vat_rate`, 'RATE_PERCENTAGE_MISMATCH', `There is no '${rate}' VAT rate in force on ${date}.`);
  else if (ratePct !== undefined && !includesRate(allowed, ratePct))
    c.add(`transactions[${i}].vat_rate_percentage`, 'RATE_PERCENTAGE_MISMATCH', `vat_rate '${rate}' is ${allowed.join(' or ')}% on ${date}, not ${ratePct}%.`);
  return t;
}
