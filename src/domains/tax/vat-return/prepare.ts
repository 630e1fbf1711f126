/**
 * Resolution and preparation of the VAT return body: the period, the transactions list (limit, duplicate ids),
 * scheme overlaps and gaps, and each transaction resolved to its scheme entry, accounting date and flat-rate
 * percentage, plus bad debt relief and fuel scale charges. Field-level validation is in validate.ts. The engine
 * (engine.ts) only ever sees a body that passed here.
 *
 * Detail codes: the 25 of the spec plus the structural ones documented in docs/tax-vat-return.md
 * (INVALID_BODY, MISSING_FIELD, INVALID_FIELD_TYPE, INVALID_ENUM_VALUE, INVALID_DATE, INVALID_AMOUNT, INVALID_PERIOD).
 */
import type { ErrorDetail } from '../../../contract/types.js';
import { mulDiv } from '../../../money.js';
import { LIMITED_COST_TRADER_CODE, firstYear as firstYearPercentage, flatRateCategory, inRange } from '../vat-data.js';
import { fuelCharge } from './fuel.js';
import {
  addDays,
  addMonths,
  periodMonths,
  type Company,
  type FuelCharge,
  type Scheme,
  type SchemeEntry,
  type SupplyType,
  type Txn,
} from './model.js';
import { Collector, DOCUMENT_FIELDS, checkDate, checkKnownFields, fmtGBP, isObj, parseTxn, prepareCompany, type Warning } from './validate.js';

export const MAX_TRANSACTIONS = 10_000;
const MAX_PERIOD_MONTHS = 12;
/** Capital goods bought under the flat rate scheme: input tax is reclaimable outside the scheme above this (VAT-inclusive, pence). */
export const FRS_CAPITAL_GOODS_THRESHOLD = 200_000;

/** One transaction after resolution. */
export interface Resolved {
  t: Txn;
  entry: SchemeEntry;
  scheme: Scheme;
  /** The date that puts the transaction in this return (payment date under cash accounting). */
  accounting_date: string;
  /** false: excluded from this return (reason in `excluded`). */
  included: boolean;
  excluded?: string;
  /** Pence counted in this return (part payments under cash accounting scale them). */
  net: number;
  vat: number;
  gross: number;
  /** Flat-rate percentage (percent) for flat_rate transactions in flat-rate turnover or bad debt relief. */
  frs_percentage?: number;
}

export interface Prepared {
  company: Company;
  period: { start_date: string; end_date: string; months: number; whole_months: boolean };
  transactions: Resolved[];
  warnings: Warning[];
  /** Synthetic scheme entries (no vat_schemes, or overrides to standard outside any standard entry). */
  synthetic: SchemeEntry[];
  /** Fuel scale charges resolved to a VAT-inclusive charge in pence. */
  fuel: Array<FuelCharge & { band?: string; charge: number; table_valid_from?: string; months_basis: string }>;
}

