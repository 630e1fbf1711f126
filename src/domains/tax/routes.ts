/**
 * /v1/tax routes (spec doc 3 §4 "Tax", GOVDATA-NOTES.md "Tax").
 * Every calculator accepts an optional `tax_year` (default: the current year by the clock).
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, POST_COST, paging, taxRegion, taxYearBody, taxYearPath } from '../../contract/params.js';

const YEAR_ERRORS = ['invalid_tax_year'] as const;
const CALC_ERRORS = ['bad_request', 'invalid_tax_year'] as const;

export const STUDENT_LOAN_PLANS = ['plan_1', 'plan_2', 'plan_4', 'plan_5', 'postgraduate'] as const;
export const PENSION_TYPES = ['salary_sacrifice', 'net_pay', 'relief_at_source'] as const;
export const CGT_ASSET_TYPES = ['residential_property', 'other_assets', 'business_asset_disposal'] as const;

const maFields: ParamSpec[] = [
  {
    name: 'marriage_allowance_recipient',
    type: 'boolean',
    description: 'receives a transferred Marriage Allowance (basic-rate taxpayers only; Scotland: starter, basic or intermediate)',
  },
  {
    name: 'marriage_allowance_transferor',
    type: 'boolean',
    excludes: ['marriage_allowance_recipient'],
    description: 'transfers Marriage Allowance: own personal allowance reduced by the transferable amount',
  },
  {
    name: 'blind_persons_allowance',
    type: 'boolean',
    description: "adds Blind Person's Allowance to the personal allowance (not tapered)",
  },
];

/** Scenario fields shared by take-home and each compare scenario (spec: compare scenario). */
export const scenarioFields: ParamSpec[] = [
  {
    name: 'student_loan_plans',
    type: 'string[]',
    enum: STUDENT_LOAN_PLANS,
    description: 'student loan plans repaid through payroll',
  },
  {
    name: 'pension_contribution_percent',
    type: 'number',
    min: 0,
    max: 100,
    maxDecimals: 4,
    description: 'employee pension contribution, percent of gross',
  },
  {
    name: 'pension_type',
    type: 'string',
    enum: PENSION_TYPES,
    description: 'salary_sacrifice (cuts tax and NI), net_pay (cuts tax) or relief_at_source (basic relief added to the pot; higher relief via the band extension)',
  },
];

/** One scenario of `tax/compare`: the take-home fields (validated like the take-home body, errors name `scenario_a.field`). */
export const compareScenarioFields: ParamSpec[] = [
  { name: 'gross_income', type: 'integer', required: true, min: 0, description: 'annual gross, pounds' },
  taxRegion,
  ...maFields,
  ...scenarioFields,
];

/** A reference-data route for the current tax year and its `/{tax_year}` form (both written out by the caller). */
function byYear(
  id: string,
  path: string,
  yearId: string,
  yearPath: string,
  summary: string,
  records?: string,
): RouteSpec[] {
  return [
    { id, method: 'GET', path, domain: 'tax', summary: `${summary} (current tax year)`, cost: GET_COST, errors: [], ...(records ? { records } : {}) },
    {
      id: yearId,
      method: 'GET',
      path: yearPath,
      domain: 'tax',
      summary: `${summary} for a tax year`,
      pathParams: [taxYearPath],
      cost: GET_COST,
      errors: YEAR_ERRORS,
      ...(records ? { records } : {}),
    },
  ];
}

