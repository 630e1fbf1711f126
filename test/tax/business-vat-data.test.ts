// VAT reference data API (src/domains/tax/vat-data.ts), used by the VAT return engine.
// Sources: table of VAT Regulations 1995 reg 55K as substituted by SI 2010/2940 reg 4
// (https://www.legislation.gov.uk/uksi/2010/2940/regulation/4); gov.uk "VAT Flat Rate Scheme: how much you pay"
// (https://www.gov.uk/vat-flat-rate-scheme/how-much-you-pay); hospitality percentages:
// https://hlas.co.uk/?p=17909 (table of all three periods).
import { describe, expect, it } from 'vitest';
import {
  LIMITED_COST_TRADER_CODE,
  flatRateCategories,
  flatRateCategory,
  flatRateTableEffectiveDate,
  registrationThreshold,
  temporaryVatRates,
  vatData,
  vatRate,
} from '../../src/domains/tax/vat-data.js';

const slug = (s: string) => s.toLowerCase().replace(/'s\b/g, 's').replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

describe('flat-rate categories', () => {
  it('has the 55 reg 55K rows plus the limited cost business category today', () => {
    const cats = flatRateCategories('2026-11-21');
    expect(cats).toHaveLength(56);
    expect(new Set(cats.map((c) => c.code)).size).toBe(56);
    expect(LIMITED_COST_TRADER_CODE).toBe('limited_cost_business');
    expect(flatRateCategory(LIMITED_COST_TRADER_CODE, '2026-11-21')).toEqual({
      code: 'limited_cost_business',
      description: expect.stringContaining('Limited cost business'),
      percentage: 16.5,
      first_year_percentage: 15.5,
    });
  });

  it('codes are the documented slugs of the descriptions', () => {
    for (const c of flatRateCategories('2026-11-21')) {
      if (c.code === LIMITED_COST_TRADER_CODE) continue;
      expect(c.code).toBe(slug(c.description));
      expect(c.code).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
    }
  });

  it('published percentages (gov.uk how much you pay)', () => {
    const d = '2026-11-21';
    expect(flatRateCategory('accountancy_or_book_keeping', d)).toMatchObject({ percentage: 14.5, first_year_percentage: 13.5 });
    expect(flatRateCategory('computer_and_it_consultancy_or_data_processing', d)?.percentage).toBe(14.5);
    expect(flatRateCategory('retailing_food_confectionery_tobacco_newspapers_or_childrens_clothing', d)?.percentage).toBe(4);
    expect(flatRateCategory('transport_or_storage_including_couriers_freight_removals_and_taxis', d)?.percentage).toBe(10);
    expect(flatRateCategory('post_offices', d)?.percentage).toBe(5);
    expect(flatRateCategory('labour_only_building_or_construction_services', d)?.percentage).toBe(14.5);
    expect(flatRateCategory('no_such_code', d)).toBeUndefined();
  });

  it('temporary hospitality percentages by date, edges inclusive', () => {
    const cat = 'catering_services_including_restaurants_and_takeaways';
    expect(flatRateCategory(cat, '2020-07-14')?.percentage).toBe(12.5);
    expect(flatRateCategory(cat, '2020-07-15')?.percentage).toBe(4.5);
    expect(flatRateCategory(cat, '2021-09-30')?.percentage).toBe(4.5);
    expect(flatRateCategory(cat, '2021-10-01')?.percentage).toBe(8.5);
    expect(flatRateCategory(cat, '2022-03-31')?.percentage).toBe(8.5);
    expect(flatRateCategory(cat, '2022-04-01')?.percentage).toBe(12.5);
    expect(flatRateCategory('hotel_or_accommodation', '2021-01-01')).toMatchObject({ percentage: 0, first_year_percentage: 0 });
    expect(flatRateCategory('hotel_or_accommodation', '2022-01-01')?.percentage).toBe(5.5);
    expect(flatRateCategory('pubs', '2021-01-01')?.percentage).toBe(1);
    expect(flatRateCategory('pubs', '2022-01-01')?.percentage).toBe(4);
    expect(flatRateCategory('pubs', '2023-01-01')?.percentage).toBe(6.5);
    expect(flatRateTableEffectiveDate('2026-11-21')).toBe('2022-04-01');
    expect(flatRateTableEffectiveDate('2021-01-01')).toBe('2020-07-15');
  });

  it('limited cost business only from 1 April 2017; nothing before 4 Jan 2011', () => {
    expect(flatRateCategory(LIMITED_COST_TRADER_CODE, '2017-03-31')).toBeUndefined();
    expect(flatRateCategory(LIMITED_COST_TRADER_CODE, '2017-04-01')?.percentage).toBe(16.5);
    expect(flatRateCategories('2016-01-01')).toHaveLength(55);
    expect(flatRateCategories('2010-12-31')).toEqual([]);
  });

  it('rejects malformed dates', () => {
    expect(() => flatRateCategories('21/11/2026')).toThrow(RangeError);
    expect(() => vatRate('standard', '2026-1-1')).toThrow(RangeError);
  });
});

describe('VAT rates', () => {
  it('standard, reduced and zero rates', () => {
    expect(vatRate('standard', '2026-11-21')).toMatchObject({ rate: 0.2, effective_date: '2011-01-04', label: 'Standard rate' });
    expect(vatRate('reduced', '2021-01-01')).toMatchObject({ rate: 0.05, effective_date: '1997-09-01' });
    expect(vatRate('zero', '2020-04-06').rate).toBe(0);
    expect(() => vatRate('standard', '2010-12-31')).toThrow(RangeError);
  });

  it('temporary hospitality rates 5% then 12.5%', () => {
    expect(temporaryVatRates('2020-04-06', '2021-04-05').map((t) => t.rate)).toEqual([0.05]);
    expect(temporaryVatRates('2021-04-06', '2022-04-05').map((t) => t.rate)).toEqual([0.05, 0.125]);
    expect(temporaryVatRates('2022-04-06', '2023-04-05')).toEqual([]);
  });

  it('registration threshold 85,000 then 90,000 from 1 April 2024', () => {
    expect(registrationThreshold('2024-03-31')).toBe(85000);
    expect(registrationThreshold('2024-04-01')).toBe(90000);
  });
});

describe('every VAT data entry has a source', () => {
  const hasSource = (s: unknown) =>
    (typeof s === 'string' && /^https?:\/\//.test(s)) || (Array.isArray(s) && s.length > 0 && s.every((x) => typeof x === 'string' && /^https?:\/\//.test(x)));
  it('rates, temporary rates, thresholds, scheme limits and every category period', () => {
    const d = vatData();
    for (const r of d.rates) for (const p of r.periods) expect(hasSource(p.source), `${r.name} ${p.from}`).toBe(true);
    for (const t of d.temporary_rates) expect(hasSource(t.source)).toBe(true);
    for (const p of [...d.registration.registration_threshold, ...d.registration.deregistration_threshold]) expect(hasSource(p.source)).toBe(true);
    const f = d.flat_rate_scheme;
    for (const v of [f.first_year_reduction_points, f.join_limit_taxable_turnover_ex_vat, f.leave_limit_total_income_inc_vat]) expect(hasSource(v.source)).toBe(true);
    for (const c of f.categories) for (const p of c.percentages) expect(hasSource(p.source), `${c.code} ${p.from}`).toBe(true);
  });
});
