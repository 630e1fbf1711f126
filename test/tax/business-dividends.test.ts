// Dividend routes: GET /v1/tax/dividends/rates(/{tax_year}), POST /v1/tax/dividends/calculate.
// Published values: https://www.gov.uk/tax-on-dividends (allowance £500 from 2024-25; 8.75/33.75/39.35% to 2025-26);
// 2026-27 10.75% / 35.75% / 39.35% (Budget 26 Nov 2025):
// https://www.uktaxpolicymap.com/taxing-work-and-wealth/increase-in-tax-rates-on-property--savings-and-dividend-income.aspx
// Worked figures are hand-verified: (dividends - allowance) x rate of the band.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDividendTax, dividendData, dividendYears } from '../../src/domains/tax/dividends.js';
import { errorOf, get, post } from './business-helpers.js';

const CALC = '/v1/tax/dividends/calculate';

describe('GET /v1/tax/dividends/rates', () => {
  it('2026-27: allowance 500; 10.75 / 35.75 / 39.35%', async () => {
    const r = await get('/v1/tax/dividends/rates');
    expect(r.status).toBe(200);
    expect(r.envelope.data).toEqual({
      tax_year: '2026-27',
      dividend_allowance: 500,
      rates: [
        { band: 'basic', rate: 0.1075 },
        { band: 'higher', rate: 0.3575 },
        { band: 'additional', rate: 0.3935 },
      ],
    });
    expect(r.envelope.meta.source_url).toBe('https://www.gov.uk/tax-on-dividends');
  });

  it('history: 2,000 (7.5/32.5/38.1%) in 2020-21; 1,000 in 2023-24; +1.25 points from 2022-23', async () => {
    const d20 = (await get('/v1/tax/dividends/rates/2020-21')).envelope.data;
    expect(d20.dividend_allowance).toBe(2000);
    expect(d20.rates.map((x: any) => x.rate)).toEqual([0.075, 0.325, 0.381]);
    expect((await get('/v1/tax/dividends/rates/2023-24')).envelope.data.dividend_allowance).toBe(1000);
    expect((await get('/v1/tax/dividends/rates/2022-23')).envelope.data.rates.map((x: any) => x.rate)).toEqual([0.0875, 0.3375, 0.3935]);
  });

  it('404 invalid_tax_year', async () => {
    expect(errorOf(await get('/v1/tax/dividends/rates/2019-20'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('POST /v1/tax/dividends/calculate', () => {
  it('£10,000 higher 2026-27: 9,500 x 35.75% = £3,396.25', async () => {
    const r = await post(CALC, { dividend_income: 10000, taxpayer_band: 'higher' });
    expect(r.status).toBe(200);
    expect(r.envelope.data).toEqual({
      dividend_income: 10000,
      allowance: 500,
      taxable_dividends: 9500,
      rate: 0.3575,
      tax: 3396.25,
      tax_year: '2026-27',
      taxpayer_band: 'higher',
    });
  });

  it('£3,000 basic 2025-26: 2,500 x 8.75% = £218.75 (gov.uk tax-on-dividends method)', async () => {
    expect((await post(CALC, { dividend_income: 3000, taxpayer_band: 'basic', tax_year: '2025-26' })).envelope.data).toMatchObject({ taxable_dividends: 2500, tax: 218.75 });
  });

  it('additional 2020-21: (5,000 - 2,000) x 38.1% = £1,143; within the allowance: nil; pence rounded down', async () => {
    expect((await post(CALC, { dividend_income: 5000, taxpayer_band: 'additional', tax_year: '2020-21' })).envelope.data.tax).toBe(1143);
    expect((await post(CALC, { dividend_income: 400, taxpayer_band: 'higher' })).envelope.data).toMatchObject({ taxable_dividends: 0, tax: 0, allowance: 500 });
    // 500.99: 0.99 x 10.75% = 0.106425 -> 0.10
    expect((await post(CALC, { dividend_income: 500.99, taxpayer_band: 'basic' })).envelope.data.tax).toBe(0.1);
  });

  it('errors', async () => {
    expect(errorOf(await post(CALC, { taxpayer_band: 'basic' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { dividend_income: 100 }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { dividend_income: 100, taxpayer_band: 'top' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { dividend_income: -1, taxpayer_band: 'basic' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { dividend_income: 100, taxpayer_band: 'basic', tax_year: '2027-28' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('dividend properties', () => {
  it('tax monotone in income and equal to max(0, income - allowance) x rate rounded down', () => {
    const years = dividendYears();
    fc.assert(fc.property(
      fc.constantFrom(...years),
      fc.constantFrom('basic', 'higher', 'additional' as const),
      fc.integer({ min: 0, max: 100_000_000_00 }),
      fc.integer({ min: 0, max: 100_000_000_00 }),
      (y, band, a, b) => {
        const yr = dividendData().years[y]!;
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const tl = computeDividendTax(lo, yr.dividend_allowance * 100, yr.rates[band]);
        const th = computeDividendTax(hi, yr.dividend_allowance * 100, yr.rates[band]);
        return tl.tax_pence <= th.tax_pence && tl.taxable_pence === Math.max(0, lo - yr.dividend_allowance * 100);
      },
    ));
  });
});
