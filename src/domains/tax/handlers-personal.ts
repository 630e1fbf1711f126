/**
 * Local handlers of the personal-tax routes (spec doc 3 §4 "Tax", GOVDATA-NOTES.md "Tax"): tax years, income
 * tax bands and calculation, National Insurance, take-home pay, scenario comparison, employer cost, student loans
 * and pension allowances. Shapes the spec leaves "not shown" are designed in docs/tax-personal.md.
 */
import { ApiError, errors } from '../../contract/errors.js';
import { meta, ok, paged } from '../../contract/envelope.js';
import type { Handler, HandlerContext } from '../../contract/types.js';
import { applyPpm, divRound, ratePpm, toPence, toPounds } from '../../money.js';
import {
  class1,
  incomeTax,
  MaIneligible,
  selfEmployed,
  studentLoans,
  takeHomeCore,
  type IncomeTaxResult,
  type NiSlice,
  type PensionType,
  type Region,
  type TakeHomeResult,
} from './personal-calc.js';
import { coveredYearSet, raw, yearParams, type Band, type Category, type YearParams } from './personal-params.js';
import { currentTaxYear, resolveTaxYear } from './tax-year.js';

const HMRC = 'HM Revenue & Customs';
const URL_INCOME_TAX = 'https://www.gov.uk/income-tax-rates';
const URL_NI_LETTERS = 'https://www.gov.uk/national-insurance-rates-letters';
const URL_STUDENT_LOANS = 'https://www.gov.uk/repaying-your-student-loan/what-you-pay';
const URL_PENSIONS = 'https://www.gov.uk/tax-on-your-private-pension/annual-allowance';

/** Pence to pounds for output. */
const gbp = toPounds;

/** A request amount in pounds to pence (src/money.ts toPence); beyond £1bn a 400 naming the field. */
function amountP(pounds: number, field: string): number {
  try {
    return toPence(pounds);
  } catch {
    throw errors.badRequest(`Invalid field '${field}': at most £1,000,000,000.`);
  }
}

/** a / b as a fraction rounded half-up to 4 dp (0 when b is 0). */
function ratio4(aP: number, bP: number): number {
  if (bP <= 0) return 0;
  return divRound(aP * 10_000, bP, 'half-up') / 10_000;
}

function params(year: string): YearParams {
  const y = yearParams(year);
  if (!y) throw errors.invalidTaxYear(year);
  return y;
}

/** Resolve `tax_year` (body or path; default the current year) against the calculators' coverage. */
function calcYear(value: unknown, ctx: HandlerContext): YearParams {
  return params(resolveTaxYear(value, ctx.now(), coveredYearSet()));
}

function maErrorToApi(e: unknown, region: Region): never {
  if (e instanceof MaIneligible) {
    throw errors.unprocessable(
      'marriage_allowance_ineligible',
      e.message === 'no Marriage Allowance this year'
        ? 'Marriage Allowance exists from 2015-16.'
        : region === 'scotland'
          ? 'The Marriage Allowance recipient must not pay tax above the intermediate rate (Scotland: starter, basic or intermediate rate taxpayers only).'
          : 'The Marriage Allowance recipient must be a basic-rate taxpayer (not liable at the higher or additional rate).',
    );
  }
  throw e;
}

function checkMaFlags(body: Record<string, unknown>): void {
  if (body.marriage_allowance_recipient === true && body.marriage_allowance_transferor === true) {
    throw errors.badRequest("Fields 'marriage_allowance_recipient' and 'marriage_allowance_transferor' cannot both be true.");
  }
}

// ---------------------------------------------------------------- tax years

interface TaxYearOut {
  identifier: string;
  start_date: string;
  end_date: string;
  active: boolean;
  key_dates: Record<string, string | null>;
}

function taxYearsAll(now: Date): TaxYearOut[] {
  const cur = currentTaxYear(now);
  return Object.entries(raw.taxYears().years)
    .map(([id, y]) => ({ identifier: id, start_date: y.start_date, end_date: y.end_date, active: id === cur, key_dates: { ...y.key_dates } }))
    .sort((a, b) => (a.identifier < b.identifier ? 1 : -1));
}

