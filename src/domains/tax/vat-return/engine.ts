/**
 * The nine-box computation over a prepared (validated, resolved) request. All amounts are integer pence;
 * boxes 1 and 4 also carry exact fractions (flat-rate percentages, partial exemption) in "micro" units of
 * 1/1,000,000 pound (1/10,000 penny) as BigInt, so nothing is ever rounded before the box itself.
 *
 * Box rules: VAT Notice 700/12 (how to fill in the return), 733 (flat rate scheme), 731 (cash accounting),
 * 706 (partial exemption), 700/18 (bad debt relief), 700/64 (fuel scale charges), reverse charge (735/741A),
 * postponed VAT accounting and the Northern Ireland protocol for boxes 2, 8 and 9.
 *
 * The stages of computeReturn: the transactions summed (with partial exemption inputs, advisory warnings,
 * categories and rows), the exact boxes 1 and 4, fuel scale charges, partial exemption (partial-exemption.ts),
 * rounding (boxes.ts), the scheme summary, then the answer with its breakdown.
 */
import { vatRate } from '../vat-data.js';
import { boxesOf, roundBoxes, vatFraction, type BoxTotals } from './boxes.js';
import { SCHEMES, SUPPLY_TYPES, TRANSACTION_TYPES, VAT_RATE_NAMES, type SchemeEntry, type Txn } from './model.js';
import { applyPartialExemption, type PeTotals } from './partial-exemption.js';
import { FRS_CAPITAL_GOODS_THRESHOLD, type Prepared, type Resolved } from './prepare.js';
import type { Warning } from './validate.js';

export type BreakdownDetail = 'full' | 'summary' | 'none';

const ix = <T extends string>(xs: readonly T[]) => Object.fromEntries(xs.map((x, i) => [x, i])) as Record<T, number>;
const TYPE_IX = ix(TRANSACTION_TYPES);
const SUPPLY_IX = ix(SUPPLY_TYPES);
const RATE_IX = ix(VAT_RATE_NAMES);
const SCHEME_IX = ix(SCHEMES);

export const NOTICE_700_12 = 'https://www.gov.uk/guidance/how-to-fill-in-and-submit-your-vat-return-vat-notice-70012';

/** Per-transaction contribution (pence) to boxes 1, 2, 4, 6, 7, 8, 9, plus flat-rate fractions. */
interface Contribution {
  b1: number;
  b2: number;
  b4: number;
  b6: number;
  b7: number;
  b8: number;
  b9: number;
  /** VAT-inclusive flat-rate turnover (pence) taxed at `pctH` into box 1. */
  frsTurnover: number;
  /** Bad debt relief under the flat rate scheme: VAT-inclusive debt (pence) relieved at `pctH` into box 4. */
  frsRelief: number;
  /** Flat-rate percentage in hundredths of a percent (14.5% -> 1450). */
  pctH: number;
  /** Input tax subject to partial exemption (pence) and its attribution. */
  peInput: number;
}

const zero = (): Contribution => ({ b1: 0, b2: 0, b4: 0, b6: 0, b7: 0, b8: 0, b9: 0, frsTurnover: 0, frsRelief: 0, pctH: 0, peInput: 0 });

const pctToH = (pct: number) => Math.round(pct * 100);

/**
 * A transaction's contribution, written into `c` (one object for the whole loop, cleared here: nothing keeps
 * it past its transaction, and 10,000 fresh ones were young-generation garbage every collection copied the
 * parsed transactions past).
 */
