/** Student loans: thresholds and repayments. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler, HandlerContext } from '../../../contract/types.js';
import { studentLoans } from '../personal-calc.js';
import { raw, type YearParams } from '../personal-params.js';
import { resolveTaxYear } from '../tax-year.js';
import { URL_STUDENT_LOANS, gbp, amountP, params } from './common.js';

function loanYear(value: unknown, ctx: HandlerContext): YearParams {
  const years = Object.keys(raw.studentLoans().years);
  return params(resolveTaxYear(value, ctx.now(), years));
}

export const studentLoanThresholds: Handler = (req, ctx) => {
  const y = loanYear(req.params.tax_year, ctx);
  return ok(
    { tax_year: y.year, thresholds: y.studentLoans!.map((p) => ({ plan_type: p.plan_type, annual_threshold: p.threshold, rate: p.rate })) },
    meta({ source: 'Student Loans Company / HM Revenue & Customs', source_url: URL_STUDENT_LOANS }),
  );
};

export const studentLoanCalculate: Handler = (req, ctx) => {
  const b = req.body as { annual_income: number; plan_types: string[]; tax_year?: string };
  const y = loanYear(b.tax_year, ctx);
  const incomeP = amountP(b.annual_income, 'annual_income');
  const reps = studentLoans(y, incomeP, b.plan_types);
  let total = 0;
  for (const r of reps) total += r.amountP;
  return ok(
    {
      annual_income: gbp(incomeP),
      tax_year: y.year,
      repayments: reps.map((r) => ({ plan_type: r.plan_type, threshold: r.threshold, rate: r.rate, amount: gbp(r.amountP) })),
      total_repayment: gbp(total),
    },
    meta({ source: 'Student Loans Company / HM Revenue & Customs', source_url: URL_STUDENT_LOANS }),
  );
};