/** Newest first (docs/tax-personal.md). */
export const taxYearsList: Handler = (req, ctx) => {
  const page = (req.query.page as number) ?? 1;
  const perPage = (req.query.per_page as number) ?? 25;
  return paged(taxYearsAll(ctx.now()), page, perPage, meta());
};

export const taxYearsCurrent: Handler = (_req, ctx) => {
  const y = taxYearsAll(ctx.now()).find((t) => t.active);
  if (!y) throw new ApiError(404, 'no_active_tax_year', 'No tax year is active.');
  return ok(y, meta());
};

export const taxYearsGet: Handler = (req, ctx) => {
  const id = req.params.identifier as string;
  const y = taxYearsAll(ctx.now()).find((t) => t.identifier === id);
  if (!y) throw errors.invalidTaxYear(id);
  return ok(y, meta());
};

// ---------------------------------------------------------------- income tax

/**
 * Band edges on GROSS income with the standard allowance (GOVDATA-NOTES): from = PA + lower limit, to = PA +
 * upper limit; limits at or above the end of the taper zone (where the allowance is nil) are shown unchanged.
 */
function grossBands(bands: Band[], year: YearParams, withLabel: boolean): Record<string, unknown>[] {
  const paP = year.it.paP;
  const taperEndP = year.it.taperThresholdP === null ? Infinity : year.it.taperThresholdP + 2 * paP;
  const edgeP = (limitP: number): number => (limitP >= taperEndP ? limitP : limitP + paP);
  let lowerP = 0;
  return bands.map((b) => {
    const toP = b.limitP === Infinity ? null : b.limitP;
    const out: Record<string, unknown> = { name: b.name };
    if (withLabel && b.label) out.label = b.label;
    out.rate = b.rate;
    out.from = gbp(lowerP === 0 ? paP : edgeP(lowerP));
    out.to = toP === null ? null : gbp(edgeP(toP));
    lowerP = toP ?? 0;
    return out;
  });
}

export const incomeBands: Handler = (req, ctx) => {
  const y = calcYear(req.params.tax_year, ctx);
  const data = {
    tax_year: y.year,
    personal_allowance: gbp(y.it.paP),
    personal_allowance_taper_threshold: y.it.taperThresholdP === null ? null : gbp(y.it.taperThresholdP),
    regions: {
      england_wales_ni: { bands: grossBands(y.it.ruk, y, true) },
      scotland: { bands: grossBands(y.it.scot, y, !y.it.scotOwn) },
    },
  };
  return ok(data, meta({ source: HMRC, source_url: URL_INCOME_TAX }));
};

function breakdownOut(it: IncomeTaxResult): Record<string, unknown>[] {
  return it.slices.map((s) => ({ band: s.band.name, rate: s.band.rate, taxable_amount: gbp(s.amountP), tax: gbp(s.taxP) }));
}

function maOut(y: YearParams, it: IncomeTaxResult, body: Record<string, unknown>): Record<string, unknown> | undefined {
  if (body.marriage_allowance_recipient === true) {
    return { role: 'recipient', eligible: true, transferred_amount: gbp(y.it.ma!.transferableP), tax_reduction: gbp(it.maReductionP) };
  }
  if (body.marriage_allowance_transferor === true && y.it.ma) {
    return { role: 'transferor', eligible: true, transferred_amount: gbp(y.it.ma.transferableP), tax_reduction: 0 };
  }
  return undefined;
}

export const incomeCalculate: Handler = (req, ctx) => {
  const b = req.body as Record<string, unknown>;
  checkMaFlags(b);
  const y = calcYear(b.tax_year, ctx);
  const region = b.region as Region;
  const grossP = amountP(b.gross_income as number, 'gross_income');
  if (b.marriage_allowance_transferor === true && !y.it.ma) maErrorToApi(new MaIneligible('no Marriage Allowance this year'), region);
  let it: IncomeTaxResult;
  try {
    it = incomeTax(y, { grossP, region, maRecipient: b.marriage_allowance_recipient === true, maTransferor: b.marriage_allowance_transferor === true, bpa: b.blind_persons_allowance === true });
  } catch (e) {
    maErrorToApi(e, region);
  }
  const data: Record<string, unknown> = {
    gross_income: gbp(grossP),
    personal_allowance: gbp(it.paP),
    taxable_income: gbp(it.taxableP),
    tax_year: y.year,
    region,
    breakdown: breakdownOut(it),
    total_income_tax: gbp(it.totalP),
    effective_rate: ratio4(it.totalP, grossP),
  };
  const ma = maOut(y, it, b);
  if (ma) data.marriage_allowance = ma;
  if (b.blind_persons_allowance === true) data.blind_persons_allowance = gbp(y.it.bpaP ?? 0);
  return ok(data, meta({ source: HMRC, source_url: URL_INCOME_TAX }));
};

