/**
 * Argv to route call, per command, without running anything: the context's runCall seam (the GitHub
 * CLI's runF) receives the call a command built from its arguments and flags.
 */
import { describe, expect, it } from 'vitest';
import type { RouteCall } from '../../src/contract/types.js';
import { runCli } from '../support/cli.js';

async function callOf(args: string[]): Promise<RouteCall & { batch: boolean }> {
  const calls: Array<RouteCall & { batch: boolean }> = [];
  const r = await runCli(args, {
    runCall: async (call, how) => {
      calls.push({ ...call, batch: how.batch });
      return 0;
    },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

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

describe('other commands', () => {
  it('api: the path gets /v1, -F is typed, -f is a string, ?query is split', async () => {
    expect(await callOf(['api', 'POST', 'tax/take-home/calculate', '-F', 'gross_income=45000', '-f', 'region=scotland'])).toEqual({
      method: 'POST',
      path: '/v1/tax/take-home/calculate',
      query: {},
      body: { gross_income: 45000, region: 'scotland' },
      batch: false,
    });
    expect(await callOf(['api', 'GET', '/v1/tax/years?page=2&per_page=5'])).toMatchObject({ path: '/v1/tax/years', query: { page: '2', per_page: '5' } });
  });

  it('property and calendar: positional args to path and query', async () => {
    expect(await callOf(['calendar', 'bank-holidays', '--region', 'scotland'])).toMatchObject({ method: 'GET', path: '/v1/calendar/bank-holidays', query: { region: 'scotland' } });
    expect(await callOf(['property', 'price-paid', 'search', '--postcode', 'LS8 3BS'])).toMatchObject({ path: '/v1/property/price-paid/search', query: { postcode: 'LS8 3BS' } });
  });
});
