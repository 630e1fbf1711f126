/** Request amounts become pence one way everywhere (src/money.ts toPence), with one upper bound. */
import { describe, expect, it } from 'vitest';
import { data, err, post } from './personal-helpers.js';

describe('amounts', () => {
  it('refuses amounts over £1bn with a 400 naming the field, on every personal calculator', async () => {
    for (const [path, field, body] of [
      ['/v1/tax/employer-cost/calculate', 'annual_salary', { annual_salary: 1e20 }],
      ['/v1/tax/student-loan/calculate', 'annual_income', { annual_income: 2e9, plan_types: ['plan_2'] }],
      ['/v1/tax/take-home/calculate', 'gross_income', { gross_income: 2_000_000_000 }],
    ] as const) {
      const e = await err(post(path, { ...body, tax_year: '2026-27' }));
      expect(e, path).toMatchObject({ status: 400, code: 'bad_request', message: `Invalid field '${field}': at most £1,000,000,000.` });
    }
  });

  it('a third decimal place rounds the same way on every calculator (to the nearest penny)', async () => {
    const sl = await data(post('/v1/tax/student-loan/calculate', { annual_income: 45000.999, plan_types: ['plan_2'], tax_year: '2026-27' }));
    const ec = await data(post('/v1/tax/employer-cost/calculate', { annual_salary: 45000.999, tax_year: '2026-27' }));
    expect([sl.annual_income, ec.per_employee.annual_salary]).toEqual([45001, 45001]);
  });
});