function contribution(r: Resolved, partlyExempt: boolean, c: Contribution): Contribution {
  c.b1 = c.b2 = c.b4 = c.b6 = c.b7 = c.b8 = c.b9 = c.frsTurnover = c.frsRelief = c.pctH = c.peInput = 0;
  const t = r.t;
  const { net, vat, gross } = r;
  const s = t.supply;
  if (r.scheme === 'flat_rate') {
    if (t.type === 'bad_debt_relief') {
      // Notice 733: relief is the flat-rate percentage of the VAT-inclusive unpaid debt
      c.frsRelief = -gross;
      c.pctH = pctToH(r.frs_percentage ?? 0);
      return c;
    }
    if (t.side === 'output') {
      if (t.capital && t.input_tax_reclaimed) {
        // sale of a capital asset whose input tax was reclaimed: VAT accounted outside the flat-rate turnover
        c.b1 = vat;
        c.b6 = net;
        return c;
      }
      switch (s) {
        case 'domestic':
        case 'ec_supply_goods':
        case 'export_outside_ec':
          if (t.vat_rate === 'outside_scope') {
            c.b6 = net;
            return c;
          }
          c.frsTurnover = gross;
          c.pctH = pctToH(r.frs_percentage ?? 0);
          c.b6 = gross; // box 6 holds the VAT-inclusive flat-rate turnover
          if (s === 'ec_supply_goods') c.b8 = net;
          return c;
        case 'domestic_reverse_charge':
        case 'ec_supply_services':
          c.b6 = net;
          return c;
        default:
          return c;
      }
    }
    // inputs under the flat rate scheme: no input tax except capital goods over £2,000 incl. VAT
    const capitalClaim = t.capital && Math.abs(gross) > FRS_CAPITAL_GOODS_THRESHOLD;
    if (capitalClaim && s !== 'outside_scope') {
      c.b4 = vat;
      c.b7 = net;
    }
    switch (s) {
      case 'domestic_reverse_charge':
      case 'ec_acquisition_services':
      case 'import_postponed_vat':
        c.b1 = vat;
        break;
      case 'ec_acquisition_goods':
        c.b2 = vat;
        c.b9 = net;
        c.b7 = net;
        break;
    }
    return c;
  }
  // standard, cash and annual accounting
  if (t.type === 'bad_debt_relief') {
    c.b4 = -vat;
    return c;
  }
  if (t.side === 'output') {
    switch (s) {
      case 'domestic':
        c.b1 = vat;
        c.b6 = net;
        break;
      case 'domestic_reverse_charge':
      case 'ec_supply_services':
      case 'export_outside_ec':
        c.b6 = net;
        break;
      case 'ec_supply_goods':
        c.b6 = net;
        c.b8 = net;
        break;
    }
    return c;
  }
  switch (s) {
    case 'domestic':
    case 'import_outside_ec':
      c.b4 = vat;
      c.b7 = net;
      break;
    case 'domestic_reverse_charge':
    case 'import_postponed_vat':
      c.b1 = vat;
      c.b4 = vat;
      c.b7 = net;
      break;
    case 'ec_acquisition_goods':
      c.b2 = vat;
      c.b4 = vat;
      c.b7 = net;
      c.b9 = net;
      break;
    case 'ec_acquisition_services':
      c.b1 = vat;
      c.b4 = vat;
      c.b6 = net;
      c.b7 = net;
      break;
  }
  if (partlyExempt) c.peInput = c.b4;
  return c;
}

// ---------- warnings aggregated by code ----------

class WarningSet {
  private byCode = new Map<string, { message: string; ids: string[]; count: number }>();
  constructor(readonly list: Warning[]) {}
  tx(code: string, message: string, id: string): void {
    let w = this.byCode.get(code);
    if (!w) this.byCode.set(code, (w = { message, ids: [], count: 0 }));
    w.count++;
    if (w.ids.length < 5) w.ids.push(id);
  }
  flush(): Warning[] {
    for (const [code, w] of this.byCode)
      this.list.push({ code, message: `${w.message} (${w.count} transaction${w.count === 1 ? '' : 's'}: ${w.ids.join(', ')}${w.count > w.ids.length ? ', ...' : ''})` });
    return this.list;
  }
}

// ---------- the return ----------

/** Totals per (type, supply_type, vat_rate, scheme) of the breakdown. */
interface Category {
  type: string;
  supply_type: string;
  vat_rate: string;
  scheme: string;
  count: number;
  net: number;
  vat: number;
  gross: number;
  b: number[];
  frsMicro: bigint;
  frs4Micro: bigint;
}

/** What the pass over the transactions gathers. */
interface Sums {
  /** Boxes 1, 2, 4, 6, 7, 8, 9 in pence (flat-rate fractions apart). */
  b1: number;
  b2: number;
  b4: number;
  b6: number;
  b7: number;
  b8: number;
  b9: number;
  /** Flat-rate turnover and bad debt relief (pence) by percentage in hundredths. */
  frsTurnover: Map<number, number>;
  frsRelief: Map<number, number>;
  peT: PeTotals;
  /** Transactions counted per scheme entry. */
  counts: Map<SchemeEntry, number>;
  cats: Map<number, Category>;
  /** Rows of the full breakdown (null unless `full`). */
  perTx: unknown[] | null;
  usedFrs: boolean;
}

