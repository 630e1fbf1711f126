/**
 * National Insurance. Hand-checked figures:
 *  - 2025-26: employee 8% PT 12,570..UEL 50,270, 2% above; employer 15% above ST 5,000 (gov.uk rates and thresholds).
 *  - 2022-23: HMRC's annual (directors') blended figures 12.73% / 2.73% on PT 11,908, employer 14.53% above 9,100;
 *    Class 4 9.73% / 2.73% on 11,908..50,270 (docs/tax-personal.md decision).
 *  - 2023-24: employee 11.5% annual (12% x 9 months + 10% x 3 months; HMRC's directors' annual rate).
 *  - Pre-1999 (NIM11006/NIM11010 structure): entry charge 2% on the first LEL once earnings reach it, main
 *    rate LEL..UEL; employer slab rate of the earnings' bracket on ALL earnings.
 */
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/contract/types.js';
import { data, err, get, post } from './personal-helpers.js';

const ni = (body: Record<string, unknown>) => data(post('/v1/tax/national-insurance/calculate', body));

describe('Class 1 employed', () => {
  it('2025-26 £45,000 standard: employee 2,594.40, employer 6,000', async () => {
    const d = await ni({ annual_salary: 45000, tax_year: '2025-26' });
    expect(d).toMatchObject({ annual_salary: 45000, tax_year: '2025-26', type: 'employed', method: 'standard', category: 'A' });
    expect(d.employee.contributions).toBe(2594.4);
    expect(d.employee.breakdown).toEqual([{ band: 'primary_threshold_to_uel', from: 12570, to: 50270, rate: 0.08, earnings: 32430, amount: 2594.4 }]);
    expect(d.employer.contributions).toBe(6000);
  });

  it('2025-26 £60,000: 3,016 + 2% of 9,730', async () => {
    const d = await ni({ annual_salary: 60000, tax_year: '2025-26' });
    expect(d.employee.contributions).toBe(3016 + 194.6);
  });

  it('directors annual method: same annual thresholds, method reported', async () => {
    const d = await ni({ annual_salary: 45000, tax_year: '2025-26', director: true });
    expect(d.method).toBe('directors_annual');
    expect(d.employee.contributions).toBe(2594.4);
  });

  it('2022-23 £30,000: blended 12.73% on PT 11,908; employer 14.53% above 9,100', async () => {
    const d = await ni({ annual_salary: 30000, tax_year: '2022-23' });
    expect(d.employee.contributions).toBe(2303.11); // 18,092 x 12.73% = 2,303.1116
    expect(d.employer.contributions).toBe(3036.77); // 20,900 x 14.53%
    const hi = await ni({ annual_salary: 60000, tax_year: '2022-23' });
    expect(hi.employee.breakdown[1]).toMatchObject({ rate: 0.0273, amount: 265.63 }); // 9,730 x 2.73% = 265.629
  });

  it('2023-24 £30,000: 11.5% annual rate', async () => {
    expect((await ni({ annual_salary: 30000, tax_year: '2023-24' })).employee.contributions).toBe(2004.45);
  });

  it('pre-1999 entry charge: 1995-96 £20,000', async () => {
    const d = await ni({ annual_salary: 20000, tax_year: '1995-96' });
    expect(d.employee.contributions).toBe(1758.72); // 2% x 3,016 + 10% x 16,984
    expect(d.employer.breakdown).toEqual([{ band: 'slab_4', from: 10660, to: null, rate: 0.102, earnings: 20000, amount: 2040 }]);
  });

  it('pre-1999 slab: 1998-99 £5,000 (96.15/wk) is in the 64-109.99 bracket at 3% on all earnings', async () => {
    const d = await ni({ annual_salary: 5000, tax_year: '1998-99' });
    expect(d.employee.contributions).toBe(233.76); // 66.56 + 167.20
    expect(d.employer.contributions).toBe(150);
    expect(d.employer.breakdown[0]).toMatchObject({ from: 3328, to: 5720, rate: 0.03 });
  });

  it('pre-1999 below the LEL: nothing at all', async () => {
    const d = await ni({ annual_salary: 3000, tax_year: '1998-99' });
    expect(d.employee.contributions).toBe(0);
    expect(d.employer.contributions).toBe(0);
  });

  it('1999-00: entry charge abolished, 10% from 3,432, employer 12.2% above 4,335', async () => {
    const d = await ni({ annual_salary: 20000, tax_year: '1999-00' });
    expect(d.employee.contributions).toBe(1656.8);
    expect(d.employer.contributions).toBe(1911.13); // 15,665 x 12.2% = 1,911.13
  });

  it('category letters: M (under 21) employer 0% to 50,270; B reduced 1.85%; C no employee NI; X nothing', async () => {
    const m = await ni({ annual_salary: 60000, tax_year: '2026-27', category: 'M' });
    expect(m.employer.contributions).toBe(1459.5); // 9,730 x 15%
    expect(m.employee.contributions).toBe(3016 + 194.6);
    const b = await ni({ annual_salary: 30000, tax_year: '2026-27', category: 'b' });
    expect(b.employee.contributions).toBe(322.45); // 17,430 x 1.85% = 322.455: an exact half penny rounds down (CWG2)
    const c = await ni({ annual_salary: 30000, tax_year: '2026-27', category: 'C' });
    expect(c.employee.contributions).toBe(0);
    expect(c.employer.contributions).toBe(3750);
    const x = await ni({ annual_salary: 30000, tax_year: '2026-27', category: 'X' });
    expect(x.employee.contributions + x.employer.contributions).toBe(0);
    const f = await ni({ annual_salary: 30000, tax_year: '2026-27', category: 'F' });
    expect(f.employer.contributions).toBe(750); // freeport: 0% to 25,000
  });
});

