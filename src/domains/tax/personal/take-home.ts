/** Take-home pay (also each compare scenario). Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { errors } from '../../../contract/errors.js';
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { divRound, ratePpm } from '../../../money.js';
import { MaIneligible, takeHomeCore, type PensionType, type Region, type TakeHomeResult } from '../personal-calc.js';
import { raw, type YearParams } from '../personal-params.js';
import { HMRC, URL_INCOME_TAX, gbp, amountP, ratio4, calcYear, maErrorToApi } from './common.js';
import { breakdownOut, maOut } from './income.js';
import { niSlicesOut } from './ni.js';

export interface ScenarioBody {
  gross_income: number;
  region: Region;
  marriage_allowance_recipient?: boolean;
  marriage_allowance_transferor?: boolean;
  blind_persons_allowance?: boolean;
  student_loan_plans?: string[];
  pension_contribution_percent?: number;
  pension_type?: PensionType;
}

export function runTakeHome(y: YearParams, b: ScenarioBody): TakeHomeResult {
  const plans = b.student_loan_plans ?? [];
  if (plans.length && !y.studentLoans) {
    throw errors.badRequest(`Invalid field 'student_loan_plans': student loan thresholds are available from ${Object.keys(raw.studentLoans().years)[0]} (asked ${y.year}).`);
  }
  if (b.marriage_allowance_transferor === true && !y.it.ma) maErrorToApi(new MaIneligible('no Marriage Allowance this year'), b.region);
  const pct = b.pension_contribution_percent ?? 0;
  let pensionPpm = 0;
  if (pct > 0) {
    try {
      pensionPpm = ratePpm(pct / 100);
    } catch {
      throw errors.badRequest("Invalid field 'pension_contribution_percent': at most 4 decimal places.");
    }
  }
  try {
    return takeHomeCore(y, {
      grossP: amountP(b.gross_income, 'gross_income'),
      region: b.region,
      maRecipient: b.marriage_allowance_recipient === true,
      maTransferor: b.marriage_allowance_transferor === true,
      bpa: b.blind_persons_allowance === true,
      plans,
      pensionPpm,
      ...(b.pension_type ? { pensionType: b.pension_type } : {}),
    });
  } catch (e) {
    maErrorToApi(e, b.region);
  }
}

/** The take-home `data` object (also each compare scenario). */
export function takeHomeData(y: YearParams, b: ScenarioBody, r: TakeHomeResult): Record<string, unknown> {
  const grossP = amountP(b.gross_income, 'gross_income');
  const incomeTaxOut: Record<string, unknown> = {
    amount: gbp(r.it.totalP),
    personal_allowance: gbp(r.it.paP),
    taxable_income: gbp(r.it.taxableP),
    effective_rate: ratio4(r.it.totalP, grossP),
    breakdown: breakdownOut(r.it),
  };
  const ma = maOut(y, r.it, b as unknown as Record<string, unknown>);
  if (ma) incomeTaxOut.marriage_allowance = ma;
  const deductions: Record<string, unknown> = {
    income_tax: incomeTaxOut,
    national_insurance: {
      employee: gbp(r.ni.employeeP),
      breakdown: niSlicesOut(r.ni.employee, false),
    },
  };
  if (b.student_loan_plans && b.student_loan_plans.length) {
    deductions.student_loan = {
      amount: gbp(r.loansP),
      repayments: r.loans.map((l) => ({ plan_type: l.plan_type, threshold: l.threshold, rate: l.rate, amount: gbp(l.amountP) })),
    };
  }
  if (r.pension) {
    deductions.pension = {
      type: r.pension.type,
      contribution_percent: b.pension_contribution_percent ?? 0,
      gross_contribution: gbp(r.pension.contributionP),
      tax_relief_at_source: gbp(r.pension.reliefP),
      amount: gbp(r.pension.deductedP),
    };
  }
  const erNiP = r.ni.employerP;
  return {
    gross_income: gbp(grossP),
    region: b.region,
    tax_year: y.year,
    deductions,
    net_annual: gbp(r.netP),
    net_monthly: gbp(divRound(r.netP, 12, 'half-up')),
    net_weekly: gbp(divRound(r.netP, 52, 'half-up')),
    total_deductions: gbp(r.totalDeductionsP),
    effective_rate: ratio4(r.it.totalP + r.ni.employeeP + r.loansP, grossP),
    marginal_rate: r.marginalPpm / 1_000_000,
    employer_costs: { employer_ni: gbp(erNiP), total_cost_to_employer: gbp(grossP + erNiP) },
  };
}

export const takeHome: Handler = (req, ctx) => {
  const b = req.body as ScenarioBody & { tax_year?: string };
  const y = calcYear(b.tax_year, ctx);
  const r = runTakeHome(y, b);
  return ok(takeHomeData(y, b, r), meta({ source: HMRC, source_url: URL_INCOME_TAX }));
};