export function computeReturn(p: Prepared, detail: BreakdownDetail) {
  const company = p.company;
  const W = new WarningSet([...p.warnings]);
  const pe = company.partially_exempt;
  // scheme entries in force at some time in the period (fuel charges under flat rate; scheme summary)
  const inForce = [...company.schemes, ...p.synthetic].filter((s) => s.effective_from <= p.period.end_date && (s.effective_to === null || s.effective_to >= p.period.start_date));

  const sums = sumTransactions(p, detail, W);
  if (sums.usedFrs && pe) W.list.push({ code: 'PARTIAL_EXEMPTION_NOT_UNDER_FLAT_RATE', message: 'Partial exemption does not apply to flat rate scheme transactions: they are left out of the partial exemption calculation.' });
  const tot = exactBoxes(sums);
  const fuelOut = fuelScaleCharges(p, inForce, W, tot, sums.perTx);
  const peData = pe ? applyPartialExemption(company, p.period.months, sums.peT, W.list, tot, sums.perTx) : undefined;
  const { boxes, rounding_summary } = roundBoxes(tot);
  const scheme_summary = schemeSummary(p, inForce, sums.counts, W);

  const data: Record<string, unknown> = {
    return_period: { start_date: p.period.start_date, end_date: p.period.end_date },
    boxes,
    warnings: W.flush(),
    scheme_summary,
    rounding_summary,
  };
  if (peData) data['partial_exemption'] = peData;
  if (fuelOut.length) data['fuel_scale_charges'] = fuelOut;
  if (detail !== 'none') {
    const breakdown: Record<string, unknown> = { categories: categoriesOut(sums.cats) };
    if (sums.perTx) breakdown['transactions'] = sums.perTx;
    data['breakdown'] = breakdown;
  }
  return data;
}

/**
 * The pass over the transactions: each included one's contribution to the boxes, flat-rate turnover and
 * relief by percentage, partial exemption inputs and supplies, advisory warnings, its category and (full)
 * its row; an excluded one is counted as a warning (and a row).
 */
function sumTransactions(p: Prepared, detail: BreakdownDetail, W: WarningSet): Sums {
  const pe = p.company.partially_exempt;
  // made before the loop and summed into: an object made after this long loop would cost V8 a
  // deoptimisation on every request (no type feedback there when the loop is compiled)
  const s: Sums = {
    b1: 0, b2: 0, b4: 0, b6: 0, b7: 0, b8: 0, b9: 0,
    frsTurnover: new Map<number, number>(), // pctH -> pence
    frsRelief: new Map<number, number>(),
    peT: { taxable_input_tax: 0, exempt_input_tax: 0, residual_input_tax: 0, taxable_supplies: 0, exempt_supplies: 0 },
    counts: new Map<SchemeEntry, number>(),
    cats: new Map<number, Category>(),
    perTx: detail === 'full' ? [] : null,
    usedFrs: false,
  };
  const { frsTurnover, frsRelief, peT, counts, cats, perTx } = s;
  const scratch = zero();
  const ni = p.company.northern_ireland;

  // indexed: a for-of in code V8 has not optimised yet makes an iterator result per transaction
  const txns = p.transactions;
  for (let k = 0; k < txns.length; k++) {
    const r = txns[k]!;
    const t = r.t;
    if (!r.included) {
      W.tx('TRANSACTION_EXCLUDED', `Not in this return: ${r.excluded}`, t.id);
      if (perTx) perTx.push({ index: t.index, id: t.id, date: t.date, scheme: r.scheme, included: false, excluded_reason: r.excluded, boxes: {} });
      continue;
    }
    counts.set(r.entry, (counts.get(r.entry) ?? 0) + 1);
    const c = contribution(r, pe && r.scheme !== 'flat_rate', scratch);
    s.b1 += c.b1; s.b2 += c.b2; s.b4 += c.b4; s.b6 += c.b6; s.b7 += c.b7; s.b8 += c.b8; s.b9 += c.b9;
    if (c.frsTurnover) frsTurnover.set(c.pctH, (frsTurnover.get(c.pctH) ?? 0) + c.frsTurnover);
    if (c.frsRelief) frsRelief.set(c.pctH, (frsRelief.get(c.pctH) ?? 0) + c.frsRelief);
    if (r.scheme === 'flat_rate') s.usedFrs = true;

    if (pe && r.scheme !== 'flat_rate') addPartialExemption(peT, r, c);
    else if (!pe && t.attribution) W.tx('ATTRIBUTION_IGNORED', 'input_tax_attribution is ignored: the company is not partially exempt', t.id);
    adviseTransaction(W, ni, r);
    const frs1 = c.frsTurnover ? BigInt(c.frsTurnover) * BigInt(c.pctH) : 0n;
    const frs4 = c.frsRelief ? BigInt(c.frsRelief) * BigInt(c.pctH) : 0n;
    if (detail !== 'none') addToCategory(cats, r, c, frs1, frs4);
    if (perTx) perTx.push(transactionRow(r, c, frs1, frs4));
  }
  return s;
}