describe('Class 2 and Class 4', () => {
  it('2022-23 £40,000 profit: Class 2 52 x 3.15, Class 4 9.73% on 28,092', async () => {
    const d = await ni({ type: 'self_employed', annual_profit: 40000, tax_year: '2022-23' });
    expect(d.class_2).toMatchObject({ status: 'payable', contributions: 163.8, weekly_rate: 3.15 });
    expect(d.class_4.contributions).toBe(2733.35);
    expect(d.total_contributions).toBe(2897.15);
  });

  it('2025-26 £60,000 profit: Class 2 credited (voluntary only), Class 4 6% + 2%', async () => {
    const d = await ni({ type: 'self_employed', annual_profit: 60000, tax_year: '2025-26' });
    expect(d.class_2).toMatchObject({ status: 'credited', contributions: 0, compulsory: false });
    expect(d.class_4.contributions).toBe(2262 + 194.6);
  });

  it('2023-24 profit between SPT and LPL: Class 2 treated as paid', async () => {
    const d = await ni({ type: 'self_employed', annual_profit: 10000, tax_year: '2023-24' });
    expect(d.class_2).toMatchObject({ status: 'credited', contributions: 0 });
    expect(d.class_4.contributions).toBe(0);
  });

  it('1995-96 below the small earnings exception: no Class 2', async () => {
    const d = await ni({ type: 'self_employed', annual_profit: 3000, tax_year: '1995-96' });
    expect(d.class_2.status).toBe('below_threshold');
    expect(d.total_contributions).toBe(0);
  });
});

