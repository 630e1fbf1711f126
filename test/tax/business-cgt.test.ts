// Capital gains routes: GET /v1/tax/capital-gains/rates(/{tax_year}), /allowances(/{tax_year}), POST /calculate.
// Published values (rates and allowances by year): https://www.gov.uk/guidance/capital-gains-tax-rates-and-allowances,
// https://www.gov.uk/capital-gains-tax/rates; the 30 Oct 2024 change: https://www.twpaccounting.co.uk/specialist-tax-news/capital-gains-tax-oct24/;
// BADR 10% -> 14% (6 Apr 2025) -> 18% (6 Apr 2026) and the £1m lifetime limit: https://www.gov.uk/business-asset-disposal-relief.
// Tax figures below are hand-verified: (gain - annual exempt amount) x rate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cgtData, cgtRatePeriod, cgtYears, computeCgt, type CgtAssetType, type CgtBand } from '../../src/domains/tax/cgt.js';
import { ctxAt, errorOf, get, post } from './business-helpers.js';

const CALC = '/v1/tax/capital-gains/calculate';
const rateOf = (d: any, asset: string, band: string) => d.rates.find((r: any) => r.asset_type === asset && r.taxpayer_band === band).rate;

describe('GET capital gains rates and allowances', () => {
  it('2026-27: 18/24%, BADR 18%', async () => {
    const r = await get('/v1/tax/capital-gains/rates');
    expect(r.status).toBe(200);
    const d = r.envelope.data;
    expect(d.tax_year).toBe('2026-27');
    expect(d.rates).toHaveLength(6);
    expect(rateOf(d, 'residential_property', 'higher')).toBe(0.24);
    expect(rateOf(d, 'other_assets', 'basic')).toBe(0.18);
    expect(rateOf(d, 'business_asset_disposal', 'higher')).toBe(0.18);
  });

  it('2020-21: 18/28% residential, 10/20% other, BADR 10%', async () => {
    const d = (await get('/v1/tax/capital-gains/rates/2020-21')).envelope.data;
    expect(rateOf(d, 'residential_property', 'higher')).toBe(0.28);
    expect(rateOf(d, 'other_assets', 'higher')).toBe(0.2);
    expect(rateOf(d, 'business_asset_disposal', 'basic')).toBe(0.1);
  });

  it('2024-25: year-end rates plus both disposal-date periods', async () => {
    const d = (await get('/v1/tax/capital-gains/rates/2024-25')).envelope.data;
    expect(d.as_at).toBe('2025-04-05');
    expect(rateOf(d, 'other_assets', 'higher')).toBe(0.24);
    expect(d.rates_by_disposal_date.map((p: any) => [p.from, p.to, rateOf(p, 'other_assets', 'basic')])).toEqual([
      ['2024-04-06', '2024-10-29', 0.1],
      ['2024-10-30', '2025-04-05', 0.18],
    ]);
    expect(rateOf(d, 'residential_property', 'higher')).toBe(0.24);
  });

  it('BADR 14% in 2025-26', async () => {
    expect(rateOf((await get('/v1/tax/capital-gains/rates/2025-26')).envelope.data, 'business_asset_disposal', 'basic')).toBe(0.14);
  });

  it('allowances: AEA 12,300 -> 6,000 -> 3,000; BADR lifetime 1,000,000', async () => {
    const aea = async (y: string) => (await get(`/v1/tax/capital-gains/allowances/${y}`)).envelope.data.allowances;
    expect(await aea('2022-23')).toEqual([
      { allowance_type: 'annual_exempt_amount', amount: 12300 },
      { allowance_type: 'business_asset_disposal_lifetime', amount: 1000000 },
    ]);
    expect((await aea('2023-24'))[0].amount).toBe(6000);
    expect((await aea('2024-25'))[0].amount).toBe(3000);
    expect((await get('/v1/tax/capital-gains/allowances')).envelope.data.tax_year).toBe('2026-27');
  });

  it('404 invalid_tax_year', async () => {
    expect(errorOf(await get('/v1/tax/capital-gains/rates/2019-20'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(errorOf(await get('/v1/tax/capital-gains/allowances/2030-31'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('POST /v1/tax/capital-gains/calculate', () => {
  it('£30,000 residential, higher, 2026-27: (30,000 - 3,000) x 24% = £6,480', async () => {
    const r = await post(CALC, { gain: 30000, asset_type: 'residential_property', taxpayer_band: 'higher' });
    expect(r.status).toBe(200);
    expect(r.envelope.data).toMatchObject({
      gain: 30000,
      annual_exempt_amount: 3000,
      taxable_gain: 27000,
      rate: 0.24,
      tax: 6480,
      tax_year: '2026-27',
      asset_type: 'residential_property',
      taxpayer_band: 'higher',
      disposal_date: null,
    });
  });

  it('2024-25 by disposal date: 29 Oct 20% vs 30 Oct 24% on £17,000 taxable', async () => {
    const before = (await post(CALC, { gain: 20000, asset_type: 'other_assets', taxpayer_band: 'higher', disposal_date: '2024-10-29' })).envelope.data;
    const after = (await post(CALC, { gain: 20000, asset_type: 'other_assets', taxpayer_band: 'higher', disposal_date: '2024-10-30' })).envelope.data;
    expect(before).toMatchObject({ tax_year: '2024-25', rate: 0.2, tax: 3400, disposal_date: '2024-10-29' });
    expect(after).toMatchObject({ tax_year: '2024-25', rate: 0.24, tax: 4080 });
  });

  it('2024-25 without disposal_date: the rates from 30 Oct 2024 (year end), or today while the year runs', async () => {
    const d = (await post(CALC, { gain: 20000, asset_type: 'other_assets', taxpayer_band: 'basic', tax_year: '2024-25' })).envelope.data;
    expect(d).toMatchObject({ rate: 0.18, tax: 3060, rates_as_at: '2025-04-05' });
    const inYear = (await post(CALC, { gain: 20000, asset_type: 'other_assets', taxpayer_band: 'basic' }, ctxAt('2024-08-01T12:00:00Z'))).envelope.data;
    expect(inYear).toMatchObject({ tax_year: '2024-25', rate: 0.1, tax: 1700, rates_as_at: '2024-08-01' });
  });

  it('BADR: 2025-26 £100,000 -> 97,000 x 14% = £13,580; 2024-25 10%', async () => {
    expect((await post(CALC, { gain: 100000, asset_type: 'business_asset_disposal', taxpayer_band: 'higher', tax_year: '2025-26' })).envelope.data).toMatchObject({ rate: 0.14, tax: 13580 });
    expect((await post(CALC, { gain: 100000, asset_type: 'business_asset_disposal', taxpayer_band: 'basic', tax_year: '2024-25' })).envelope.data).toMatchObject({ rate: 0.1, tax: 9700 });
  });

  it('BADR above the £1m lifetime limit: excess at the other-assets rate, AEA against the excess', async () => {
    const d = (await post(CALC, { gain: 1500000, asset_type: 'business_asset_disposal', taxpayer_band: 'higher' })).envelope.data;
    // 1,000,000 x 18% + (500,000 - 3,000) x 24% = 180,000 + 119,280
    expect(d).toMatchObject({ gain: 1500000, taxable_gain: 1497000, rate: 0.18, tax: 299280 });
    expect(d.breakdown).toEqual([
      { part: 'badr_within_lifetime_limit', gain: 1000000, annual_exempt_amount: 0, taxable_gain: 1000000, rate: 0.18, tax: 180000 },
      { part: 'above_badr_lifetime_limit', gain: 500000, annual_exempt_amount: 3000, taxable_gain: 497000, rate: 0.24, tax: 119280 },
    ]);
  });

  it('gain within the AEA: no tax; pence rounded down', async () => {
    expect((await post(CALC, { gain: 2500, asset_type: 'other_assets', taxpayer_band: 'basic' })).envelope.data).toMatchObject({ taxable_gain: 0, tax: 0 });
    // 0.99 x 18% = 0.1782 -> 0.17
    expect((await post(CALC, { gain: 3000.99, asset_type: 'other_assets', taxpayer_band: 'basic' })).envelope.data).toMatchObject({ taxable_gain: 0.99, tax: 0.17 });
  });

  it('errors', async () => {
    const ok = { gain: 1000, asset_type: 'other_assets', taxpayer_band: 'basic' };
    expect(errorOf(await post(CALC, { asset_type: 'other_assets', taxpayer_band: 'basic' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { gain: 1000, taxpayer_band: 'basic' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { gain: 1000, asset_type: 'other_assets' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, gain: -5 }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, asset_type: 'crypto' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, taxpayer_band: 'additional' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, disposal_date: '2024-13-01' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, disposal_date: '2020-04-05' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, disposal_date: '2024-11-01', tax_year: '2025-26' }))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(errorOf(await post(CALC, { ...ok, tax_year: '2019-20' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
  });
});

describe('CGT properties', () => {
  const assets: CgtAssetType[] = ['residential_property', 'other_assets', 'business_asset_disposal'];
  const bands: CgtBand[] = ['basic', 'higher'];
  const setups = cgtYears().flatMap((y) => cgtData().years[y]!.rate_periods.map((p) => ({ y, p })));
  const arb = fc.record({
    s: fc.constantFrom(...setups),
    asset: fc.constantFrom(...assets),
    band: fc.constantFrom(...bands),
    a: fc.integer({ min: 0, max: 300_000_000_00 }),
    b: fc.integer({ min: 0, max: 300_000_000_00 }),
  });
  const run = (s: (typeof setups)[number], asset: CgtAssetType, band: CgtBand, gain: number) =>
    computeCgt({
      gainPence: gain,
      assetType: asset,
      band,
      rates: s.p.rates,
      aeaPence: cgtData().years[s.y]!.annual_exempt_amount * 100,
      badrLimitPence: cgtData().years[s.y]!.business_asset_disposal_lifetime * 100,
    });

  it('tax is monotone in the gain, zero within the AEA, and below gain x the highest rate', () => {
    fc.assert(fc.property(arb, ({ s, asset, band, a, b }) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const tl = run(s, asset, band, lo);
      const th = run(s, asset, band, hi);
      const aea = cgtData().years[s.y]!.annual_exempt_amount * 100;
      const maxRate = Math.max(...Object.values(s.p.rates).flatMap((x) => Object.values(x)));
      return tl.tax_pence <= th.tax_pence && (lo > aea || tl.tax_pence === 0) && th.tax_pence <= hi * maxRate + 1;
    }));
  });

  it('every year has rate periods covering the whole tax year without gaps', () => {
    for (const y of cgtYears()) {
      const start = `${y.slice(0, 4)}-04-06`;
      const end = `${Number(y.slice(0, 4)) + 1}-04-05`;
      expect(cgtRatePeriod(y, start), y).toBeDefined();
      expect(cgtRatePeriod(y, end), y).toBeDefined();
      const ps = cgtData().years[y]!.rate_periods;
      for (let k = 1; k < ps.length; k++) {
        const next = new Date(`${ps[k - 1]!.to}T00:00:00Z`);
        next.setUTCDate(next.getUTCDate() + 1);
        expect(ps[k]!.from).toBe(next.toISOString().slice(0, 10));
      }
    }
  });
});