/** Partial exemption inputs by attribution, and the supplies of the standard-method fraction (Notice 706). */
function addPartialExemption(peT: PeTotals, r: Resolved, c: Contribution): void {
  const t = r.t;
  if (c.peInput) {
    const a = t.attribution ?? 'residual';
    if (a === 'taxable') peT.taxable_input_tax += c.peInput;
    else if (a === 'exempt') peT.exempt_input_tax += c.peInput;
    else peT.residual_input_tax += c.peInput;
  }
  if (t.side === 'output' && t.type !== 'bad_debt_relief' && !t.capital) {
    if (t.vat_rate === 'exempt') {
      if (t.supply === 'domestic') peT.exempt_supplies += r.net;
    } else if (t.supply === 'domestic' || t.supply === 'domestic_reverse_charge' || t.supply === 'ec_supply_goods' || (t.supply === 'export_outside_ec' && t.vat_rate === 'zero')) {
      peT.taxable_supplies += r.net;
    }
  }
}

/** Advisory checks: EU goods movements outside Northern Ireland, bad debt relief under cash accounting. */
function adviseTransaction(W: WarningSet, ni: boolean, r: Resolved): void {
  const t: Txn = r.t;
  if (!ni && (t.supply === 'ec_supply_goods' || t.supply === 'ec_acquisition_goods') && t.date >= '2021-01-01')
    W.tx('EC_GOODS_NOT_NORTHERN_IRELAND', 'Since 1 January 2021 boxes 2, 8 and 9 apply to goods moved between Northern Ireland and the EU only; set company.northern_ireland (or an XI VAT number) if this applies', t.id);
  if (r.scheme === 'cash_accounting' && t.type === 'bad_debt_relief')
    W.tx('BAD_DEBT_RELIEF_UNDER_CASH_ACCOUNTING', 'Under cash accounting an unpaid sale was never accounted for, so bad debt relief is not normally due', t.id);
}

/** The transaction added to its category of the breakdown. */
function addToCategory(cats: Map<number, Category>, r: Resolved, c: Contribution, frs1: bigint, frs4: bigint): void {
  const t = r.t;
  const key = ((TYPE_IX[t.type] * 16 + SUPPLY_IX[t.supply]) * 8 + RATE_IX[t.vat_rate]) * 4 + SCHEME_IX[r.scheme];
  let g = cats.get(key);
  if (!g) cats.set(key, (g = { type: t.type, supply_type: t.supply, vat_rate: t.vat_rate, scheme: r.scheme, count: 0, net: 0, vat: 0, gross: 0, b: [0, 0, 0, 0, 0, 0, 0], frsMicro: 0n, frs4Micro: 0n }));
  g.count++;
  g.net += r.net;
  g.vat += r.vat;
  g.gross += r.gross;
  g.b[0]! += c.b1; g.b[1]! += c.b2; g.b[2]! += c.b4; g.b[3]! += c.b6; g.b[4]! += c.b7; g.b[5]! += c.b8; g.b[6]! += c.b9;
  if (frs1) g.frsMicro += frs1;
  if (frs4) g.frs4Micro += frs4;
}

/** The full breakdown's row of an included transaction. */
function transactionRow(r: Resolved, c: Contribution, frs1: bigint, frs4: bigint): Record<string, unknown> {
  const t = r.t;
  const boxes = boxesOf([c.b1, c.b2, c.b4, c.b6, c.b7, c.b8, c.b9], frs1, frs4);
  const row: Record<string, unknown> = {
    index: t.index,
    id: t.id,
    date: t.date,
    accounting_date: r.accounting_date,
    scheme: r.scheme,
    type: t.type,
    supply_type: t.supply,
    vat_rate: t.vat_rate,
    included: true,
    boxes,
  };
  if (r.frs_percentage !== undefined && (c.frsTurnover || c.frsRelief)) row['flat_rate_percentage'] = r.frs_percentage;
  if (r.net !== t.net || r.vat !== t.vat) row['counted'] = { net_amount: r.net / 100, vat_amount: r.vat / 100, gross_amount: r.gross / 100 };
  if (c.peInput) row['input_tax_attribution'] = t.attribution ?? 'residual';
  return row;
}

