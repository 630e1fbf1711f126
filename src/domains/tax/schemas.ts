/**
 * Response schemas of the tax routes, transcribed from docs/spec/3-tax-vehicles-calendar.md (§2 Tax resources,
 * §4 Endpoints) and GOVDATA-NOTES.md §Tax. This file: tax years, income tax, National Insurance, take-home,
 * compare, employer cost, student loans, pensions; schemas-business.ts: VAT, capital gains, dividends,
 * corporation tax; schemas-vat-return.ts: the VAT return. Fields publicdata adds beyond the spec are `ext()`
 * (documented in docs/tax-personal.md "Response shapes designed here"); where the spec says "not shown" the
 * shape is the one built, said so in `source`.
 */
import { arr, bool, date, ext, int, nullable, num, obj, oneOf, record, anyOf, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';
import { businessResponses } from './schemas-business.js';
import { META, META_SOURCE_URL, SPEC, taxYear } from './schemas-common.js';
import { vatReturnResponses } from './schemas-vat-return.js';

// ---------------------------------------------------------------- tax years

/** Self Assessment (and so its key dates) began in 1996-97: the years before it have no such date. */
const saDate = (what: string) => nullable(date(`${what}; null for years before Self Assessment (1996-97), which had no such date`));

const taxYearResource = obj({
  identifier: taxYear(),
  start_date: date(),
  end_date: date(),
  active: bool('the current tax year (exactly one is active)'),
  key_dates: obj({
    self_assessment_deadline: saDate('online Self Assessment return deadline'),
    payment_on_account_first: saDate('first payment on account'),
    payment_on_account_second: saDate('second payment on account'),
    p60_deadline: date(),
    p11d_deadline: saDate('P11D deadline'),
  }),
});

// ---------------------------------------------------------------- income tax

/** Band names: the spec's (and GOVDATA-NOTES' advanced_rate) plus the historical ones of 1990-91 to 2007-08. */
const RUK_BANDS = ['starting_rate', 'lower_rate', 'basic_rate', 'higher_rate', 'additional_rate'] as const;
const SCOT_BANDS = ['starter_rate', 'intermediate_rate', 'advanced_rate', 'top_rate'] as const;
const BAND_NOTE = 'the spec names basic_rate, higher_rate, additional_rate (england_wales_ni) and starter_rate, basic_rate, intermediate_rate, higher_rate, top_rate (scotland); advanced_rate (Scotland, from 2024-25, GOVDATA-NOTES) and the historical starting_rate/lower_rate (before 2008-09) also occur';

const bandFields = {
  rate: num('fraction'),
  from: num('gross income, pounds (band edges on gross income with the standard allowance)'),
  to: nullable(num('null for the top band')),
};
const ewniBand = obj({ name: oneOf(RUK_BANDS, BAND_NOTE), label: str(), ...bandFields });
const scotBand = obj(
  { name: oneOf([...RUK_BANDS, ...SCOT_BANDS], `${BAND_NOTE}; before Scotland's own bands (2017-18) the UK ones`), label: str('absent on Scotland’s own bands (present before 2017-18, when they were the UK bands)'), ...bandFields },
  { optional: ['label'] },
);

const incomeBands = obj({
  tax_year: taxYear(),
  personal_allowance: num(),
  personal_allowance_taper_threshold: nullable(num('null before 2010-11, when the allowance had no taper (the spec, which states number, is silent on those years)')),
  regions: obj({ england_wales_ni: obj({ bands: arr(ewniBand) }), scotland: obj({ bands: arr(scotBand) }) }),
});

const itSlice = obj({ band: oneOf([...RUK_BANDS, ...SCOT_BANDS], BAND_NOTE), rate: num('fraction'), taxable_amount: num(), tax: num() });

const marriageAllowance = obj({
  role: ext(oneOf(['recipient', 'transferor']), 'which side of the transfer (also present for the transferor flag)'),
  eligible: bool(),
  transferred_amount: num(),
  tax_reduction: num('0 for the transferor'),
});

const REGION = oneOf(['england_wales_ni', 'scotland']);
const PLANS = ['plan_1', 'plan_2', 'plan_4', 'plan_5', 'postgraduate'] as const;

const incomeCalculate = obj(
  {
    gross_income: int('pounds (the request’s integer)'),
    personal_allowance: num(),
    taxable_income: num(),
    tax_year: taxYear(),
    region: REGION,
    breakdown: arr(itSlice, 'bands with income in them'),
    total_income_tax: num(),
    effective_rate: num('fraction'),
    marriage_allowance: marriageAllowance,
    blind_persons_allowance: ext(num(), "Blind Person's Allowance added (when that flag is set)"),
  },
  { optional: ['marriage_allowance', 'blind_persons_allowance'] },
);

// ---------------------------------------------------------------- National Insurance

const annualWeekly = obj({ annual: nullable(num('null where the year has no such threshold (before 1999-2000)')), weekly: nullable(num()) });
const annual = obj({ annual: nullable(num('null where the year has no such limit')) });

const niThresholds = obj(
  {
    tax_year: taxYear(),
    structure: ext(oneOf(['thresholds', 'entry_charge']), 'entry_charge before 1999-2000 (employer slab brackets)'),
    employee: obj(
      {
        lower_earnings_limit: ext(annualWeekly, 'lower earnings limit'),
        primary_threshold: annualWeekly,
        upper_earnings_limit: annualWeekly,
        entry_rate: ext(num(), 'entry charge rate on earnings up to the LEL (before 1999-2000)'),
        main_rate: ext(num(), 'rate between the primary threshold and the UEL'),
        upper_rate: ext(num(), 'rate above the UEL'),
      },
      { optional: ['entry_rate'] },
    ),
    employer: obj(
      {
        secondary_threshold: obj({ annual: nullable(num('null before 1999-2000 (slab brackets instead)')), weekly: ext(nullable(num()), 'weekly secondary threshold') }),
        rate: ext(num(), 'secondary Class 1 rate'),
        upper_secondary_thresholds: ext(record(num()), 'annual upper secondary thresholds by name (under 21, apprentices, veterans, freeports, investment zones)'),
        slab_brackets: ext(arr(obj({ from: num(), to: nullable(num()), weekly_from: num(), rate: num() })), 'employer slab brackets before 1999-2000 (rate on all earnings)'),
      },
      { optional: ['rate', 'upper_secondary_thresholds', 'slab_brackets'] },
    ),
    self_employed: obj({
      class_2_small_profits_threshold: annual,
      class_2_threshold_name: ext(str(), 'what the Class 2 threshold was called that year'),
      class_2_weekly_rate: ext(num(), 'Class 2 weekly rate'),
      class_2_compulsory: ext(bool(), 'false from 2024-25 (voluntary)'),
      class_4_lower_profit_limit: annual,
      class_4_upper_profit_limit: annual,
      class_4_main_rate: ext(num(), 'Class 4 main rate'),
      class_4_upper_rate: ext(num(), 'Class 4 upper rate'),
    }),
    employment_allowance: ext(nullable(num()), 'the year’s Employment Allowance; null before 2014-15'),
    in_year_changes: ext(record(anyOf(num(), record(num()))), 'rates that changed within the year (2022-23, 2023-24), by the date they took effect'),
  },
  { optional: ['in_year_changes'] },
);

const niCategory = obj({
  letter: str(),
  description: str(),
  group: str(),
  employee: obj({ rate_main: nullable(num('null where there is no employee contribution')), rate_upper: nullable(num()) }),
  employer: obj({ rate: num(), reduced_rate: bool('true: 0% up to the category’s own upper secondary threshold') }),
});

/** A slice of a NI breakdown (the spec: "not shown" for the NI calculation; from/to/rate/amount for take-home and employer cost). */
const niSliceFields = {
  from: num('band edge, pounds'),
  to: nullable(num('null when open')),
  rate: num('fraction'),
  amount: num(),
};
const NI_BANDS = 'primary_threshold_to_uel, above_uel, above_secondary_threshold, secondary_threshold_to_ust, above_ust, entry_charge, lel_to_uel, slab_N';
const niSliceFull = obj({ band: str(NI_BANDS), from: niSliceFields.from, to: niSliceFields.to, rate: niSliceFields.rate, earnings: num('the slice charged'), amount: niSliceFields.amount });
const niSlice = obj({ band: ext(str(NI_BANDS), 'which band the slice is'), ...niSliceFields });

const niEmployed = obj({
  annual_salary: int('pounds (the request’s integer)'),
  tax_year: taxYear(),
  type: oneOf(['employed']),
  method: oneOf(['standard', 'directors_annual']),
  category: ext(str(), 'the NI category letter used (default A)'),
  employee: obj({ contributions: num(), breakdown: arr(niSliceFull) }),
  employer: obj({ contributions: num(), breakdown: arr(niSliceFull) }),
  total_contributions: ext(num(), 'employee plus employer'),
});
const niSelfEmployed = obj({
  annual_profit: int('pounds (the request’s integer)'),
  tax_year: taxYear(),
  type: oneOf(['self_employed']),
  class_2: obj({
    weekly_rate: num(),
    weeks: int(),
    threshold: nullable(num()),
    threshold_name: str(),
    compulsory: bool(),
    status: oneOf(['payable', 'credited', 'below_threshold']),
    contributions: num(),
    voluntary_amount: num(),
  }),
  class_4: obj({ contributions: num(), breakdown: arr(niSliceFull) }),
  total_contributions: num(),
});

// ---------------------------------------------------------------- take-home, compare, employer cost

const takeHomeData: JsonSchema = obj({
  gross_income: int('pounds (the request’s integer)'),
  region: REGION,
  tax_year: taxYear(),
  deductions: obj(
    {
      income_tax: obj(
        {
          amount: num(),
          personal_allowance: num(),
          taxable_income: ext(num(), 'income after the personal allowance'),
          effective_rate: num('fraction of gross'),
          breakdown: arr(itSlice),
          marriage_allowance: marriageAllowance,
        },
        { optional: ['marriage_allowance'] },
      ),
      national_insurance: obj({ employee: num(), breakdown: arr(niSlice) }),
      student_loan: ext(
        obj({ amount: num(), repayments: arr(obj({ plan_type: oneOf(PLANS), threshold: num(), rate: num(), amount: num() })) }),
        'when student_loan_plans are given',
      ),
      pension: ext(
        obj({
          type: oneOf(['salary_sacrifice', 'net_pay', 'relief_at_source']),
          contribution_percent: num(),
          gross_contribution: num(),
          tax_relief_at_source: num(),
          amount: num('what leaves the pay'),
        }),
        'when pension_contribution_percent is given',
      ),
    },
    { optional: ['student_loan', 'pension'] },
  ),
  net_annual: num(),
  net_monthly: num(),
  net_weekly: num(),
  total_deductions: num(),
  effective_rate: ext(num(), '(income tax + employee NI + student loans) / gross'),
  marginal_rate: num('fraction'),
  employer_costs: obj({ employer_ni: num(), total_cost_to_employer: num() }),
});

const difference = obj({ absolute: num('B minus A'), percentage: nullable(num('percent of A, 2 dp; null when A is 0')) });
const compareData = obj({
  tax_year: ext(taxYear(), 'the shared tax year'),
  scenario_a: takeHomeData,
  scenario_b: takeHomeData,
  differences: obj({
    gross_income: difference,
    net_annual: difference,
    total_deductions: difference,
    income_tax: difference,
    national_insurance: difference,
    marginal_rate: difference,
  }),
});

const employerCost = obj(
  {
    tax_year: taxYear(),
    per_employee: obj({
      annual_salary: num(),
      employer_ni: num(),
      employer_ni_breakdown: arr(niSlice),
      employer_pension: num(),
      pension_rate: num('fraction'),
      total_cost: num(),
    }),
    num_employees: int(),
    employer_ni_before_allowance: num(),
    employment_allowance_applied: num(),
    total_annual_cost: num(),
    monthly_cost: num(),
    employment_allowance_note: ext(str(), 'when the allowance was asked for a year before it existed (2014-15)'),
  },
  { optional: ['employment_allowance_note'] },
);

// ---------------------------------------------------------------- student loans, pensions

const studentLoanPlan = obj({ plan_type: oneOf(PLANS), annual_threshold: num(), rate: num('0.09 for the plans, 0.06 for postgraduate') });
const studentLoanCalculate = obj({
  annual_income: num(),
  tax_year: taxYear(),
  repayments: arr(obj({ plan_type: oneOf(PLANS), threshold: num(), rate: num(), amount: num() })),
  total_repayment: num(),
});
const pensionAllowances = obj({
  tax_year: taxYear(),
  allowances: arr(obj({ allowance_type: oneOf(['annual', 'mpaa', 'tapered_threshold_income', 'tapered_adjusted_income', 'minimum_tapered']), amount: num() })),
  taper_rate: ext(num(), 'allowance lost per pound of adjusted income over the tapered threshold'),
});

// ---------------------------------------------------------------- the routes

const both = (id: string, data: JsonSchema, meta: readonly string[], source: string): ResponseSchemas => ({
  [id]: { data, meta, source },
  [`${id}.year`]: { data, meta, source },
});

const personalResponses: ResponseSchemas = {
  'tax.years.list': { data: arr(taxYearResource), meta: META, source: `${SPEC} §2 Tax year, §4 Tax years; GOVDATA-NOTES.md §Tax (example item; meta only api_version and licence)` },
  'tax.years.current': { data: taxYearResource, meta: META, source: `${SPEC} §2 Tax year, §4 Tax years` },
  'tax.years.get': { data: taxYearResource, meta: META, source: `${SPEC} §2 Tax year, §4 Tax years` },
  ...both('tax.income.bands', incomeBands, META_SOURCE_URL, `${SPEC} §2 Income tax band, §4 Income tax; GOVDATA-NOTES.md §Tax (example)`),
  'tax.income.calculate': { data: incomeCalculate, meta: META, source: `${SPEC} §4 Income tax (POST calculate)` },
  ...both('tax.ni.thresholds', niThresholds, META, `${SPEC} §4 National Insurance (thresholds)`),
  ...both('tax.ni.categories', obj({ tax_year: taxYear(), categories: arr(niCategory) }), META, `${SPEC} §2 National Insurance category, §4 National Insurance (categories)`),
  'tax.ni.calculate': {
    data: anyOf(niEmployed, niSelfEmployed),
    meta: META,
    source: `${SPEC} §4 National Insurance (POST calculate): employed fields as the spec; the self-employed shape and the breakdown items are "not shown", so as built (docs/tax-personal.md)`,
  },
  'tax.take-home.calculate': { data: takeHomeData, meta: META, source: `${SPEC} §4 Take-home pay` },
  'tax.compare': { data: compareData, meta: META, source: `${SPEC} §4 Scenario comparison ("further take-home fields": each scenario is the take-home data)` },
  'tax.employer-cost.calculate': { data: employerCost, meta: META, source: `${SPEC} §4 Employer cost` },
  ...both('tax.student-loan.thresholds', obj({ tax_year: taxYear(), thresholds: arr(studentLoanPlan) }), META, `${SPEC} §2 Student loan plan, §4 (student loans)`),
  'tax.student-loan.calculate': { data: studentLoanCalculate, meta: META, source: `${SPEC} §4 (student loans, POST calculate)` },
  ...both('tax.pension.allowances', pensionAllowances, META, `${SPEC} §4 (pensions)`),
};

export const responses: ResponseSchemas = { ...personalResponses, ...businessResponses, ...vatReturnResponses };
