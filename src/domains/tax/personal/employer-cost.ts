/** The cost of employing. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { errors } from '../../../contract/errors.js';
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { applyPpm, divRound, ratePpm } from '../../../money.js';
import { class1 } from '../personal-calc.js';
import { HMRC, gbp, amountP, calcYear } from './common.js';
import { niSlicesOut } from './ni.js';

export const employerCost: Handler = (req, ctx) => {
  const b = req.body as { annual_salary: number; tax_year?: string; pension_rate: number; num_employees: number; employment_allowance: boolean };
  const y = calcYear(b.tax_year, ctx);
  const salaryP = amountP(b.annual_salary, 'annual_salary');
  let pensionPpm: number;
  try {
    pensionPpm = ratePpm(b.pension_rate);
  } catch {
    throw errors.badRequest("Invalid field 'pension_rate': at most 6 decimal places.");
  }
  const n = b.num_employees;
  const r = class1(y.ni, salaryP, y.ni.categories?.get('A'));
  const pensionP = applyPpm(salaryP, pensionPpm, 'half-up');
  const perTotalP = salaryP + r.employerP + pensionP;
  const niTotalP = r.employerP * n;
  // Employment Allowance: the year's amount once, against the employer's total secondary Class 1 NI, floored at 0.
  let eaP = 0;
  if (b.employment_allowance && y.ni.eaP !== null) eaP = niTotalP < y.ni.eaP ? niTotalP : y.ni.eaP;
  const totalP = perTotalP * n - eaP;
  const data: Record<string, unknown> = {
    tax_year: y.year,
    per_employee: {
      annual_salary: gbp(salaryP),
      employer_ni: gbp(r.employerP),
      employer_ni_breakdown: niSlicesOut(r.employer, false),
      employer_pension: gbp(pensionP),
      pension_rate: b.pension_rate,
      total_cost: gbp(perTotalP),
    },
    num_employees: n,
    employer_ni_before_allowance: gbp(niTotalP),
    employment_allowance_applied: gbp(eaP),
    total_annual_cost: gbp(totalP),
    monthly_cost: gbp(divRound(totalP, 12, 'half-up')),
  };
  if (b.employment_allowance && y.ni.eaP === null) data.employment_allowance_note = 'The Employment Allowance exists from 2014-15.';
  return ok(data, meta({ source: HMRC, source_url: y.ni.sourceUrl }));
};
