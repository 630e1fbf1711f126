/**
 * The nine-box computation over a prepared (validated, resolved) request. All amounts are integer pence;
 * boxes 1 and 4 also carry exact fractions (flat-rate percentages, partial exemption) in "micro" units of
 * 1/1,000,000 pound (1/10,000 penny) as BigInt, so nothing is ever rounded before the box itself.
 *
 * Box rules: VAT Notice 700/12 (how to fill in the return), 733 (flat rate scheme), 731 (cash accounting),
 * 706 (partial exemption), 700/18 (bad debt relief), 700/64 (fuel scale charges), reverse charge (735/741A),
 * postponed VAT accounting and the Northern Ireland protocol for boxes 2, 8 and 9.
 */
import { decimalOf, divRoundBig, mulDiv, roundToPounds, toPounds } from '../../../money.js';
import { extractVat } from '../vat.js';
import { vatRate } from '../vat-data.js';
import { SCHEMES, SUPPLY_TYPES, TRANSACTION_TYPES, VAT_RATE_NAMES, type DeMinimisTest, type PartialExemptionConfig, type PriorReturns, type SchemeEntry } from './model.js';
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

function contribution(r: Resolved, partlyExempt: boolean): Contribution {
  const c = zero();
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

// ---------- number formatting ----------

/** BigInt micro-pounds to a JS number of pounds (exact decimal text, then the nearest double). */
function microToNumber(m: bigint): number {
  const neg = m < 0n;
  const a = neg ? -m : m;
  const int = a / 1_000_000n;
  const frac = (a % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return Number(`${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`);
}

/** Micro-pounds to pence, half a penny away from zero. */
const roundMicroToPence = (m: bigint): number => Number(divRoundBig(m, 10_000n, 'half-up'));

/** The VAT fraction of a VAT-inclusive amount (pence, either sign), half a penny away from zero. */
function vatFraction(gross: number, rate: number): number {
  return gross < 0 ? -extractVat(-gross, rate).vat_pence : extractVat(gross, rate).vat_pence;
}

/** Rounded box value (pence) less its exact value (micro-pounds), in pounds. */
function diff(valuePence: number, exactMicro: bigint): number {
  return microToNumber(BigInt(valuePence) * 10_000n - exactMicro);
}

/**
 * The non-zero boxes of a transaction or category: `b` is pence for boxes 1, 2, 4, 6, 7, 8, 9 (in that order);
 * boxes 1 and 4 add the flat-rate micro-pound amounts `frs1` and `frs4`.
 */
function boxesOf(b: readonly number[], frs1: bigint, frs4: bigint): Record<string, number> {
  const out: Record<string, number> = {};
  const m1 = BigInt(b[0]!) * 10_000n + frs1;
  if (m1) out['box_1'] = microToNumber(m1);
  if (b[1]) out['box_2'] = toPounds(b[1]);
  const m4 = BigInt(b[2]!) * 10_000n + frs4;
  if (m4) out['box_4'] = microToNumber(m4);
  if (b[3]) out['box_6'] = toPounds(b[3]);
  if (b[4]) out['box_7'] = toPounds(b[4]);
  if (b[5]) out['box_8'] = toPounds(b[5]);
  if (b[6]) out['box_9'] = toPounds(b[6]);
  return out;
}

// ---------- partial exemption ----------

interface PeTotals {
  taxable_input_tax: number;
  exempt_input_tax: number;
  residual_input_tax: number;
  taxable_supplies: number;
  exempt_supplies: number;
}

interface PeResult {
  recoverable_percentage: number | null;
  percentage_basis: string;
  recoverable_residual_micro: bigint;
  exempt_input_tax_micro: bigint;
  total_input_tax: number;
  de_minimis_limit: number;
  tests: Partial<Record<DeMinimisTest, boolean>>;
  de_minimis_passed: DeMinimisTest | null;
  recoverable_micro: bigint;
}

/** Monthly average above which the standard-method percentage is rounded to 2 dp (SI 1995/2518 reg 101(5), inserted by SI 2005/762), pence. */
const RESIDUAL_2DP_THRESHOLD_PER_MONTH = 40_000_000;
/** De minimis limit per month on average (Notice 706 section 11), pence. */
const DE_MINIMIS_PER_MONTH = 62_500;

/**
 * A monthly amount (pence) times a period length in months. The length is a number with at most 2 decimal
 * places (periodMonths rounds part months to 2 dp; year_months is whole), so it is taken as the exact ratio
 * hundredths / 100 and the product is exact integer arithmetic. Both monthly amounts above are multiples of
 * 100 pence, so the product is a whole number of pence and the 'half-up' mode never actually rounds.
 */
function perMonth(monthly: number, months: number): number {
  return mulDiv(monthly, Math.round(months * 100), 100, 'half-up');
}

function partialExemption(x: PeTotals, months: number, cfg: PartialExemptionConfig, warnings: Warning[]): PeResult {
  const T = BigInt(x.taxable_input_tax);
  const E = BigInt(x.exempt_input_tax);
  const R = BigInt(x.residual_input_tax);
  const TS = x.taxable_supplies;
  const ES = x.exempt_supplies;
  let pctH: bigint | null = null;
  let basis: string;
  let recRes: bigint;
  if (cfg.method === 'special') {
    const pct = cfg.special_method_recoverable_percentage ?? 0;
    // residual x percentage x 100, exactly, rounded half away from zero
    const d = decimalOf(pct);
    recRes = divRoundBig(R * d.units * 100n, 10n ** BigInt(d.scale), 'half-up'); // half-up: half away from zero (src/money.ts)
    basis = 'special method percentage as given';
    pctH = null;
    const out = computeRest();
    out.recoverable_percentage = pct;
    return out;
  }
  const D = TS + ES;
  if (D <= 0) {
    pctH = ES > 0 ? 0n : 10_000n;
    basis = 'no supplies in the period: 100% if there are no exempt supplies';
    warnings.push({ code: 'PARTIAL_EXEMPTION_NO_SUPPLIES', message: 'No taxable or exempt supplies in the period: the standard-method percentage cannot be computed and was taken as 100%.' });
  } else {
    const ts = BigInt(Math.min(Math.max(TS, 0), D));
    const d = BigInt(D);
    const twoDp = x.residual_input_tax > perMonth(RESIDUAL_2DP_THRESHOLD_PER_MONTH, months);
    if (twoDp) {
      pctH = (ts * 10_000n + d - 1n) / d; // rounded up to 2 decimal places
      basis = 'standard method, rounded up to 2 decimal places (residual input tax over £400,000 a month on average)';
    } else {
      pctH = ((ts * 100n + d - 1n) / d) * 100n; // rounded up to the next whole number
      basis = 'standard method, rounded up to the next whole number (VAT Notice 706 para 4.6)';
    }
  }
  recRes = R * pctH;
  const out = computeRest();
  out.recoverable_percentage = Number(pctH) / 100;
  return out;

  function computeRest(): PeResult {
    const total = T + E + R;
    const exemptMicro = E * 10_000n + (R * 10_000n - recRes);
    const limit = perMonth(DE_MINIMIS_PER_MONTH, months);
    const L = BigInt(limit);
    const exemptSuppliesHalf = 2 * ES <= TS + ES;
    const tests: Partial<Record<DeMinimisTest, boolean>> = {};
    let passed: DeMinimisTest | null = null;
    for (const test of cfg.de_minimis_tests) {
      let ok: boolean;
      if (test === 'simplified_test_1') ok = total <= L && exemptSuppliesHalf;
      else if (test === 'simplified_test_2') ok = E + R <= L && exemptSuppliesHalf;
      else ok = exemptMicro <= L * 10_000n && exemptMicro * 2n <= total * 10_000n;
      tests[test] = ok;
      if (ok && !passed) passed = test;
    }
    return {
      recoverable_percentage: null,
      percentage_basis: basis,
      recoverable_residual_micro: recRes,
      exempt_input_tax_micro: exemptMicro,
      total_input_tax: Number(total),
      de_minimis_limit: limit,
      tests,
      de_minimis_passed: passed,
      recoverable_micro: passed ? total * 10_000n : T * 10_000n + recRes,
    };
  }
}

function peOut(x: PeTotals, r: PeResult) {
  return {
    taxable_input_tax: toPounds(x.taxable_input_tax),
    exempt_input_tax: toPounds(x.exempt_input_tax),
    residual_input_tax: toPounds(x.residual_input_tax),
    taxable_supplies: toPounds(x.taxable_supplies),
    exempt_supplies: toPounds(x.exempt_supplies),
    recoverable_percentage: r.recoverable_percentage,
    percentage_basis: r.percentage_basis,
    recoverable_residual_input_tax: microToNumber(r.recoverable_residual_micro),
    total_exempt_input_tax: microToNumber(r.exempt_input_tax_micro),
    de_minimis: {
      limit: toPounds(r.de_minimis_limit),
      tests: r.tests,
      passed: r.de_minimis_passed,
    },
    input_tax_recoverable: microToNumber(r.recoverable_micro),
  };
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

export function computeReturn(p: Prepared, detail: BreakdownDetail) {
  const company = p.company;
  const W = new WarningSet([...p.warnings]);
  const pe = company.partially_exempt;
  let b1 = 0, b2 = 0, b4 = 0, b6 = 0, b7 = 0, b8 = 0, b9 = 0;
  const frsTurnover = new Map<number, number>(); // pctH -> pence
  const frsRelief = new Map<number, number>();
  const peT: PeTotals = { taxable_input_tax: 0, exempt_input_tax: 0, residual_input_tax: 0, taxable_supplies: 0, exempt_supplies: 0 };
  const counts = new Map<SchemeEntry, number>();
  const full = detail === 'full';
  const perTx: unknown[] = [];
  const cats = new Map<number, { type: string; supply_type: string; vat_rate: string; scheme: string; count: number; net: number; vat: number; gross: number; b: number[]; frsMicro: bigint; frs4Micro: bigint }>();
  let usedFrs = false;
  const ni = company.northern_ireland;
  // scheme entries in force at some time in the period (fuel charges under flat rate; scheme summary)
  const inForce = [...company.schemes, ...p.synthetic].filter((s) => s.effective_from <= p.period.end_date && (s.effective_to === null || s.effective_to >= p.period.start_date));

  for (const r of p.transactions) {
    const t = r.t;
    if (!r.included) {
      W.tx('TRANSACTION_EXCLUDED', `Not in this return: ${r.excluded}`, t.id);
      if (full) perTx.push({ index: t.index, id: t.id, date: t.date, scheme: r.scheme, included: false, excluded_reason: r.excluded, boxes: {} });
      continue;
    }
    counts.set(r.entry, (counts.get(r.entry) ?? 0) + 1);
    const c = contribution(r, pe && r.scheme !== 'flat_rate');
    b1 += c.b1; b2 += c.b2; b4 += c.b4; b6 += c.b6; b7 += c.b7; b8 += c.b8; b9 += c.b9;
    if (c.frsTurnover) frsTurnover.set(c.pctH, (frsTurnover.get(c.pctH) ?? 0) + c.frsTurnover);
    if (c.frsRelief) frsRelief.set(c.pctH, (frsRelief.get(c.pctH) ?? 0) + c.frsRelief);
    if (r.scheme === 'flat_rate') usedFrs = true;

    // partial exemption inputs and the supplies of the standard-method fraction
    if (pe && r.scheme !== 'flat_rate') {
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
    } else if (!pe && t.attribution) {
      W.tx('ATTRIBUTION_IGNORED', 'input_tax_attribution is ignored: the company is not partially exempt', t.id);
    }

    // advisory checks
    if (!ni && (t.supply === 'ec_supply_goods' || t.supply === 'ec_acquisition_goods') && t.date >= '2021-01-01')
      W.tx('EC_GOODS_NOT_NORTHERN_IRELAND', 'Since 1 January 2021 boxes 2, 8 and 9 apply to goods moved between Northern Ireland and the EU only; set company.northern_ireland (or an XI VAT number) if this applies', t.id);
    if (r.scheme === 'cash_accounting' && t.type === 'bad_debt_relief')
      W.tx('BAD_DEBT_RELIEF_UNDER_CASH_ACCOUNTING', 'Under cash accounting an unpaid sale was never accounted for, so bad debt relief is not normally due', t.id);
    const frs1 = c.frsTurnover ? BigInt(c.frsTurnover) * BigInt(c.pctH) : 0n;
    const frs4 = c.frsRelief ? BigInt(c.frsRelief) * BigInt(c.pctH) : 0n;
    if (detail !== 'none') {
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
    if (full) {
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
      perTx.push(row);
    }
  }
  if (usedFrs && pe) W.list.push({ code: 'PARTIAL_EXEMPTION_NOT_UNDER_FLAT_RATE', message: 'Partial exemption does not apply to flat rate scheme transactions: they are left out of the partial exemption calculation.' });

  // exact boxes 1 and 4 in micro-pounds
  let m1 = BigInt(b1) * 10_000n;
  for (const [pctH, g] of frsTurnover) m1 += BigInt(g) * BigInt(pctH);
  let m4 = BigInt(b4) * 10_000n;
  for (const [pctH, g] of frsRelief) m4 += BigInt(g) * BigInt(pctH);

  // fuel scale charges (box 1 VAT, box 6 VAT-exclusive charge)
  const fuelOut: unknown[] = [];
  if (p.fuel.length) {
    const allFrs = inForce.length > 0 && inForce.every((s) => s.scheme === 'flat_rate');
    if (allFrs) {
      W.list.push({ code: 'FUEL_SCALE_UNDER_FLAT_RATE', message: 'Fuel scale charges do not apply under the flat rate scheme (no input tax is reclaimed on fuel): the charges given were ignored.' });
    } else {
      const rate = vatRate('standard', p.period.start_date).rate;
      for (const f of p.fuel) {
        const vatPart = vatFraction(f.charge, rate);
        m1 += BigInt(vatPart) * 10_000n;
        b6 += f.charge - vatPart;
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
        if (full) perTx.push({ fuel_scale_charge: f.index, vehicle: f.vehicle ?? null, included: true, boxes: { box_1: vatPart / 100, box_6: (f.charge - vatPart) / 100 } });
      }
    }
  }

  // partial exemption
  let peData: Record<string, unknown> | undefined;
  if (pe) {
    const months = p.period.months || 1;
    const res = partialExemption(peT, months, company.partial_exemption, W.list);
    const claimedMicro = BigInt(res.total_input_tax) * 10_000n;
    const restriction = claimedMicro - res.recoverable_micro;
    m4 -= restriction;
    peData = { method: company.partial_exemption.method, period_months: months, ...peOut(peT, res), restriction: microToNumber(-restriction) };
    if (full && restriction !== 0n) perTx.push({ partial_exemption: 'restriction', included: true, boxes: { box_4: microToNumber(-restriction) } });
    const aa = company.partial_exemption.annual_adjustment;
    if (aa) {
      const pr: PriorReturns = aa.prior_returns;
      const yT: PeTotals = {
        taxable_input_tax: peT.taxable_input_tax + pr.taxable_input_tax,
        exempt_input_tax: peT.exempt_input_tax + pr.exempt_input_tax,
        residual_input_tax: peT.residual_input_tax + pr.residual_input_tax,
        taxable_supplies: peT.taxable_supplies + pr.taxable_supplies,
        exempt_supplies: peT.exempt_supplies + pr.exempt_supplies,
      };
      const yr = partialExemption(yT, aa.year_months, company.partial_exemption, W.list);
      const adj = yr.recoverable_micro - BigInt(pr.input_tax_recovered) * 10_000n - res.recoverable_micro;
      m4 += adj;
      peData['annual_adjustment'] = {
        year_months: aa.year_months,
        ...peOut(yT, yr),
        input_tax_recovered_in_prior_returns: pr.input_tax_recovered / 100,
        input_tax_recoverable_this_period: microToNumber(res.recoverable_micro),
        adjustment: microToNumber(adj),
      };
      if (full && adj !== 0n) perTx.push({ partial_exemption: 'annual_adjustment', included: true, boxes: { box_4: microToNumber(adj) } });
    }
  }

  // round the boxes (Notice 700/12: boxes 1 to 5 in pounds and pence, 6 to 9 in whole pounds)
  const v1 = roundMicroToPence(m1);
  const v2 = b2;
  const v4 = roundMicroToPence(m4);
  const m2 = BigInt(b2) * 10_000n;
  const m3 = m1 + m2;
  const v3 = v1 + v2;
  const m5 = m3 - m4;
  const v5 = v3 - v4;
  const whole = (pn: number) => roundToPounds(pn, 'down');
  const vb = { b6: whole(b6), b7: whole(b7), b8: whole(b8), b9: whole(b9) };
  const box = (value: number, exact: bigint) => ({ value: value / 100, exact_value: microToNumber(exact) });
  const boxes = {
    box_1: box(v1, m1),
    box_2: box(v2, m2),
    box_3: box(v3, m3),
    box_4: box(v4, m4),
    box_5: box(v5, m5),
    box_6: box(vb.b6, BigInt(b6) * 10_000n),
    box_7: box(vb.b7, BigInt(b7) * 10_000n),
    box_8: box(vb.b8, BigInt(b8) * 10_000n),
    box_9: box(vb.b9, BigInt(b9) * 10_000n),
  };
  const rounding_summary = {
    box_1_rounding: diff(v1, m1),
    box_2_rounding: diff(v2, m2),
    box_3_rounding: diff(v3, m3),
    box_4_rounding: diff(v4, m4),
    box_5_rounding: diff(v5, m5),
    box_6_rounding: (vb.b6 - b6) / 100,
    box_7_rounding: (vb.b7 - b7) / 100,
    box_8_rounding: (vb.b8 - b8) / 100,
    box_9_rounding: (vb.b9 - b9) / 100,
  };

  // scheme summary
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
    const categories = [...cats.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, g]) => {
        const bx = boxesOf(g.b, g.frsMicro, g.frs4Micro);
        return { type: g.type, supply_type: g.supply_type, vat_rate: g.vat_rate, scheme: g.scheme, transaction_count: g.count, net_amount: g.net / 100, vat_amount: g.vat / 100, gross_amount: g.gross / 100, boxes: bx };
      });
    const breakdown: Record<string, unknown> = { categories };
    if (full) breakdown['transactions'] = perTx;
    data['breakdown'] = breakdown;
  }
  return data;
}
