/** Two take-home scenarios compared. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { divRound } from '../../../money.js';
import { HMRC, URL_INCOME_TAX, amountP, calcYear } from './common.js';
import { runTakeHome, takeHomeData, type ScenarioBody } from './take-home.js';

/**
 * B minus A on integers (pence, or parts per million for rates): `absolute` in output units, `percentage`
 * of A to 2 dp, half up; null when A is 0.
 */
function diff(a: number, b: number, unit: number): { absolute: number; percentage: number | null } {
  return { absolute: (b - a) / unit, percentage: a === 0 ? null : divRound((b - a) * 10_000, Math.abs(a), 'half-up') / 100 };
}

export const compare: Handler = (req, ctx) => {
  const body = req.body as Record<string, unknown>;
  const y = calcYear(body.tax_year, ctx);
  // Each scenario was validated (defaults filled in) with the body: see compareScenarioFields in the route spec.
  const sa = body.scenario_a as ScenarioBody;
  const sb = body.scenario_b as ScenarioBody;
  const ra = runTakeHome(y, sa);
  const rb = runTakeHome(y, sb);
  const da = takeHomeData(y, sa, ra);
  const db = takeHomeData(y, sb, rb);
  const differences = {
    gross_income: diff(amountP(sa.gross_income, 'scenario_a.gross_income'), amountP(sb.gross_income, 'scenario_b.gross_income'), 100),
    net_annual: diff(ra.netP, rb.netP, 100),
    total_deductions: diff(ra.totalDeductionsP, rb.totalDeductionsP, 100),
    income_tax: diff(ra.it.totalP, rb.it.totalP, 100),
    national_insurance: diff(ra.ni.employeeP, rb.ni.employeeP, 100),
    marginal_rate: diff(ra.marginalPpm, rb.marginalPpm, 1_000_000),
  };
  return ok({ tax_year: y.year, scenario_a: da, scenario_b: db, differences }, meta({ source: HMRC, source_url: URL_INCOME_TAX }));
};