// ---------------------------------------------------------------- National Insurance

const annualWeekly = (annual: number | null, weekly: number | null) => ({ annual, weekly });

export const niThresholds: Handler = (req, ctx) => {
  const y = calcYear(req.params.tax_year, ctx);
  const r = y.ni.raw;
  const entry = r.structure === 'entry_charge';
  const data: Record<string, unknown> = {
    tax_year: y.year,
    structure: r.structure,
    employee: {
      lower_earnings_limit: annualWeekly(r.annual.lower_earnings_limit, r.weekly.lower_earnings_limit),
      primary_threshold: annualWeekly(r.annual.primary_threshold, r.weekly.primary_threshold),
      upper_earnings_limit: annualWeekly(r.annual.upper_earnings_limit, r.weekly.upper_earnings_limit),
      ...(entry ? { entry_rate: r.employee.entry_rate } : {}),
      main_rate: r.employee.main_rate,
      upper_rate: r.employee.upper_rate,
    },
    employer: entry
      ? {
          secondary_threshold: annualWeekly(null, null),
          slab_brackets: y.ni.slabs!.map((s, i, all) => ({
            from: gbp(s.fromP),
            to: all[i + 1] ? gbp(all[i + 1]!.fromP) : null,
            weekly_from: r.employer.slab_brackets_weekly![i]!.from,
            rate: s.rate,
          })),
        }
      : {
          secondary_threshold: annualWeekly(r.annual.secondary_threshold, r.weekly.secondary_threshold),
          rate: r.employer.rate,
          ...(r.upper_secondary_thresholds_annual ? { upper_secondary_thresholds: { ...r.upper_secondary_thresholds_annual } } : {}),
        },
    self_employed: {
      class_2_small_profits_threshold: { annual: r.class_2.threshold },
      class_2_threshold_name: r.class_2.threshold_name,
      class_2_weekly_rate: r.class_2.weekly_rate,
      class_2_compulsory: r.class_2.compulsory,
      class_4_lower_profit_limit: { annual: r.class_4.lower_profits_limit },
      class_4_upper_profit_limit: { annual: r.class_4.upper_profits_limit },
      class_4_main_rate: r.class_4.main_rate,
      class_4_upper_rate: r.class_4.upper_rate,
    },
    employment_allowance: y.ni.eaP === null ? null : gbp(y.ni.eaP),
  };
  if (r.periods) data.in_year_changes = r.periods;
  return ok(data, meta({ source: HMRC, source_url: y.ni.sourceUrl }));
};

function categoryOut(c: Category): Record<string, unknown> {
  return {
    letter: c.letter,
    description: c.description,
    group: c.group,
    employee: { rate_main: c.employee.rate_main, rate_upper: c.employee.rate_upper },
    employer: { rate: c.employer.rate, reduced_rate: c.employer.reduced_rate },
  };
}

export const niCategories: Handler = (req, ctx) => {
  const y = calcYear(req.params.tax_year, ctx);
  if (!y.ni.categories) {
    const have = Object.keys(raw.categories().years).join(', ');
    throw new ApiError(404, 'invalid_tax_year', `No National Insurance category-letter table for ${y.year} (available: ${have}).`);
  }
  return ok({ tax_year: y.year, categories: [...y.ni.categories.values()].map(categoryOut) }, meta({ source: HMRC, source_url: URL_NI_LETTERS }));
};

/** NI slices for output; take-home and employer cost leave out `earnings` (their spec shape). */
function niSlicesOut(s: NiSlice[], withEarnings = true): Record<string, unknown>[] {
  return s.map((x) => ({
    band: x.band,
    from: gbp(x.fromP),
    to: x.toP === null ? null : gbp(x.toP),
    rate: x.rate,
    ...(withEarnings ? { earnings: gbp(x.earningsP) } : {}),
    amount: gbp(x.amountP),
  }));
}

