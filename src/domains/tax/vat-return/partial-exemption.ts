/**
 * Partial exemption (VAT Notice 706; SI 1995/2518 reg 101 and 106) over a return's totals: the standard-method
 * percentage (or a special method's), the de minimis tests, the restriction of box 4 and the annual
 * adjustment. Amounts in integer pence, exact fractions in micro-pounds (BigInt); see engine.ts.
 */
import { decimalOf, divRoundBig, mulDiv, toPounds } from '../../../money.js';
import { microToNumber, type BoxTotals } from './boxes.js';
import type { Company, DeMinimisTest, PartialExemptionConfig, PriorReturns } from './model.js';
import type { Warning } from './validate.js';

export interface PeTotals {
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

/**
 * The partial exemption of a return: box 4 restricted to the recoverable input tax, then the annual adjustment
 * (the year recomputed from prior_returns plus this return) added to it. `perTx` (full breakdown only) takes
 * a row for each non-zero change. Returns `data.partial_exemption`.
 */
export function applyPartialExemption(company: Company, periodMonths: number, peT: PeTotals, warnings: Warning[], tot: BoxTotals, perTx: unknown[] | null): Record<string, unknown> {
  const months = periodMonths || 1;
  const res = partialExemption(peT, months, company.partial_exemption, warnings);
  const claimedMicro = BigInt(res.total_input_tax) * 10_000n;
  const restriction = claimedMicro - res.recoverable_micro;
  tot.m4 -= restriction;
  const peData: Record<string, unknown> = { method: company.partial_exemption.method, period_months: months, ...peOut(peT, res), restriction: microToNumber(-restriction) };
  if (perTx && restriction !== 0n) perTx.push({ partial_exemption: 'restriction', included: true, boxes: { box_4: microToNumber(-restriction) } });
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
    const yr = partialExemption(yT, aa.year_months, company.partial_exemption, warnings);
    const adj = yr.recoverable_micro - BigInt(pr.input_tax_recovered) * 10_000n - res.recoverable_micro;
    tot.m4 += adj;
    peData['annual_adjustment'] = {
      year_months: aa.year_months,
      ...peOut(yT, yr),
      input_tax_recovered_in_prior_returns: pr.input_tax_recovered / 100,
      input_tax_recoverable_this_period: microToNumber(res.recoverable_micro),
      adjustment: microToNumber(adj),
    };
    if (perTx && adj !== 0n) perTx.push({ partial_exemption: 'annual_adjustment', included: true, boxes: { box_4: microToNumber(adj) } });
  }
  return peData;
}