describe('thresholds, categories and errors', () => {
  it('thresholds 2026-27', async () => {
    const d = await data(get('/v1/tax/national-insurance/thresholds/2026-27'));
    expect(d.employee.primary_threshold).toEqual({ annual: 12570, weekly: 242 });
    expect(d.employee.upper_earnings_limit).toEqual({ annual: 50270, weekly: 967 });
    expect(d.employer.secondary_threshold.annual).toBe(5000);
    expect(d.self_employed).toMatchObject({ class_2_small_profits_threshold: { annual: 7105 }, class_4_lower_profit_limit: { annual: 12570 }, class_4_upper_profit_limit: { annual: 50270 } });
  });

  it('2024-25 letters (HMRC table for 6 April 2024 to 5 April 2025): M employer 13.8% above 50,270', async () => {
    const m = await ni({ annual_salary: 60000, tax_year: '2024-25', category: 'M' });
    expect(m.employer.contributions).toBe(1342.74); // 9,730 x 13.8%
    const d = await data(get('/v1/tax/national-insurance/categories/2024-25'));
    expect(d.categories.find((c: any) => c.letter === 'A').employer.rate).toBe(0.138);
  });

  it('categories (current year) list the letters with the spec resource shape', async () => {
    const d = await data(get('/v1/tax/national-insurance/categories'));
    expect(d.tax_year).toBe('2026-27');
    expect(d.categories.find((c: any) => c.letter === 'A')).toMatchObject({ employee: { rate_main: 0.08, rate_upper: 0.02 }, employer: { rate: 0.15, reduced_rate: false } });
    expect(d.categories.find((c: any) => c.letter === 'H').employer.reduced_rate).toBe(true);
    // X (no liability): the employee rates are null (the spec allows it there) and the employer rate is
    // 0, a number as the spec types it -- and what the calculator charges for X.
    expect(d.categories.find((c: any) => c.letter === 'X')).toMatchObject({ employee: { rate_main: null, rate_upper: null }, employer: { rate: 0, reduced_rate: false } });
  });

  it('errors: director with self_employed 422; missing salary/profit 400 naming the field; bad type 422; bad category 400; uncovered year 404', async () => {
    expect(await err(post('/v1/tax/national-insurance/calculate', { type: 'self_employed', annual_profit: 1, director: true }))).toMatchObject({ status: 422, code: 'director_not_applicable' });
    const e = await err(post('/v1/tax/national-insurance/calculate', {}));
    expect(e).toMatchObject({ status: 400, code: 'bad_request' });
    expect(e.message).toContain('annual_salary');
    expect((await err(post('/v1/tax/national-insurance/calculate', { type: 'self_employed', annual_salary: 1 }))).message).toContain('annual_profit');
    expect(await err(post('/v1/tax/national-insurance/calculate', { type: 'retired', annual_salary: 1 }))).toMatchObject({ status: 422, code: 'invalid_type' });
    expect(await err(post('/v1/tax/national-insurance/calculate', { annual_salary: 1, category: 'Q' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(await err(post('/v1/tax/national-insurance/calculate', { annual_salary: 1, category: 'M', tax_year: '2019-20' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(await err(post('/v1/tax/national-insurance/calculate', { annual_salary: 1, tax_year: '1989-90' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(await err(get('/v1/tax/national-insurance/categories/2019-20'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('provenance per year (meta.source_url is the source of the year answered)', () => {
  const page = (y: string) => `https://www.gov.uk/guidance/rates-and-thresholds-for-employers-${y}`;
  const metaOf = async (p: Promise<CallResult>) => ((await p).envelope as { meta: { source_url: string } }).meta;

  it('NI calculate, thresholds and employer cost answer with the asked year, not the current one', async () => {
    expect((await metaOf(post('/v1/tax/national-insurance/calculate', { annual_salary: 45000, tax_year: '2024-25' }))).source_url).toBe(page('2024-to-2025'));
    expect((await metaOf(get('/v1/tax/national-insurance/thresholds/2019-20'))).source_url).toBe(page('2019-to-2020'));
    expect((await metaOf(post('/v1/tax/employer-cost/calculate', { annual_salary: 30000, tax_year: '2021-22' }))).source_url).toBe(page('2021-to-2022'));
    expect((await metaOf(post('/v1/tax/national-insurance/calculate', { annual_salary: 45000, tax_year: '2026-27' }))).source_url).toBe(page('2026-to-2027'));
  });

  it('years before HMRC\'s per-year pages use the first web source listed for that year in the data file', async () => {
    // data/tax/national-insurance.yaml, 1995-96: first source is Royal London's LEL/UEL table.
    const m = await metaOf(post('/v1/tax/national-insurance/calculate', { annual_salary: 20000, tax_year: '1995-96' }));
    expect(m.source_url).toBe('https://adviser.royallondon.com/technical-central/rates-and-factors/ni-limits/lower-and-upper-earnings-limits/');
  });

  it('2023-24 directors: 11.5% between PT and UEL (NIM01625): £50,270 -> 37,700 x 11.5% = £4,335.50', async () => {
    const d = await ni({ annual_salary: 50270, tax_year: '2023-24', director: true });
    expect(d.employee.contributions).toBe(4335.5);
  });
});
