/**
 * Take-home, compare, employer cost, student loans, pension allowances and tax years.
 * Figures hand-checked from gov.uk rates (2025-26/2026-27), the student loan thresholds on gov.uk "Repaying your
 * student loan" and the GOVDATA-NOTES tax-year example.
 */
import { describe, expect, it } from 'vitest';
import { data, err, get, post } from './personal-helpers.js';

const th = (body: Record<string, unknown>) => data(post('/v1/tax/take-home/calculate', body));

describe('take-home', () => {
  it('2025-26 £45,000: net 35,919.60', async () => {
    const d = await th({ gross_income: 45000, tax_year: '2025-26' });
    expect(d.deductions.income_tax).toMatchObject({ amount: 6486, personal_allowance: 12570, effective_rate: 0.1441 });
    expect(d.deductions.national_insurance).toEqual({ employee: 2594.4, breakdown: [{ band: 'primary_threshold_to_uel', from: 12570, to: 50270, rate: 0.08, amount: 2594.4 }] });
    expect(d).toMatchObject({ net_annual: 35919.6, net_monthly: 2993.3, net_weekly: 690.76, total_deductions: 9080.4, marginal_rate: 0.28 });
    expect(d.employer_costs).toEqual({ employer_ni: 6000, total_cost_to_employer: 51000 });
  });

  it('2025-26 £30,028: tax 3,491.60, NI 1,396.64', async () => {
    const d = await th({ gross_income: 30028, tax_year: '2025-26' });
    expect(d.deductions.income_tax.amount).toBe(3491.6);
    expect(d.deductions.national_insurance.employee).toBe(1396.64);
    expect(d.net_annual).toBe(25139.76);
  });

  it('Scotland 2026-27 £50,000: 42% + 8% = 50% marginal (CIOT)', async () => {
    const d = await th({ gross_income: 50000, region: 'scotland', tax_year: '2026-27' });
    expect(d.deductions.income_tax.amount).toBe(8982.05);
    expect(d.net_annual).toBe(38023.55);
    expect(d.marginal_rate).toBe(0.5);
  });

  it('taper band: 60% + 2% NI', async () => {
    expect((await th({ gross_income: 110000, tax_year: '2026-27' })).marginal_rate).toBe(0.62);
    expect((await th({ gross_income: 110000, tax_year: '2026-27', region: 'scotland' })).marginal_rate).toBe(0.695);
    // the rate on the NEXT pound: at exactly 100,000 the next pound is tapered; at 125,140 the allowance is gone
    expect((await th({ gross_income: 100000, tax_year: '2026-27' })).marginal_rate).toBe(0.62);
    expect((await th({ gross_income: 125140, tax_year: '2026-27' })).marginal_rate).toBe(0.47);
    expect((await th({ gross_income: 99999, tax_year: '2026-27' })).marginal_rate).toBe(0.42);
  });

  it('student loan plan_2 2025-26 £45,000: 9% x 16,530 = 1,487.70, rounded down to £1,487 (CSLM13013)', async () => {
    const d = await th({ gross_income: 45000, tax_year: '2025-26', student_loan_plans: ['plan_2'] });
    expect(d.deductions.student_loan).toEqual({ amount: 1487, repayments: [{ plan_type: 'plan_2', threshold: 28470, rate: 0.09, amount: 1487 }] });
    expect(d.net_annual).toBe(34432.6); // 35,919.60 - 1,487
    expect(d.marginal_rate).toBe(0.37);
  });

  it('pensions at £60,000 2025-26: relief at source and net pay agree for a higher-rate payer; salary sacrifice also saves NI', async () => {
    const ras = await th({ gross_income: 60000, tax_year: '2025-26', pension_contribution_percent: 5, pension_type: 'relief_at_source' });
    expect(ras.deductions.income_tax.amount).toBe(10832); // basic band extended by the 3,000 gross contribution
    expect(ras.deductions.pension).toEqual({ type: 'relief_at_source', contribution_percent: 5, gross_contribution: 3000, tax_relief_at_source: 600, amount: 2400 });
    expect(ras.net_annual).toBe(43557.4);
    const np = await th({ gross_income: 60000, tax_year: '2025-26', pension_contribution_percent: 5, pension_type: 'net_pay' });
    expect(np.deductions.income_tax.amount).toBe(10232);
    expect(np.net_annual).toBe(43557.4);
    const ss = await th({ gross_income: 60000, tax_year: '2025-26', pension_contribution_percent: 5, pension_type: 'salary_sacrifice' });
    expect(ss.deductions.national_insurance.employee).toBe(3150.6);
    expect(ss.net_annual).toBe(43617.4);
    expect(ss.employer_costs.employer_ni).toBe(7800);
    expect(ss.marginal_rate).toBe(0.399); // (40% + 2%) x 0.95
  });

  it('salary sacrifice below the taper threshold restores the allowance', async () => {
    const d = await th({ gross_income: 105000, tax_year: '2026-27', pension_contribution_percent: 5, pension_type: 'salary_sacrifice' });
    expect(d.deductions.income_tax.personal_allowance).toBe(12570); // 99,750 adjusted net income
  });

  it('marriage allowance recipient adds deductions.income_tax.marriage_allowance; ineligible 422', async () => {
    const d = await th({ gross_income: 30000, tax_year: '2026-27', marriage_allowance_recipient: true });
    expect(d.deductions.income_tax.marriage_allowance).toMatchObject({ eligible: true, transferred_amount: 1260, tax_reduction: 252 });
    expect(await err(post('/v1/tax/take-home/calculate', { gross_income: 60000, marriage_allowance_recipient: true }))).toMatchObject({ status: 422, code: 'marriage_allowance_ineligible' });
  });

  it('errors: gross_income missing 400, student loans before 2025-26 400, bad region 400', async () => {
    expect(await err(post('/v1/tax/take-home/calculate', {}))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(await err(post('/v1/tax/take-home/calculate', { gross_income: 1, tax_year: '2020-21', student_loan_plans: ['plan_1'] }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(await err(post('/v1/tax/take-home/calculate', { gross_income: 1, region: 'atlantis' }))).toMatchObject({ status: 400, code: 'invalid_region' });
    expect(await err(post('/v1/tax/take-home/calculate', { gross_income: 1, tax_year: '2030-31' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('compare', () => {
  it('£30,000 vs £40,000 2025-26', async () => {
    const d = await data(post('/v1/tax/compare', { tax_year: '2025-26', scenario_a: { gross_income: 30000 }, scenario_b: { gross_income: 40000 } }));
    expect(d.scenario_a).toMatchObject({ gross_income: 30000, region: 'england_wales_ni', tax_year: '2025-26', net_annual: 25119.6, marginal_rate: 0.28 });
    expect(d.scenario_b.net_annual).toBe(32319.6);
    expect(d.differences.net_annual).toEqual({ absolute: 7200, percentage: 28.66 });
    expect(d.differences.gross_income).toEqual({ absolute: 10000, percentage: 33.33 });
    expect(d.differences.income_tax).toEqual({ absolute: 2000, percentage: 57.37 });
    expect(d.differences.national_insurance).toEqual({ absolute: 800, percentage: 57.37 });
    expect(d.differences.marginal_rate).toEqual({ absolute: 0, percentage: 0 });
  });

  it('scenario errors name the scenario', async () => {
    const e = await err(post('/v1/tax/compare', { scenario_a: { gross_income: 1 }, scenario_b: { region: 'scotland' } }));
    expect(e).toMatchObject({ status: 400, code: 'bad_request' });
    expect(e.message).toContain('gross_income');
    expect(await err(post('/v1/tax/compare', { scenario_a: { gross_income: 1 }, scenario_b: { gross_income: 1, region: 'x' } }))).toMatchObject({ status: 400, code: 'invalid_region' });
    expect(await err(post('/v1/tax/compare', { scenario_a: { gross_income: 1 } }))).toMatchObject({ status: 400, code: 'bad_request' });
  });
});

describe('employer cost', () => {
  it('2025-26 £30,000 with 3% pension', async () => {
    const d = await data(post('/v1/tax/employer-cost/calculate', { annual_salary: 30000, tax_year: '2025-26' }));
    expect(d.per_employee).toMatchObject({ annual_salary: 30000, employer_ni: 3750, employer_pension: 900, pension_rate: 0.03, total_cost: 34650 });
    expect(d.per_employee.employer_ni_breakdown).toEqual([{ band: 'above_secondary_threshold', from: 5000, to: null, rate: 0.15, amount: 3750 }]);
    expect(d).toMatchObject({ num_employees: 1, employer_ni_before_allowance: 3750, employment_allowance_applied: 0, total_annual_cost: 34650, monthly_cost: 2887.5 });
  });

  it('employment allowance once against total employer NI, floored at zero', async () => {
    const one = await data(post('/v1/tax/employer-cost/calculate', { annual_salary: 30000, tax_year: '2025-26', employment_allowance: true }));
    expect(one.employment_allowance_applied).toBe(3750);
    expect(one.total_annual_cost).toBe(30900);
    const five = await data(post('/v1/tax/employer-cost/calculate', { annual_salary: 60000, tax_year: '2026-27', num_employees: 5, pension_rate: 0, employment_allowance: true }));
    expect(five.employer_ni_before_allowance).toBe(41250);
    expect(five.employment_allowance_applied).toBe(10500);
    expect(five.total_annual_cost).toBe(300000 + 41250 - 10500);
    const old = await data(post('/v1/tax/employer-cost/calculate', { annual_salary: 30000, tax_year: '2022-23', employment_allowance: true, pension_rate: 0 }));
    expect(old.employer_ni_before_allowance).toBe(3036.77);
    expect(old.employment_allowance_applied).toBe(3036.77);
  });

  it('missing annual_salary 400', async () => {
    expect(await err(post('/v1/tax/employer-cost/calculate', {}))).toMatchObject({ status: 400, code: 'bad_request' });
  });
});

describe('student loans and pensions', () => {
  it('thresholds 2026-27 and 2025-26', async () => {
    const d = await data(get('/v1/tax/student-loan/thresholds'));
    expect(d.tax_year).toBe('2026-27');
    expect(d.thresholds).toContainEqual({ plan_type: 'plan_2', annual_threshold: 29385, rate: 0.09 });
    expect(d.thresholds).toContainEqual({ plan_type: 'postgraduate', annual_threshold: 21000, rate: 0.06 });
    const o = await data(get('/v1/tax/student-loan/thresholds/2025-26'));
    expect(o.thresholds.map((t: any) => t.annual_threshold)).toEqual([26065, 28470, 32745, 25000, 21000]);
  });

  it('calculate: plan_1 + postgraduate; two undergraduate plans repay over the lowest threshold once', async () => {
    const d = await data(post('/v1/tax/student-loan/calculate', { annual_income: 45000, plan_types: ['plan_2', 'postgraduate'], tax_year: '2025-26' }));
    expect(d.repayments).toEqual([
      { plan_type: 'plan_2', threshold: 28470, rate: 0.09, amount: 1487 }, // 1,487.70 down to the pound
      { plan_type: 'postgraduate', threshold: 21000, rate: 0.06, amount: 1440 },
    ]);
    expect(d.total_repayment).toBe(2927);
    const two = await data(post('/v1/tax/student-loan/calculate', { annual_income: 30000, plan_types: ['plan_2', 'plan_1'], tax_year: '2025-26' }));
    expect(two.total_repayment).toBe(354); // 9% x (30,000 - 26,065) = 354.15, down to the pound
    // The review's case: 2025-26 plan 1 on £26,901: 9% x 836 = 75.24 -> £75 (CSLM13013).
    const p1 = await data(post('/v1/tax/student-loan/calculate', { annual_income: 26901, plan_types: ['plan_1'], tax_year: '2025-26' }));
    expect(p1.total_repayment).toBe(75);
  });

  it('student loan years before 2025-26: 404 invalid_tax_year', async () => {
    expect(await err(get('/v1/tax/student-loan/thresholds/2024-25'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(await err(post('/v1/tax/student-loan/calculate', { annual_income: 1, plan_types: ['plan_1'], tax_year: '2024-25' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });

  it('pension allowances 2026-27', async () => {
    const d = await data(get('/v1/tax/pension/allowances'));
    expect(d.tax_year).toBe('2026-27');
    expect(d.allowances).toEqual([
      { allowance_type: 'annual', amount: 60000 },
      { allowance_type: 'mpaa', amount: 10000 },
      { allowance_type: 'tapered_threshold_income', amount: 200000 },
      { allowance_type: 'tapered_adjusted_income', amount: 260000 },
      { allowance_type: 'minimum_tapered', amount: 10000 },
    ]);
  });
});

describe('tax years', () => {
  it('2025-26 has the GOVDATA-NOTES example shape', async () => {
    const d = await data(get('/v1/tax/years/2025-26'));
    expect(d).toEqual({
      identifier: '2025-26',
      start_date: '2025-04-06',
      end_date: '2026-04-05',
      active: false,
      key_dates: { self_assessment_deadline: '2027-01-31', payment_on_account_first: '2026-01-31', payment_on_account_second: '2026-07-31', p60_deadline: '2026-05-31', p11d_deadline: '2026-07-06' },
    });
  });

  it('current is 2026-27 on 2026-11-21; list is paged, newest first, one active', async () => {
    expect((await data(get('/v1/tax/years/current'))).identifier).toBe('2026-27');
    const r = await get('/v1/tax/years', { per_page: '5' });
    const env = r.envelope as any;
    expect(env.pagination).toEqual({ total: 37, page: 1, per_page: 5, total_pages: 8 });
    expect(env.data[0]).toMatchObject({ identifier: '2026-27', active: true });
    expect(env.meta).toEqual({ api_version: 'v1', licence: 'Open Government Licence v3.0' });
    expect(await err(get('/v1/tax/years/2027-28'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});
