/** National Insurance: thresholds, category letters and the calculation. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { ApiError, errors } from '../../../contract/errors.js';
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { class1, selfEmployed, type NiSlice } from '../personal-calc.js';
import { raw, type Category, type YearParams } from '../personal-params.js';
import { HMRC, URL_NI_LETTERS, gbp, amountP, calcYear } from './common.js';

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
    // The spec types the employer rate a number (only the employee rates may be null): a letter with no
    // employer liability (X) pays 0%, as the calculator charges it (personal-calc.ts class1).
    employer: { rate: c.employer.rate ?? 0, reduced_rate: c.employer.reduced_rate },
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
export function niSlicesOut(s: NiSlice[], withEarnings = true): Record<string, unknown>[] {
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