export const taxRoutes: RouteSpec[] = [
  {
    id: 'tax.years.list',
    method: 'GET',
    path: '/v1/tax/years',
    domain: 'tax',
    summary: 'Tax years with start/end and key dates',
    query: paging,
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'tax.years.current',
    method: 'GET',
    path: '/v1/tax/years/current',
    domain: 'tax',
    summary: 'The active tax year (by the clock)',
    cost: GET_COST,
    errors: ['no_active_tax_year'],
  },
  {
    id: 'tax.years.get',
    method: 'GET',
    path: '/v1/tax/years/{identifier}',
    domain: 'tax',
    summary: 'One tax year',
    pathParams: [{ ...taxYearPath, name: 'identifier' }],
    cost: GET_COST,
    errors: YEAR_ERRORS,
  },
  ...byYear('tax.income.bands', '/v1/tax/income/bands', 'tax.income.bands.year', '/v1/tax/income/bands/{tax_year}', 'Income tax bands, both regions'),
  {
    id: 'tax.income.calculate',
    method: 'POST',
    path: '/v1/tax/income/calculate',
    domain: 'tax',
    summary: 'Income tax on an annual gross income',
    body: [
      { name: 'gross_income', type: 'integer', required: true, min: 0, description: 'annual gross, pounds' },
      taxRegion,
      taxYearBody,
      ...maFields,
    ],
    cost: POST_COST,
    records: 'breakdown',
    errors: [...CALC_ERRORS, 'invalid_region', 'marriage_allowance_ineligible'],
  },
  ...byYear('tax.ni.thresholds', '/v1/tax/national-insurance/thresholds', 'tax.ni.thresholds.year', '/v1/tax/national-insurance/thresholds/{tax_year}', 'National Insurance thresholds'),
  ...byYear('tax.ni.categories', '/v1/tax/national-insurance/categories', 'tax.ni.categories.year', '/v1/tax/national-insurance/categories/{tax_year}',
    'National Insurance category letters',
    'categories',
  ),
  {
    id: 'tax.ni.calculate',
    method: 'POST',
    path: '/v1/tax/national-insurance/calculate',
    domain: 'tax',
    summary: 'National Insurance: employed (standard or directors), self-employed (Class 2 and 4)',
    body: [
      { name: 'annual_salary', type: 'integer', min: 0, description: 'pounds; required for employed' },
      { name: 'annual_profit', type: 'integer', min: 0, description: 'pounds; required for self_employed' },
      {
        name: 'type',
        type: 'string',
        enum: ['employed', 'self_employed'],
        default: 'employed',
        error: 'invalid_type',
        description: 'employed (default) or self_employed',
      },
      taxYearBody,
      { name: 'director', type: 'boolean', description: "directors' annual cumulative method (employed only)" },
      { name: 'category', type: 'string', description: 'NI category letter (employed; default A)' },
    ],
    cost: POST_COST,
    errors: [...CALC_ERRORS, 'invalid_type', 'director_not_applicable'],
  },
  {
    id: 'tax.take-home.calculate',
    method: 'POST',
    path: '/v1/tax/take-home/calculate',
    domain: 'tax',
    summary: 'Take-home pay: income tax, NI, student loans, pension; net annual/monthly/weekly',
    body: [
      { name: 'gross_income', type: 'integer', required: true, min: 0, description: 'annual gross, pounds' },
      taxRegion,
      taxYearBody,
      ...maFields,
      ...scenarioFields,
    ],
    cost: POST_COST,
    errors: [...CALC_ERRORS, 'invalid_region', 'marriage_allowance_ineligible'],
  },
  {
    id: 'tax.compare',
    method: 'POST',
    path: '/v1/tax/compare',
    domain: 'tax',
    summary: 'Compare two take-home scenarios',
    body: [
      { name: 'scenario_a', type: 'object', required: true, fields: compareScenarioFields, description: 'gross_income (required), region, student_loan_plans, pension_contribution_percent, pension_type' },
      { name: 'scenario_b', type: 'object', required: true, fields: compareScenarioFields, description: 'as scenario_a' },
      taxYearBody,
    ],
    cost: POST_COST,
    errors: [...CALC_ERRORS, 'invalid_region'],
  },
  {
    id: 'tax.employer-cost.calculate',
    method: 'POST',
    path: '/v1/tax/employer-cost/calculate',
    domain: 'tax',
    summary: 'Cost of employing: employer NI, pension, employment allowance',
    body: [
      { name: 'annual_salary', type: 'number', required: true, min: 0, description: 'gross, pounds' },
      taxYearBody,
      { name: 'pension_rate', type: 'number', min: 0, max: 1, maxDecimals: 6, default: 0.03, description: 'employer pension rate as a decimal' },
      { name: 'num_employees', type: 'integer', min: 1, default: 1, description: 'number of employees' },
      { name: 'employment_allowance', type: 'boolean', default: false, description: 'self-attested Employment Allowance' },
    ],
    cost: POST_COST,
    records: 'per_employee.employer_ni_breakdown',
    errors: CALC_ERRORS,
  },
  ...byYear('tax.vat.rates', '/v1/tax/vat/rates', 'tax.vat.rates.year', '/v1/tax/vat/rates/{tax_year}',
    'VAT rates and flat-rate scheme business types',
    'rates',
  ),
  {
    id: 'tax.vat.flat-rate-percentages',
    method: 'GET',
    path: '/v1/tax/vat/flat-rate-percentages',
    domain: 'tax',
    summary: 'VAT flat-rate scheme percentages by business category',
    cost: GET_COST,
    records: 'categories',
    errors: [],
  },
  {
    id: 'tax.vat.calculate',
    method: 'POST',
    path: '/v1/tax/vat/calculate',
    domain: 'tax',
    summary: 'Add VAT to a net amount or extract it from a gross amount',
    body: [
      { name: 'amount', type: 'number', required: true, min: 0, description: 'amount in pounds' },
      { name: 'rate', type: 'string', enum: ['standard', 'reduced', 'zero'], default: 'standard', description: 'standard, reduced or zero' },
      { name: 'direction', type: 'string', enum: ['exclusive', 'inclusive'], default: 'exclusive', description: 'exclusive adds VAT; inclusive extracts it' },
      taxYearBody,
      { name: 'date', type: 'date', description: 'supply date (picks the rate in force); default today' },
    ],
    cost: POST_COST,
    errors: CALC_ERRORS,
  },
  {
    id: 'tax.vat.return.calculate',
    method: 'POST',
    path: '/v1/tax/vat/return/calculate',
    domain: 'tax',
    summary: 'Nine-box VAT return from a period of transactions',
    query: [
      { name: 'breakdown_detail', type: 'string', enum: ['full', 'summary', 'none'], default: 'summary', description: 'full, summary (default) or none' },
    ],
    bodyDocument: true,
    cost: POST_COST,
    errors: ['VALIDATION_ERROR', 'bad_request', 'invalid_parameter'],
  },
  ...byYear('tax.cgt.rates', '/v1/tax/capital-gains/rates', 'tax.cgt.rates.year', '/v1/tax/capital-gains/rates/{tax_year}', 'Capital gains tax rates', 'rates'),
  ...byYear('tax.cgt.allowances', '/v1/tax/capital-gains/allowances', 'tax.cgt.allowances.year', '/v1/tax/capital-gains/allowances/{tax_year}', 'Capital gains allowances', 'allowances'),
  {
    id: 'tax.cgt.calculate',
    method: 'POST',
    path: '/v1/tax/capital-gains/calculate',
    domain: 'tax',
    summary: 'Capital gains tax on a gain',
    body: [
      { name: 'gain', type: 'number', required: true, min: 0, description: 'chargeable gain, pounds' },
      { name: 'asset_type', type: 'string', required: true, enum: CGT_ASSET_TYPES, description: 'residential_property, other_assets or business_asset_disposal' },
      { name: 'taxpayer_band', type: 'string', required: true, enum: ['basic', 'higher'], description: 'basic or higher' },
      taxYearBody,
      { name: 'disposal_date', type: 'date', description: 'disposal date; picks the rates in force (2024-25 changed on 30 Oct 2024)' },
    ],
    cost: POST_COST,
    errors: CALC_ERRORS,
  },
  ...byYear('tax.dividends.rates', '/v1/tax/dividends/rates', 'tax.dividends.rates.year', '/v1/tax/dividends/rates/{tax_year}', 'Dividend tax rates and allowance', 'rates'),
  {
    id: 'tax.dividends.calculate',
    method: 'POST',
    path: '/v1/tax/dividends/calculate',
    domain: 'tax',
    summary: 'Dividend tax',
    body: [
      { name: 'dividend_income', type: 'number', required: true, min: 0, description: 'dividends, pounds' },
      { name: 'taxpayer_band', type: 'string', required: true, enum: ['basic', 'higher', 'additional'], description: 'basic, higher or additional' },
      taxYearBody,
    ],
    cost: POST_COST,
    errors: CALC_ERRORS,
  },
  ...byYear('tax.student-loan.thresholds', '/v1/tax/student-loan/thresholds', 'tax.student-loan.thresholds.year', '/v1/tax/student-loan/thresholds/{tax_year}', 'Student loan plan thresholds', 'thresholds'),
  {
    id: 'tax.student-loan.calculate',
    method: 'POST',
    path: '/v1/tax/student-loan/calculate',
    domain: 'tax',
    summary: 'Student loan repayments',
    body: [
      { name: 'annual_income', type: 'number', required: true, min: 0, description: 'annual income, pounds' },
      { name: 'plan_types', type: 'string[]', required: true, min: 1, enum: STUDENT_LOAN_PLANS, description: 'one or more plans' },
      taxYearBody,
    ],
    cost: POST_COST,
    records: 'repayments',
    errors: CALC_ERRORS,
  },
  ...byYear('tax.pension.allowances', '/v1/tax/pension/allowances', 'tax.pension.allowances.year', '/v1/tax/pension/allowances/{tax_year}', 'Pension allowances', 'allowances'),
  ...byYear('tax.corporation.rates', '/v1/tax/corporation/rates', 'tax.corporation.rates.year', '/v1/tax/corporation/rates/{tax_year}', 'Corporation tax rates', 'rates'),
  {
    id: 'tax.corporation.calculate',
    method: 'POST',
    path: '/v1/tax/corporation/calculate',
    domain: 'tax',
    summary: 'Corporation tax: small profits rate, main rate or marginal relief',
    body: [
      { name: 'profit', type: 'number', required: true, min: 0, description: 'taxable profit, pounds' },
      taxYearBody,
      { name: 'associated_companies', type: 'integer', min: 0, default: 0, description: 'associated companies (divide the limits)' },
    ],
    cost: POST_COST,
    errors: CALC_ERRORS,
  },
];
