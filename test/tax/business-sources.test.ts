// Every business-tax data entry carries a source (a URL), and the data covers 2020-21 to 2026-27 (spec doc 3:
// "VAT, capital gains, dividend and corporation tax 2020-21 to 2026-27"). VAT entries: business-vat-data.test.ts.
import { describe, expect, it } from 'vitest';
import { cgtData } from '../../src/domains/tax/cgt.js';
import { ctData } from '../../src/domains/tax/corporation.js';
import { dividendData } from '../../src/domains/tax/dividends.js';
import { vatData } from '../../src/domains/tax/vat-data.js';

const COVERAGE = ['2020-21', '2021-22', '2022-23', '2023-24', '2024-25', '2025-26', '2026-27'];
const isUrl = (s: unknown) => typeof s === 'string' && /^https?:\/\/\S+$/.test(s);

describe('business tax data: sources and coverage', () => {
  const files = {
    capital_gains: cgtData(),
    dividends: dividendData(),
    corporation_tax: ctData(),
  };

  for (const [name, d] of Object.entries(files)) {
    it(`${name}: every year has at least one URL source; coverage 2020-21..2026-27`, () => {
      expect(Object.keys(d.years)).toEqual(COVERAGE);
      for (const [y, entry] of Object.entries(d.years as Record<string, { source: unknown }>)) {
        expect(Array.isArray(entry.source) && entry.source.length > 0, `${name} ${y}`).toBe(true);
        for (const s of entry.source as unknown[]) expect(isUrl(s), `${name} ${y}: ${String(s)}`).toBe(true);
      }
      expect(isUrl(d.meta.source_url)).toBe(true);
      expect(d.meta.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const s of Object.values(d.sources)) expect(isUrl(s)).toBe(true);
    });
  }

  it('vat: coverage and named sources are URLs', () => {
    const d = vatData();
    expect(d.meta.tax_years).toEqual(COVERAGE);
    for (const s of Object.values(d.sources)) expect(isUrl(s)).toBe(true);
  });

  it('corporation tax: FY number matches the tax-year label; marginal relief only from FY2023', () => {
    for (const [y, e] of Object.entries(ctData().years)) {
      expect(e.financial_year).toBe(Number(y.slice(0, 4)));
      expect(e.small_profits === null).toBe(e.financial_year < 2023);
    }
  });

  it('capital gains: every rate period names all asset types and bands', () => {
    for (const [y, e] of Object.entries(cgtData().years)) {
      for (const p of e.rate_periods) {
        for (const a of cgtData().meta.asset_types) for (const b of cgtData().meta.bands) expect(typeof p.rates[a][b], `${y} ${a} ${b}`).toBe('number');
      }
    }
  });
});