function resolveCategory(y: YearParams, value: unknown): Category | undefined {
  if (value === undefined) return y.ni.categories?.get('A');
  const letter = String(value).trim().toUpperCase();
  if (y.ni.categories) {
    const c = y.ni.categories.get(letter);
    if (!c) throw errors.badRequest(`Invalid field 'category': '${String(value)}' is not a category letter in ${y.year}. Allowed: ${[...y.ni.categories.keys()].join(', ')}.`);
    return c;
  }
  if (letter !== 'A') {
    throw errors.badRequest(`Invalid field 'category': only category A is available for ${y.year}; letter tables start in ${Object.keys(raw.categories().years)[0]}.`);
  }
  return undefined;
}

export const niCalculate: Handler = (req, ctx) => {
  const b = req.body as Record<string, unknown>;
  const type = b.type as 'employed' | 'self_employed';
  if (b.director === true && type !== 'employed') {
    throw errors.unprocessable('director_not_applicable', "The directors' annual method applies only to type 'employed'.");
  }
  if (type === 'employed' && b.annual_salary === undefined) throw errors.badRequest("Missing required field 'annual_salary' for type 'employed'.");
  if (type === 'self_employed' && b.annual_profit === undefined) throw errors.badRequest("Missing required field 'annual_profit' for type 'self_employed'.");
  const y = calcYear(b.tax_year, ctx);
  const m = meta({ source: HMRC, source_url: y.ni.sourceUrl });
  if (type === 'self_employed') {
    const profitP = amountP(b.annual_profit as number, 'annual_profit');
    const r = selfEmployed(y.ni, profitP);
    const c2 = y.ni.class2;
    return ok(
      {
        annual_profit: gbp(profitP),
        tax_year: y.year,
        type,
        class_2: {
          weekly_rate: c2.weeklyRate,
          weeks: r.class2.weeks,
          threshold: c2.threshold,
          threshold_name: c2.thresholdName,
          compulsory: c2.compulsory,
          status: r.class2.status,
          contributions: gbp(r.class2.amountP),
          voluntary_amount: gbp(r.class2.voluntaryP),
        },
        class_4: { contributions: gbp(r.class4P), breakdown: niSlicesOut(r.class4) },
        total_contributions: gbp(r.class2.amountP + r.class4P),
      },
      m,
    );
  }
  const cat = resolveCategory(y, b.category);
  const salaryP = amountP(b.annual_salary as number, 'annual_salary');
  const r = class1(y.ni, salaryP, cat);
  return ok(
    {
      annual_salary: gbp(salaryP),
      tax_year: y.year,
      type,
      method: b.director === true ? 'directors_annual' : 'standard',
      category: cat?.letter ?? 'A',
      employee: { contributions: gbp(r.employeeP), breakdown: niSlicesOut(r.employee) },
      employer: { contributions: gbp(r.employerP), breakdown: niSlicesOut(r.employer) },
      total_contributions: gbp(r.employeeP + r.employerP),
    },
    m,
  );
};

// ---------------------------------------------------------------- take-home

interface ScenarioBody {
  gross_income: number;
  region: Region;
  marriage_allowance_recipient?: boolean;
  marriage_allowance_transferor?: boolean;
  blind_persons_allowance?: boolean;
  student_loan_plans?: string[];
  pension_contribution_percent?: number;
  pension_type?: PensionType;
}

function runTakeHome(y: YearParams, b: ScenarioBody): TakeHomeResult {
  checkMaFlags(b as unknown as Record<string, unknown>);
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
function takeHomeData(y: YearParams, b: ScenarioBody, r: TakeHomeResult): Record<string, unknown> {
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

// ---------------------------------------------------------------- compare

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

// ---------------------------------------------------------------- employer cost

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

// ---------------------------------------------------------------- student loans

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

// ---------------------------------------------------------------- pensions

export const pensionAllowances: Handler = (req, ctx) => {
  const file = raw.pensions();
  const year = resolveTaxYear(req.params.tax_year, ctx.now(), Object.keys(file.years));
  const y = file.years[year]!;
  return ok(
    { tax_year: year, allowances: y.allowances.map((a) => ({ allowance_type: a.allowance_type, amount: a.amount })), taper_rate: y.taper_rate },
    meta({ source: HMRC, source_url: URL_PENSIONS }),
  );
};