/** Boxes 1 and 4 exact in micro-pounds: pence plus flat-rate turnover and relief at their percentages. */
function exactBoxes(s: Sums): BoxTotals {
  let m1 = BigInt(s.b1) * 10_000n;
  for (const [pctH, g] of s.frsTurnover) m1 += BigInt(g) * BigInt(pctH);
  let m4 = BigInt(s.b4) * 10_000n;
  for (const [pctH, g] of s.frsRelief) m4 += BigInt(g) * BigInt(pctH);
  return { m1, b2: s.b2, m4, b6: s.b6, b7: s.b7, b8: s.b8, b9: s.b9 };
}

/**
 * Fuel scale charges (Notice 700/64): the VAT fraction of each charge into box 1, the rest into box 6; none
 * when every scheme entry in force is the flat rate scheme. Returns `data.fuel_scale_charges`.
 */
function fuelScaleCharges(p: Prepared, inForce: readonly SchemeEntry[], W: WarningSet, tot: BoxTotals, perTx: unknown[] | null): unknown[] {
  const fuelOut: unknown[] = [];
  if (!p.fuel.length) return fuelOut;
  const allFrs = inForce.length > 0 && inForce.every((s) => s.scheme === 'flat_rate');
  if (allFrs) {
    W.list.push({ code: 'FUEL_SCALE_UNDER_FLAT_RATE', message: 'Fuel scale charges do not apply under the flat rate scheme (no input tax is reclaimed on fuel): the charges given were ignored.' });
    return fuelOut;
  }
  const rate = vatRate('standard', p.period.start_date).rate;
  for (const f of p.fuel) {
    const vatPart = vatFraction(f.charge, rate);
    tot.m1 += BigInt(vatPart) * 10_000n;
    tot.b6 += f.charge - vatPart;
    const row = {
      index: f.index,
      vehicle: f.vehicle ?? null,
      fuel_type: f.fuel_type,
      co2_band: f.band ?? null,
      basis: f.months_basis,
      table_valid_from: f.table_valid_from ?? null,
      vat_inclusive_charge: f.charge / 100,
      vat: vatPart / 100,
      vat_exclusive_charge: (f.charge - vatPart) / 100,
    };
    fuelOut.push(row);
    if (perTx) perTx.push({ fuel_scale_charge: f.index, vehicle: f.vehicle ?? null, included: true, boxes: { box_1: vatPart / 100, box_6: (f.charge - vatPart) / 100 } });
  }
  return fuelOut;
}

/** Every scheme entry in force in the period or with transactions, by start date, with its count (and the annual accounting period check). */
function schemeSummary(p: Prepared, inForce: readonly SchemeEntry[], counts: Map<SchemeEntry, number>, W: WarningSet): Array<Record<string, unknown>> {
  const inForceSet = new Set(inForce);
  const entries = [...p.company.schemes, ...p.synthetic]
    .filter((s) => counts.has(s) || inForceSet.has(s))
    .sort((a, b) => (a.effective_from < b.effective_from ? -1 : a.effective_from > b.effective_from ? 1 : a.index - b.index));
  const scheme_summary = entries.map((s) => {
    const row: Record<string, unknown> = { scheme: s.scheme, effective_from: s.effective_from, effective_to: s.effective_to, transaction_count: counts.get(s) ?? 0 };
    if (s.index < 0) row['implied'] = true;
    if (s.scheme === 'flat_rate') {
      if (s.flat_rate_category) row['flat_rate_category'] = s.flat_rate_category;
      if (s.flat_rate_percentage !== undefined) row['flat_rate_percentage'] = s.flat_rate_percentage;
      if (s.limited_cost_trader) row['limited_cost_trader'] = true;
    }
    return row;
  });
  if (entries.length === 1 && entries[0]!.scheme === 'annual_accounting' && !(p.period.whole_months && p.period.months === 12))
    W.list.push({ code: 'ANNUAL_ACCOUNTING_PERIOD', message: `Annual accounting returns normally cover 12 months; this period is ${p.period.months} months.` });
  return scheme_summary;
}

/** The breakdown's categories in key order (type, supply type, rate, scheme). */
function categoriesOut(cats: Map<number, Category>) {
  return [...cats.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, g]) => {
      const bx = boxesOf(g.b, g.frsMicro, g.frs4Micro);
      return { type: g.type, supply_type: g.supply_type, vat_rate: g.vat_rate, scheme: g.scheme, transaction_count: g.count, net_amount: g.net / 100, vat_amount: g.vat / 100, gross_amount: g.gross / 100, boxes: bx };
    });
}
