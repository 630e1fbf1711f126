/** Pension allowances. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { raw } from '../personal-params.js';
import { resolveTaxYear } from '../tax-year.js';
import { HMRC, URL_PENSIONS } from './common.js';

export const pensionAllowances: Handler = (req, ctx) => {
  const file = raw.pensions();
  const year = resolveTaxYear(req.params.tax_year, ctx.now(), Object.keys(file.years));
  const y = file.years[year]!;
  return ok(
    { tax_year: year, allowances: y.allowances.map((a) => ({ allowance_type: a.allowance_type, amount: a.amount })), taper_rate: y.taper_rate },
    meta({ source: HMRC, source_url: URL_PENSIONS }),
  );
};
