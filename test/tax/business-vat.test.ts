// VAT routes: GET /v1/tax/vat/rates(/{tax_year}), GET /v1/tax/vat/flat-rate-percentages, POST /v1/tax/vat/calculate.
// Published values:
//  - rates 20% / 5% / 0%: https://www.gov.uk/vat-rates
//  - VAT fraction 1/6 at 20% (VAT in a VAT-inclusive £120 is £20): VAT Notice 700, https://www.gov.uk/guidance/vat-guide-notice-700
//  - invoice rounding down to the whole penny: Notice 700 section 16 and HMRC VATREC12010,
//    https://www.gov.uk/hmrc-internal-manuals/vat-trader-records/vatrec12010
//  - flat-rate percentages: https://www.gov.uk/vat-flat-rate-scheme/how-much-you-pay; hospitality: https://hlas.co.uk/?p=17909
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addVat, extractVat } from '../../src/domains/tax/vat.js';
import { ctxAt, errorOf, get, post } from './business-helpers.js';

const CALC = '/v1/tax/vat/calculate';

describe('GET /v1/tax/vat/rates', () => {
  it('current year: three rates and the flat-rate business types', async () => {
    const r = await get('/v1/tax/vat/rates');
    expect(r.status).toBe(200);
    const d = r.envelope.data;
    expect(d.tax_year).toBe('2026-27');
    expect(d.rates).toEqual([
      { name: 'standard', label: 'Standard rate', rate: 0.2, effective_date: '2011-01-04', description: expect.any(String) },
      { name: 'reduced', label: 'Reduced rate', rate: 0.05, effective_date: '1997-09-01', description: expect.any(String) },
      { name: 'zero', label: 'Zero rate', rate: 0, effective_date: '1973-04-01', description: expect.any(String) },
    ]);
    expect(d.flat_rate_schemes).toHaveLength(56);
    expect(d.flat_rate_schemes[0]).toMatchObject({ business_type: 'Accountancy or book-keeping', rate: 0.145 });
    expect(d.flat_rate_schemes.find((x: any) => x.code === 'limited_cost_business').rate).toBe(0.165);
    expect(d.temporary_rates).toEqual([]);
    expect(r.envelope.meta).toMatchObject({ api_version: 'v1', source: 'HM Revenue & Customs', as_of: '2026-11-21' });
  });

  it('2020-21 lists the 5% hospitality rate and the year-end hospitality flat-rate percentages', async () => {
    const d = (await get('/v1/tax/vat/rates/2020-21')).envelope.data;
    expect(d.as_at).toBe('2021-04-05');
    expect(d.temporary_rates).toEqual([expect.objectContaining({ rate: 0.05, effective_date: '2020-07-15', end_date: '2021-09-30' })]);
    const frs = (code: string) => d.flat_rate_schemes.find((x: any) => x.code === code).rate;
    expect(frs('hotel_or_accommodation')).toBe(0);
    expect(frs('pubs')).toBe(0.01);
    expect(frs('catering_services_including_restaurants_and_takeaways')).toBe(0.045);
  });

  it('2021-22 spans 5% then 12.5%', async () => {
    const d = (await get('/v1/tax/vat/rates/2021-22')).envelope.data;
    expect(d.temporary_rates.map((t: any) => t.rate)).toEqual([0.05, 0.125]);
  });

  it('404 invalid_tax_year outside coverage or malformed', async () => {
    expect(errorOf(await get('/v1/tax/vat/rates/2019-20'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(errorOf(await get('/v1/tax/vat/rates/2027-28'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(errorOf(await get('/v1/tax/vat/rates/2026-2028'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('GET /v1/tax/vat/flat-rate-percentages', () => {
  it('table in force today with its effective date and source', async () => {
    const r = await get('/v1/tax/vat/flat-rate-percentages');
    expect(r.status).toBe(200);
    const d = r.envelope.data;
    expect(d.effective_date).toBe('2022-04-01');
    expect(d.source).toBe('https://www.gov.uk/vat-flat-rate-scheme/how-much-you-pay');
    expect(d.categories).toHaveLength(56);
    expect(d.categories.find((c: any) => c.code === 'management_consultancy')).toEqual({
      code: 'management_consultancy',
      description: 'Management consultancy',
      percentage: 14,
      first_year_percentage: 13,
    });
  });

  it('follows the clock: hospitality percentages in January 2022', async () => {
    const d = (await get('/v1/tax/vat/flat-rate-percentages', ctxAt('2022-01-15T12:00:00Z'))).envelope.data;
    expect(d.effective_date).toBe('2021-10-01');
    expect(d.categories.find((c: any) => c.code === 'pubs')).toMatchObject({ percentage: 4, first_year_percentage: 3 });
  });
});

describe('POST /v1/tax/vat/calculate', () => {
  it('adds 20% to a net amount (default standard, exclusive)', async () => {
    const r = await post(CALC, { amount: 100 });
    expect(r.status).toBe(200);
    expect(r.envelope.data).toMatchObject({
      net_amount: 100,
      vat_amount: 20,
      total: 120,
      rate: 0.2,
      rate_name: 'Standard rate',
      rate_type: 'standard',
      direction: 'exclusive',
      tax_year: '2026-27',
      date: '2026-11-21',
    });
  });

  it('extracts VAT from £120 inclusive: £20 (VAT fraction 1/6)', async () => {
    const d = (await post(CALC, { amount: 120, direction: 'inclusive' })).envelope.data;
    expect(d).toMatchObject({ net_amount: 100, vat_amount: 20, total: 120, direction: 'inclusive' });
  });

  it('exclusive rounds VAT down to the penny: £10.99 -> £2.19 (2.198)', async () => {
    const d = (await post(CALC, { amount: 10.99 })).envelope.data;
    expect(d).toMatchObject({ net_amount: 10.99, vat_amount: 2.19, total: 13.18 });
  });

  it('inclusive rounds VAT to the nearest penny: £10.00 -> £1.67 (1.6667); £0.03 -> £0.01 (0.005 half up)', async () => {
    expect((await post(CALC, { amount: 10, direction: 'inclusive' })).envelope.data).toMatchObject({ net_amount: 8.33, vat_amount: 1.67, total: 10 });
    expect((await post(CALC, { amount: 0.03, direction: 'inclusive' })).envelope.data).toMatchObject({ net_amount: 0.02, vat_amount: 0.01 });
  });

  it('reduced 5% and zero rates', async () => {
    expect((await post(CALC, { amount: 200, rate: 'reduced' })).envelope.data).toMatchObject({ vat_amount: 10, total: 210, rate: 0.05, rate_type: 'reduced' });
    expect((await post(CALC, { amount: 210, rate: 'reduced', direction: 'inclusive' })).envelope.data).toMatchObject({ net_amount: 200, vat_amount: 10 });
    expect((await post(CALC, { amount: 99.99, rate: 'zero' })).envelope.data).toMatchObject({ vat_amount: 0, total: 99.99, rate: 0 });
  });

  it('rate by date, or by tax_year (today if in the year, else 5 April)', async () => {
    expect((await post(CALC, { amount: 50, date: '2020-12-25' })).envelope.data).toMatchObject({ tax_year: '2020-21', date: '2020-12-25', vat_amount: 10 });
    expect((await post(CALC, { amount: 50, tax_year: '2022-23' })).envelope.data).toMatchObject({ tax_year: '2022-23', date: '2023-04-05' });
    expect((await post(CALC, { amount: 50, tax_year: '2026-27', date: '2026-04-06' })).envelope.data.date).toBe('2026-04-06');
  });

  it('errors', async () => {
    expect(errorOf(await post(CALC, {}))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { amount: -1 }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { amount: '100' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { amount: 1, rate: 'luxury' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { amount: 1, direction: 'sideways' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { amount: 1, date: '2026-02-30' }))).toMatchObject({ status: 400, code: 'bad_request' });
    const out = errorOf(await post(CALC, { amount: 1, date: '2019-06-01' }));
    expect(out).toMatchObject({ status: 400, code: 'bad_request' });
    expect(out.message).toContain('2020-04-06 to 2027-04-05');
    expect(errorOf(await post(CALC, { amount: 1, date: '2025-01-01', tax_year: '2026-27' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { amount: 1, tax_year: '2019-20' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(errorOf(await post(CALC, { amount: 1, tax_year: '2026/27' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(errorOf(await post(CALC, { amount: 1e20 }))).toMatchObject({ status: 400, code: 'bad_request' });
  });
});

describe('VAT properties', () => {
  const rates = fc.constantFrom(0.2, 0.05, 0, 0.125);
  const pence = fc.integer({ min: 0, max: 10_000_000_000_00 });

  it('VAT is the exact fraction rounded as Notice 700 says (independent BigInt arithmetic on rational rates)', () => {
    // rate = num/den: 20% = 1/5, 5% = 1/20, 12.5% = 1/8, 0% = 0/1
    const fraction: Record<number, [bigint, bigint]> = { 0.2: [1n, 5n], 0.05: [1n, 20n], 0.125: [1n, 8n], 0: [0n, 1n] };
    fc.assert(fc.property(pence, rates, (amount, r) => {
      const [num, den] = fraction[r]!;
      const a = BigInt(amount);
      // exclusive: VAT = amount x rate, rounded down to the penny
      const exVat = Number((a * num) / den);
      // inclusive: VAT = amount x rate / (1 + rate) = amount x num / (den + num), nearest penny, half up
      const d = den + num;
      const inVat = Number((2n * a * num + d) / (2n * d));
      const ex = addVat(amount, r);
      const inc = extractVat(amount, r);
      return ex.vat_pence === exVat && ex.total_pence === amount + exVat && inc.vat_pence === inVat && inc.net_pence === amount - inVat;
    }));
  });

  it('exclusive then inclusive round trip: net back within a penny', () => {
    fc.assert(fc.property(pence, rates, (n, r) => {
      const a = addVat(n, r);
      const b = extractVat(a.total_pence, r);
      return Math.abs(b.net_pence - n) <= 1;
    }));
  });

  it('inclusive then exclusive round trip: gross back within a penny', () => {
    fc.assert(fc.property(pence, rates, (g, r) => {
      const b = extractVat(g, r);
      return Math.abs(addVat(b.net_pence, r).total_pence - g) <= 1;
    }));
  });

  it('VAT is monotone in the amount and never more than amount x rate', () => {
    fc.assert(fc.property(pence, pence, rates, (a, b, r) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return addVat(lo, r).vat_pence <= addVat(hi, r).vat_pence && extractVat(lo, r).vat_pence <= extractVat(hi, r).vat_pence;
    }));
  });
});
