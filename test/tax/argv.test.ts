/**
 * Argv to route call, per command, without running anything: the context's runCall seam (the GitHub
 * CLI's runF) receives the call a command built from its arguments and flags. The tax commands' own
 * mappings (moved from test/cli/argv.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { callOf } from '../support/run-call.js';

describe('tax commands map argv to the route call', () => {
  it('ni: the salary is the profit with --self-employed', async () => {
    expect(await callOf(['tax', 'ni', '50000', '--self-employed'])).toEqual({
      method: 'POST',
      path: '/v1/tax/national-insurance/calculate',
      query: {},
      body: { type: 'self_employed', annual_profit: 50000 },
      batch: false,
    });
    expect((await callOf(['tax', 'ni', '50000', '--director'])).body).toEqual({ annual_salary: 50000, director: true });
  });

  it('compare: positional grosses and the --a-*/--b-* flags build the two scenarios', async () => {
    const c = await callOf(['tax', 'compare', '45000', '52000', '--b-region', 'scotland', '--b-pension', '10', '--b-pension-type', 'salary_sacrifice', '--a-student-loan', 'plan_2,postgraduate', '--year', '2025-26']);
    expect(c.path).toBe('/v1/tax/compare');
    expect(c.body).toEqual({
      tax_year: '2025-26',
      scenario_a: { gross_income: 45000, student_loan_plans: ['plan_2', 'postgraduate'] },
      scenario_b: { gross_income: 52000, region: 'scotland', pension_contribution_percent: 10, pension_type: 'salary_sacrifice' },
    });
  });

  it('amounts: 45k, £45,000, 1.5m and decimals', async () => {
    expect((await callOf(['tax', 'take-home', '45k'])).body).toEqual({ gross_income: 45000 });
    expect((await callOf(['tax', 'take-home', '£45,000', '--region', 'scotland'])).body).toEqual({ gross_income: 45000, region: 'scotland' });
    expect((await callOf(['tax', 'income-tax', '1.5m'])).body).toEqual({ gross_income: 1500000 });
    expect((await callOf(['tax', 'vat', '100.50', '--inclusive'])).body).toEqual({ amount: 100.5, direction: 'inclusive' });
    expect((await callOf(['tax', 'compare', '45k', '£52,500'])).body).toEqual({ scenario_a: { gross_income: 45000 }, scenario_b: { gross_income: 52500 } });
  });

  it('flags for list parameters and the /{tax_year} form', async () => {
    expect((await callOf(['tax', 'take-home', '60000', '--student-loan', 'plan_2,postgraduate', '--pension', '5'])).body).toEqual({
      gross_income: 60000,
      student_loan_plans: ['plan_2', 'postgraduate'],
      pension_contribution_percent: 5,
    });
    expect(await callOf(['tax', 'bands', '2019-20'])).toMatchObject({ method: 'GET', path: '/v1/tax/income/bands/2019-20', query: {} });
    expect(await callOf(['tax', 'bands'])).toMatchObject({ method: 'GET', path: '/v1/tax/income/bands' });
  });

  it('--batch is handed over with the flag defaults as the base body', async () => {
    expect(await callOf(['tax', 'take-home', '--batch', '--region', 'scotland'])).toMatchObject({ body: { region: 'scotland' }, batch: true });
  });
});
