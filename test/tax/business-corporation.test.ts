// Corporation tax routes: GET /v1/tax/corporation/rates(/{tax_year}), POST /v1/tax/corporation/calculate.
// Rates and limits: https://www.gov.uk/government/publications/rates-and-allowances-corporation-tax ;
// marginal relief formula (U - A) x N/A x 3/200: CTA 2010 s.18B, https://www.legislation.gov.uk/ukpga/2010/4/section/18B,
// and https://help.sbc.sage.com/en-gb/corporation-tax/MarginalRelief/Marginal_Relief.html (same formula, standard
// fraction 3/200). The £100,000 case is the HMRC-style worked example (CTM03950 pattern), hand-verified from the
// formula: tax at 25% £25,000, marginal relief (250,000 - 100,000) x 100,000/100,000 x 3/200 = £2,250, tax £22,750.
// (The CTM page itself was not available to check offline.)
// Associated companies divide the limits: CTA 2010 Part 2 Chapter 3A (section numbers not checked offline).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCorporationTax, ctData, financialYearLabelOfDate } from '../../src/domains/tax/corporation.js';
import { ctxAt, errorOf, get, post } from './business-helpers.js';

const CALC = '/v1/tax/corporation/calculate';

describe('GET /v1/tax/corporation/rates', () => {
  it('FY2026: small profits 19% to 50k, 3/200 between 50k and 250k, main 25%', async () => {
    const r = await get('/v1/tax/corporation/rates');
    expect(r.status).toBe(200);
    expect(r.envelope.data).toEqual({
      tax_year: '2026-27',
      financial_year: 'FY2026',
      start_date: '2026-04-01',
      end_date: '2027-03-31',
      rates: [
        { rate_type: 'small_profits', rate: 0.19, upper_limit: 50000 },
        { rate_type: 'marginal_relief_fraction', rate: 0.015, fraction: '3/200', lower_limit: 50000, upper_limit: 250000 },
        { rate_type: 'main', rate: 0.25, lower_limit: 250000 },
      ],
    });
  });

  it('FY2020-FY2022: single 19% main rate', async () => {
    for (const y of ['2020-21', '2021-22', '2022-23']) {
      expect((await get(`/v1/tax/corporation/rates/${y}`)).envelope.data.rates).toEqual([{ rate_type: 'main', rate: 0.19 }]);
    }
  });

  it('404 invalid_tax_year', async () => {
    expect(errorOf(await get('/v1/tax/corporation/rates/2019-20'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });

  it('default year follows 1 April, not 6 April', async () => {
    expect(financialYearLabelOfDate('2027-04-03')).toBe('2027-28');
    expect(financialYearLabelOfDate('2027-03-31')).toBe('2026-27');
    // 2 April 2026 is in tax year 2025-26 but in FY2026.
    expect((await get('/v1/tax/corporation/rates', ctxAt('2026-04-02T12:00:00Z'))).envelope.data.financial_year).toBe('FY2026');
  });
});

describe('POST /v1/tax/corporation/calculate', () => {
  it("worked example: £100,000 -> tax £22,750, marginal relief £2,250", async () => {
    const r = await post(CALC, { profit: 100000 });
    expect(r.status).toBe(200);
    expect(r.envelope.data).toMatchObject({
      profit: 100000,
      tax_year: '2026-27',
      rate_type: 'marginal_relief',
      tax: 22750,
      effective_rate: 0.2275,
      marginal_relief: 2250,
    });
  });

  it('small profits, main, and the limits themselves', async () => {
    expect((await post(CALC, { profit: 40000 })).envelope.data).toMatchObject({ rate_type: 'small_profits', tax: 7600, marginal_relief: 0, effective_rate: 0.19 });
    expect((await post(CALC, { profit: 50000 })).envelope.data).toMatchObject({ rate_type: 'small_profits', tax: 9500 });
    expect((await post(CALC, { profit: 150000 })).envelope.data).toMatchObject({ rate_type: 'marginal_relief', tax: 36000, marginal_relief: 1500, effective_rate: 0.24 });
    expect((await post(CALC, { profit: 250000 })).envelope.data).toMatchObject({ tax: 62500, marginal_relief: 0 });
    expect((await post(CALC, { profit: 300000 })).envelope.data).toMatchObject({ rate_type: 'main', tax: 75000, effective_rate: 0.25 });
    expect((await post(CALC, { profit: 0 })).envelope.data).toMatchObject({ tax: 0, effective_rate: 0 });
  });

  it('associated companies divide the limits: 1 associate -> 25,000 / 125,000', async () => {
    const d = (await post(CALC, { profit: 100000, associated_companies: 1 })).envelope.data;
    // 25,000 - (125,000 - 100,000) x 3/200 = 25,000 - 375
    expect(d).toMatchObject({ rate_type: 'marginal_relief', tax: 24625, marginal_relief: 375, lower_limit: 25000, upper_limit: 125000, associated_companies: 1 });
    expect((await post(CALC, { profit: 20000, associated_companies: 1 })).envelope.data).toMatchObject({ rate_type: 'small_profits', tax: 3800 });
    // 2 associates: limits 16,666.67 / 83,333.33 (exact thirds in the computation)
    const t = (await post(CALC, { profit: 50000, associated_companies: 2 })).envelope.data;
    // 12,500 - (83,333.333... - 50,000) x 0.015 = 12,500 - 500 = 12,000
    expect(t).toMatchObject({ lower_limit: 16666.67, upper_limit: 83333.33, marginal_relief: 500, tax: 12000 });
  });

  it('FY2022 and earlier: 19% on everything', async () => {
    expect((await post(CALC, { profit: 100000, tax_year: '2022-23' })).envelope.data).toMatchObject({ rate_type: 'main', tax: 19000, marginal_relief: 0, financial_year: 'FY2022' });
    expect((await post(CALC, { profit: 1000000, tax_year: '2020-21' })).envelope.data.tax).toBe(190000);
  });

  it('errors', async () => {
    expect(errorOf(await post(CALC, {}))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { profit: -1 }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { profit: 1, associated_companies: -1 }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { profit: 1, associated_companies: 1.5 }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { profit: 1, tax_year: '2019-20' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('corporation tax properties', () => {
  const fy = ctData().years['2026-27']!;
  const tax = (p: number, assoc = 0) => computeCorporationTax(fy, p, assoc).tax_pence;

  it('continuous at the limits (a penny more profit changes tax by at most a penny)', () => {
    for (const assoc of [0, 1, 2, 6]) {
      for (const limit of [50_000_00, 250_000_00].map((x) => Math.floor(x / (1 + assoc)))) {
        for (const p of [limit - 1, limit, limit + 1]) {
          expect(Math.abs(tax(p + 1, assoc) - tax(p, assoc))).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('monotone, with a marginal rate between 19% and 26.5% (within a penny)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 1_000_000_00 }),
      fc.integer({ min: 0, max: 1_000_000_00 }),
      fc.integer({ min: 0, max: 9 }),
      (a, b, assoc) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const d = tax(hi, assoc) - tax(lo, assoc);
        return d >= 0 && d >= Math.floor(0.19 * (hi - lo)) - 1 && d <= Math.ceil(0.265 * (hi - lo)) + 1;
      },
    ));
  });
});
