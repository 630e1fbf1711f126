/**
 * The tax domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: shipped data only (no mirror dataset).
 */
import type { DomainSamples } from '../support/samples-types.js';
import { tx as vatTx } from './vat-return/helpers.js';

export const samples: DomainSamples = {
  routes: [
    { route: 'tax.years.list', method: 'GET', path: '/v1/tax/years?per_page=10&page=2' },
    { route: 'tax.years.current', method: 'GET', path: '/v1/tax/years/current' },
    { route: 'tax.years.get', method: 'GET', path: '/v1/tax/years/2025-26' },
    { route: 'tax.income.bands', method: 'GET', path: '/v1/tax/income/bands' },
    { route: 'tax.income.bands.year', method: 'GET', path: '/v1/tax/income/bands/2024-25' },
    { route: 'tax.income.calculate', method: 'POST', path: '/v1/tax/income/calculate', body: { gross_income: 60000, region: 'scotland' } },
    { route: 'tax.ni.thresholds', method: 'GET', path: '/v1/tax/national-insurance/thresholds' },
    { route: 'tax.ni.thresholds.year', method: 'GET', path: '/v1/tax/national-insurance/thresholds/2023-24' },
    { route: 'tax.ni.categories', method: 'GET', path: '/v1/tax/national-insurance/categories' },
    { route: 'tax.ni.categories.year', method: 'GET', path: '/v1/tax/national-insurance/categories/2025-26' },
    { route: 'tax.ni.calculate', method: 'POST', path: '/v1/tax/national-insurance/calculate', body: { annual_salary: 52000 } },
    { route: 'tax.take-home.calculate', method: 'POST', path: '/v1/tax/take-home/calculate', body: { gross_income: 45000, student_loan_plans: ['plan_2'] } },
    { route: 'tax.compare', method: 'POST', path: '/v1/tax/compare', body: { scenario_a: { gross_income: 40000 }, scenario_b: { gross_income: 50000, region: 'scotland' } } },
    { route: 'tax.employer-cost.calculate', method: 'POST', path: '/v1/tax/employer-cost/calculate', body: { annual_salary: 40000 } },
    { route: 'tax.vat.rates', method: 'GET', path: '/v1/tax/vat/rates' },
    { route: 'tax.vat.rates.year', method: 'GET', path: '/v1/tax/vat/rates/2025-26' },
    { route: 'tax.vat.flat-rate-percentages', method: 'GET', path: '/v1/tax/vat/flat-rate-percentages' },
    { route: 'tax.vat.calculate', method: 'POST', path: '/v1/tax/vat/calculate', body: { amount: 99.99 } },
    {
      route: 'tax.vat.return.calculate',
      method: 'POST',
      path: '/v1/tax/vat/return/calculate?breakdown_detail=summary',
      body: {
        company: { vat_registration_number: 'GB123456789', vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }], partially_exempt: false },
        period: { start_date: '2026-07-01', end_date: '2026-09-30' },
        transactions: [vatTx(), vatTx({ id: 'T2', type: 'purchase', net_amount: 50, vat_amount: 10, gross_amount: 60 })],
      },
    },
    { route: 'tax.cgt.rates', method: 'GET', path: '/v1/tax/capital-gains/rates' },
    { route: 'tax.cgt.rates.year', method: 'GET', path: '/v1/tax/capital-gains/rates/2024-25' },
    { route: 'tax.cgt.allowances', method: 'GET', path: '/v1/tax/capital-gains/allowances' },
    { route: 'tax.cgt.allowances.year', method: 'GET', path: '/v1/tax/capital-gains/allowances/2023-24' },
    { route: 'tax.cgt.calculate', method: 'POST', path: '/v1/tax/capital-gains/calculate', body: { gain: 20000, asset_type: 'other_assets', taxpayer_band: 'higher' } },
    { route: 'tax.dividends.rates', method: 'GET', path: '/v1/tax/dividends/rates' },
    { route: 'tax.dividends.rates.year', method: 'GET', path: '/v1/tax/dividends/rates/2025-26' },
    { route: 'tax.dividends.calculate', method: 'POST', path: '/v1/tax/dividends/calculate', body: { dividend_income: 5000, taxpayer_band: 'basic' } },
    { route: 'tax.student-loan.thresholds', method: 'GET', path: '/v1/tax/student-loan/thresholds' },
    { route: 'tax.student-loan.thresholds.year', method: 'GET', path: '/v1/tax/student-loan/thresholds/2025-26' },
    { route: 'tax.student-loan.calculate', method: 'POST', path: '/v1/tax/student-loan/calculate', body: { annual_income: 30000, plan_types: ['plan_2', 'postgraduate'] } },
    { route: 'tax.pension.allowances', method: 'GET', path: '/v1/tax/pension/allowances' },
    { route: 'tax.pension.allowances.year', method: 'GET', path: '/v1/tax/pension/allowances/2025-26' },
    { route: 'tax.corporation.rates', method: 'GET', path: '/v1/tax/corporation/rates' },
    { route: 'tax.corporation.rates.year', method: 'GET', path: '/v1/tax/corporation/rates/2024-25' },
    { route: 'tax.corporation.calculate', method: 'POST', path: '/v1/tax/corporation/calculate', body: { profit: 120000 } },
  ],
  errors: [
    { route: 'tax.years.get', method: 'GET', path: '/v1/tax/years/1900-01' },
    { route: 'tax.take-home.calculate', method: 'POST', path: '/v1/tax/take-home/calculate', body: { gross_income: 'lots' } },
    { route: 'tax.vat.return.calculate', method: 'POST', path: '/v1/tax/vat/return/calculate', body: { transactions: 'nope' } },
    { route: 'tax.ni.calculate', method: 'POST', path: '/v1/tax/national-insurance/calculate', body: { annual_salary: 50000, type: 'self_employed', director: true } },
  ],
};