const frsCache = new Map<string, { percentage: number; first_year_percentage: number } | null>();
function frsCategory(code: string, date: string) {
  const key = `${code}|${date}`;
  let v = frsCache.get(key);
  if (v === undefined) {
    v = flatRateCategory(code, date) ?? null;
    if (frsCache.size < 50_000) frsCache.set(key, v);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------

/** Whether a scheme entry is in force on `date`. */
const inForceOn = (s: SchemeEntry, date: string) => inRange(date, s.effective_from, s.effective_to);

function schemeAt(schemes: readonly SchemeEntry[], date: string): SchemeEntry | undefined {
  // a loop, not `find` with a closure: this runs for every transaction
  for (let k = 0; k < schemes.length; k++) if (inForceOn(schemes[k]!, date)) return schemes[k];
  return undefined;
}

const CASH_ELIGIBLE: ReadonlySet<SupplyType> = new Set(['domestic', 'ec_supply_goods', 'ec_supply_services', 'export_outside_ec', 'outside_scope']);

function cashDated(t: Txn): boolean {
  return t.type !== 'bad_debt_relief' && t.type !== 'journal' && CASH_ELIGIBLE.has(t.supply);
}

/** What the stages of `prepare` share: made once per request, never per transaction. */
interface Ctx {
  c: Collector;
  warnings: Warning[];
  company: Company;
  start: string | undefined;
  end: string | undefined;
  /** Both dates valid, in order and at most 12 months apart. */
  periodOk: boolean;
  /** The company's scheme entries sorted by start date. */
  schemes: SchemeEntry[];
  schemeNames: Set<Scheme>;
  byId: Map<string, Txn>;
  /** First anniversary of registration (the flat rate scheme's first-year discount ends then). */
  regAnniversary: string | undefined;
  synthetic: SchemeEntry[];
  standardFallback: SchemeEntry | undefined;
}

/**
 * The body checked and resolved, stage by stage (docs/tax-vat-return.md): the period, the company (validate.ts), the
 * transactions list, the schemes (overlaps, gaps, coverage, flat-rate categories), each transaction resolved
 * (bad debt relief, scheme entry and accounting date, inclusion in the period, flat-rate percentage), then the
 * fuel scale charges. Every failure is collected; the answer is the failures or the prepared request.
 */
export function prepare(body: unknown): { ok: true; prepared: Prepared } | { ok: false; details: ErrorDetail[] } {
  const c = new Collector();
  const warnings: Warning[] = [];
  if (!isObj(body)) {
    c.add('body', 'INVALID_BODY', 'The request body must be a JSON object with company, period and transactions.');
    return { ok: false, details: c.details };
  }
  checkKnownFields(c, body, '', DOCUMENT_FIELDS.body);
  const { start, end, periodOk } = checkPeriod(c, body['period']);
  const company = prepareCompany(c, body['company'], warnings);
  const txns: Txn[] = [];
  const byId = new Map<string, Txn>();
  parseTransactions(c, body['transactions'], txns, byId);
  const x: Ctx = {
    c,
    warnings,
    company,
    start,
    end,
    periodOk,
    schemes: [...company.schemes].sort((a, b) => (a.effective_from < b.effective_from ? -1 : a.effective_from > b.effective_from ? 1 : a.index - b.index)),
    schemeNames: new Set(company.schemes.map((s) => s.scheme)),
    byId,
    regAnniversary: company.vat_registration_date ? addMonths(company.vat_registration_date, 12) : undefined,
    synthetic: [],
    standardFallback: undefined,
  };
  checkSchemes(x, body['company'] !== undefined);
  checkFlatRateEntries(x);
  const resolved = resolveTransactions(x, txns);
  const fuel = resolveFuelCharges(x);

  if (c.details.length) return { ok: false, details: c.details };
  const pm = periodMonths(start!, end!);
  return {
    ok: true,
    prepared: {
      company,
      period: { start_date: start!, end_date: end!, months: pm.months, whole_months: pm.whole },
      transactions: resolved,
      warnings,
      synthetic: x.synthetic,
      fuel,
    },
  };
}

/** The period: both dates, end not before start, at most 12 months. */
function checkPeriod(c: Collector, p: unknown): { start: string | undefined; end: string | undefined; periodOk: boolean } {
  let start: string | undefined;
  let end: string | undefined;
  let periodOk = false;
  if (p === undefined || p === null) c.add('period', 'MISSING_FIELD', "'period' with start_date and end_date is required.");
  else if (!isObj(p)) c.add('period', 'INVALID_FIELD_TYPE', "'period' must be an object with start_date and end_date.");
  else {
    checkKnownFields(c, p, 'period', DOCUMENT_FIELDS.period);
    start = checkDate(c, p['start_date'], 'start_date', 'period', true);
    end = checkDate(c, p['end_date'], 'end_date', 'period', true);
    if (start && end) {
      if (end < start) c.add('period.end_date', 'INVALID_PERIOD', `end_date ${end} is before start_date ${start}.`);
      else if (end >= addMonths(start, MAX_PERIOD_MONTHS))
        c.add('period.end_date', 'PERIOD_TOO_LONG', `A VAT return period is at most ${MAX_PERIOD_MONTHS} months: ${start} to ${end} is longer (the latest end date is ${addDays(addMonths(start, MAX_PERIOD_MONTHS), -1)}).`);
      else periodOk = true;
    }
  }
  return { start, end, periodOk };
}

/**
 * The transactions list: present, within the limit, each parsed (validate.ts) into `txns`, ids unique (`byId`).
 * The caller makes both containers: code after this long loop runs once per call, and an object made there
 * would cost V8 a deoptimisation on every request (it has no type feedback when the loop is compiled).
 */
function parseTransactions(c: Collector, rawTx: unknown, txns: Txn[], byId: Map<string, Txn>): void {
  let list: unknown[] = [];
  if (rawTx === undefined || rawTx === null) c.add('transactions', 'MISSING_FIELD', "'transactions' (an array, possibly empty) is required.");
  else if (!Array.isArray(rawTx)) c.add('transactions', 'INVALID_FIELD_TYPE', "'transactions' must be an array.");
  else list = rawTx;
  if (list.length > MAX_TRANSACTIONS)
    c.add('transactions', 'TRANSACTION_LIMIT_EXCEEDED', `At most ${MAX_TRANSACTIONS.toLocaleString('en-GB')} transactions per request; got ${list.length.toLocaleString('en-GB')}.`);

  for (let i = 0; i < list.length; i++) {
    const t = parseTxn(c, list[i], i);
    if (!t) {
      // still register its id for duplicate detection
      const r = list[i];
      if (isObj(r) && (typeof r['id'] === 'string' || typeof r['id'] === 'number')) {
        const id = String(r['id']);
        if (byId.has(id)) c.add(`transactions[${i}].id`, 'DUPLICATE_TRANSACTION_ID', `id '${id}' is already used by transactions[${byId.get(id)!.index}].`);
        else byId.set(id, { index: i } as Txn);
      }
      continue;
    }
    const prev = byId.get(t.id);
    if (prev) c.add(`transactions[${i}].id`, 'DUPLICATE_TRANSACTION_ID', `id '${t.id}' is already used by transactions[${prev.index}].`);
    else byId.set(t.id, t);
    txns.push(t);
  }
}

/** The implied standard-accounting entry for the period (no vat_schemes, or an override to standard outside any standard entry). */
function fallback(x: Ctx): SchemeEntry {
  if (!x.standardFallback) {
    x.standardFallback = { index: -1, scheme: 'standard', effective_from: x.start ?? '0000-01-01', effective_to: x.end ?? null, limited_cost_trader: false };
    x.synthetic.push(x.standardFallback);
  }
  return x.standardFallback;
}

/** Scheme entries: overlaps and gaps inside the period, then the implied entry or the period's coverage. */
function checkSchemes(x: Ctx, companyGiven: boolean): void {
  const { c, schemes, start, end, periodOk } = x;
  for (let k = 1; k < schemes.length; k++) {
    const a = schemes[k - 1]!;
    const b = schemes[k]!;
    if (a.effective_to === null || b.effective_from <= a.effective_to) {
      c.add(`company.vat_schemes[${b.index}]`, 'SCHEME_OVERLAP', `'${b.scheme}' from ${b.effective_from} overlaps vat_schemes[${a.index}] ('${a.scheme}' from ${a.effective_from} to ${a.effective_to ?? 'open'}): one scheme applies on any day.`);
    } else {
      const gapFrom = addDays(a.effective_to, 1);
      if (gapFrom < b.effective_from && (!periodOk || (gapFrom <= end! && addDays(b.effective_from, -1) >= start!)))
        c.add(`company.vat_schemes[${b.index}]`, 'SCHEME_GAP', `No scheme applies from ${gapFrom} to ${addDays(b.effective_from, -1)} (between vat_schemes[${a.index}] and vat_schemes[${b.index}]).`);
    }
  }
  if (!x.company.schemes_given) {
    fallback(x);
    if (companyGiven) x.warnings.push({ code: 'NO_VAT_SCHEMES', field: 'company.vat_schemes', message: 'No vat_schemes given: standard accounting assumed for the whole period.' });
  } else if (periodOk && schemes.length) {
    if (!schemeAt(schemes, start!)) x.warnings.push({ code: 'PERIOD_START_NOT_COVERED', field: 'company.vat_schemes', message: `No scheme entry covers the period start ${start}.` });
    if (!schemeAt(schemes, end!)) x.warnings.push({ code: 'PERIOD_END_NOT_COVERED', field: 'company.vat_schemes', message: `No scheme entry covers the period end ${end}.` });
  }
}

/** Flat-rate entries: a category must be one in force (else FRS_MISSING_PERCENTAGE). */
function checkFlatRateEntries(x: Ctx): void {
  for (const s of x.company.schemes) {
    if (s.scheme !== 'flat_rate') continue;
    const probe = x.periodOk ? (s.effective_from > x.start! ? s.effective_from : x.start!) : s.effective_from;
    if (s.flat_rate_category && !s.limited_cost_trader && s.flat_rate_percentage === undefined && !frsCategory(s.flat_rate_category, probe))
      x.c.add(`company.vat_schemes[${s.index}].flat_rate_category`, 'FRS_MISSING_PERCENTAGE', `'${s.flat_rate_category}' is not a flat rate scheme category in force on ${probe} (see GET /v1/tax/vat/flat-rate-percentages), so no percentage can be found.`);
  }
}

/**
 * Each transaction in turn: bad debt relief checks, its scheme entry and accounting date, its place in the
 * period, its flat-rate percentage. A transaction that fails a stage is reported and left out.
 */
function resolveTransactions(x: Ctx, txns: readonly Txn[]): Resolved[] {
  const resolved: Resolved[] = [];
  // indexed: a for-of in code V8 has not optimised yet makes an iterator result per transaction
  for (let k = 0; k < txns.length; k++) {
    const t = txns[k]!;
    // field names (`transactions[i].date`) are built only where a failure or warning is reported
    if (t.type === 'bad_debt_relief') checkBadDebtRelief(x, t);
    const r = resolveScheme(x, t);
    if (!r || !placeInPeriod(x, r)) continue;
    if (r.scheme === 'flat_rate' && r.included && (t.side === 'output' || t.type === 'bad_debt_relief')) flatRatePercentage(x, r);
    resolved.push(r);
  }
  return resolved;
}

/** Bad debt relief (VAT Notice 700/18): the original sale, the six-month wait and the 4½-year limit. */
function checkBadDebtRelief(x: Ctx, t: Txn): void {
  const { c, warnings } = x;
  let origDate = t.original_transaction_date;
  let due = t.payment_due_date;
  const o = t.original_transaction_id ? x.byId.get(t.original_transaction_id) : undefined;
  if (o && o.date) {
    if (o.side !== 'output' || (o.type !== 'sale' && o.type !== 'debit_note_issued'))
      c.add(`transactions[${t.index}].original_transaction_id`, 'BAD_DEBT_RELIEF_MISSING_ORIGINAL', `transactions[${o.index}] ('${o.id}') is a ${o.type}, not a sale: bad debt relief is claimed on an unpaid supply you made.`);
    origDate = o.date;
    due = due ?? o.payment_due_date;
    if (o.vat > 0 && -t.vat > o.vat) warnings.push({ code: 'BAD_DEBT_RELIEF_EXCEEDS_ORIGINAL_VAT', field: `transactions[${t.index}].vat_amount`, message: `The relief ${fmtGBP(-t.vat)} exceeds the VAT of the original sale ${fmtGBP(o.vat)}.` });
  }
  if (!t.original_transaction_id || (!o && !origDate)) {
    c.add(`transactions[${t.index}].original_transaction_id`, 'BAD_DEBT_RELIEF_MISSING_ORIGINAL', t.original_transaction_id
      ? `No transaction '${t.original_transaction_id}' in this request: give original_transaction_date (and payment_due_date) for a sale from an earlier period.`
      : 'Bad debt relief must name the unpaid sale in original_transaction_id (with original_transaction_date when that sale is not in this request).');
  } else if (origDate) {
    const from = due && due > origDate ? due : origDate;
    const eligible = addMonths(from, 6);
    if (t.date < eligible)
      c.add(`transactions[${t.index}].date`, 'BAD_DEBT_RELIEF_TOO_EARLY', `Relief can be claimed once six months have passed from the later of the supply date and the payment due date (${from}): not before ${eligible} (VAT Notice 700/18).`);
    else if (t.date > addMonths(from, 54))
      warnings.push({ code: 'BAD_DEBT_RELIEF_OUT_OF_TIME', field: `transactions[${t.index}].date`, message: `Relief must be claimed within 4 years and 6 months of ${from}.` });
  }
}

/**
 * The transaction's scheme entry and accounting date (the payment date under cash accounting), by its
 * scheme_override or by date. Undefined when the override is refused. The entry may be missing (no scheme in
 * force on the date): placeInPeriod reports that.
 */
function resolveScheme(x: Ctx, t: Txn): Resolved | undefined {
  const { c, company, schemes } = x;
  let entry: SchemeEntry | undefined;
  let scheme: Scheme;
  let accDate = t.date;
  if (t.scheme_override) {
    scheme = t.scheme_override;
    if (scheme !== 'standard' && !x.schemeNames.has(scheme)) {
      c.add(`transactions[${t.index}].scheme_override`, 'INVALID_SCHEME_OVERRIDE', `scheme_override '${scheme}' is not one of the company's vat_schemes (${[...x.schemeNames].join(', ') || 'none'}).`);
      return undefined;
    }
    if (scheme === 'cash_accounting' && cashDated(t) && t.payment_date) accDate = t.payment_date;
    entry = company.schemes.find((s) => s.scheme === scheme && inForceOn(s, accDate));
    if (!entry) {
      if (scheme === 'standard') entry = fallback(x);
      else {
        c.add(`transactions[${t.index}].scheme_override`, 'SCHEME_OVERRIDE_DATE_MISMATCH', `No '${scheme}' entry of vat_schemes is in force on ${accDate}, the ${accDate === t.date ? 'transaction date' : 'payment date'}.`);
        return undefined;
      }
    }
  } else {
    entry = company.schemes_given ? schemeAt(schemes, t.date) : fallback(x);
    if (!entry && t.payment_date && company.schemes_given) {
      const e2 = schemeAt(schemes, t.payment_date);
      if (e2 && e2.scheme === 'cash_accounting' && cashDated(t)) entry = e2;
    }
    scheme = entry?.scheme ?? 'standard';
    if (entry && scheme === 'cash_accounting' && cashDated(t) && t.payment_date) accDate = t.payment_date;
  }
  // entry may be undefined here: placeInPeriod reports it before the transaction is kept
  // every field in the literal (one hidden class; placeInPeriod and flatRatePercentage fill the last two)
  return { t, entry: entry!, scheme, accounting_date: accDate, included: true, excluded: undefined, net: t.net, vat: t.vat, gross: t.gross, frs_percentage: undefined };
}

/**
 * The transaction's place in the period: under cash accounting, excluded when unpaid or paid outside the
 * period and scaled for a part payment (Notice 731); otherwise refused when dated outside the period or
 * when no scheme entry is in force. False: reported, not kept.
 */
function placeInPeriod(x: Ctx, r: Resolved): boolean {
  const { c, start, end, periodOk } = x;
  const t = r.t;
  const entry = r.entry as SchemeEntry | undefined;
  const accDate = r.accounting_date;
  if (entry && r.scheme === 'cash_accounting' && cashDated(t)) {
    if (!t.payment_date) {
      r.included = false;
      r.excluded = 'unpaid under cash accounting';
    } else if (periodOk && (accDate < start! || accDate > end!)) {
      r.included = false;
      r.excluded = `paid on ${accDate}, outside this period (cash accounting)`;
    } else if (t.amount_paid !== undefined && t.amount_paid !== t.gross && t.gross !== 0) {
      // part payment: VAT fraction of the amount paid (Notice 731)
      const paid = t.amount_paid;
      // gross may be negative (credit notes): divide by |gross| with the sign moved to the VAT; half-up is half away from zero
      const vatPart = t.gross < 0 ? mulDiv(-t.vat, paid, -t.gross, 'half-up') : mulDiv(t.vat, paid, t.gross, 'half-up');
      r.vat = vatPart;
      r.gross = paid;
      r.net = paid - vatPart;
      if (Math.abs(paid) > Math.abs(t.gross)) x.warnings.push({ code: 'AMOUNT_PAID_EXCEEDS_GROSS', field: `transactions[${t.index}].amount_paid`, message: `amount_paid ${fmtGBP(paid)} exceeds gross_amount ${fmtGBP(t.gross)}.` });
    }
  } else if (periodOk && (accDate < start! || accDate > end!)) {
    c.add(`transactions[${t.index}].date`, 'TRANSACTION_OUTSIDE_PERIOD', `Dated ${accDate}, outside the return period ${start} to ${end}.`);
    return false;
  }
  if (!entry) {
    if (periodOk) c.add(`transactions[${t.index}].date`, 'TRANSACTION_NO_MATCHING_SCHEME', `No entry of company.vat_schemes is in force on ${t.date}.`);
    return false;
  }
  return true;
}

/**
 * The flat-rate percentage of an included flat-rate output or bad debt relief (Notice 733): the transaction's
 * own, else the entry's, else its category's (or the limited cost trader's) on the accounting date, less the
 * first-year point (reg 55JB) in the first year of registration.
 */
function flatRatePercentage(x: Ctx, r: Resolved): void {
  const { t, entry } = r;
  const accDate = r.accounting_date;
  let pct = t.flat_rate_percentage;
  const firstYear = entry.first_year ?? (x.regAnniversary !== undefined && accDate < x.regAnniversary);
  if (pct === undefined && entry.flat_rate_percentage !== undefined) {
    // the appropriate percentage of the entry, less the first-year point (reg 55JB)
    pct = firstYear ? firstYearPercentage(entry.flat_rate_percentage) : entry.flat_rate_percentage;
  }
  if (pct === undefined) {
    const code = entry.limited_cost_trader ? LIMITED_COST_TRADER_CODE : entry.flat_rate_category;
    const cat = code ? frsCategory(code, accDate) : null;
    if (cat) {
      pct = firstYear ? cat.first_year_percentage : cat.percentage;
    }
  }
  if (pct === undefined) {
    if (!entry.flat_rate_category && !entry.limited_cost_trader)
      x.c.add(`transactions[${t.index}].flat_rate_percentage`, 'FRS_MISSING_PERCENTAGE', `No flat-rate percentage for this transaction: vat_schemes[${entry.index}] has no flat_rate_category, flat_rate_percentage or limited_cost_trader, and the transaction has no flat_rate_percentage.`);
    else if (entry.limited_cost_trader)
      x.c.add(`transactions[${t.index}].flat_rate_percentage`, 'FRS_MISSING_PERCENTAGE', `No limited cost trader percentage is in force on ${accDate}.`);
  } else r.frs_percentage = pct;
}

/** Fuel scale charges (Notice 700/64): the table and basis for the period's length, the charge in pence. */
function resolveFuelCharges(x: Ctx): Prepared['fuel'] {
  const fuel: Prepared['fuel'] = [];
  if (!x.periodOk) return fuel;
  const { c, warnings } = x;
  const start = x.start!;
  const pm = periodMonths(start, x.end!);
  for (const fc of x.company.fuel) {
    const f = `company.fuel_scale_charges[${fc.index}]`;
    if (fc.fuel_type === 'electric' && fc.vat_inclusive_charge === undefined) {
      warnings.push({ code: 'FUEL_SCALE_ELECTRIC', field: f, message: 'Electricity is not road fuel for the fuel scale charge: no charge for an electric car.' });
      continue;
    }
    let months: 1 | 3 | 12;
    let basis: string;
    let multiplier = 1;
    if (fc.period_months) {
      months = fc.period_months as 1 | 3 | 12;
      basis = `period_months ${months}`;
    } else if (pm.whole && (pm.months === 1 || pm.months === 3 || pm.months === 12)) {
      months = pm.months as 1 | 3 | 12;
      basis = `${months}-month return period`;
    } else {
      months = 1;
      multiplier = Math.max(1, Math.round(pm.months));
      basis = `${multiplier} x the 1-month charge (the period is ${pm.months} months)`;
      warnings.push({ code: 'FUEL_SCALE_PERIOD_LENGTH', field: f, message: `The period is ${pm.months} months, not 1, 3 or 12: the charge is ${basis}. Give period_months to choose a table.` });
    }
    if (fc.vat_inclusive_charge !== undefined) {
      fuel.push({ ...fc, charge: fc.vat_inclusive_charge, months_basis: 'vat_inclusive_charge given' });
      continue;
    }
    if (!fc.band) continue; // already reported
    const look = fuelCharge(fc.band, months, start);
    if (!look.ok) {
      c.add(`${f}.co2_band`, 'INVALID_CO2_BAND', `No fuel scale charge for CO2 band ${fc.band}: ${look.reason}.`);
      continue;
    }
    fuel.push({ ...fc, charge: look.charge_pounds * 100 * multiplier, table_valid_from: look.table_valid_from, months_basis: basis });
  }
  return fuel;
}
