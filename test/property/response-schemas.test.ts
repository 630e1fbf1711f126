/**
 * The property response schemas state the spec's shapes (docs/spec/2-property-companies.md,
 * GOVDATA-NOTES.md), independently of the handlers: the published example answers fit, and answers that
 * break a rule the spec states (a field's type or values, where pagination sits, which meta fields a route
 * has, a field absent on an event kind) do not. Real answers are checked in test/server/conformance.test.ts and in
 * this domain's route tests (test/support/schema-check.ts). The companies half is test/companies/response-schemas.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { schemaMisfits } from '../support/schema-check.js';

const LICENCE = 'Open Government Licence v3.0';
const ppMeta = { api_version: 'v1', licence: LICENCE, source: 'HM Land Registry', source_url: 'https://www.gov.uk/government/collections/price-paid-data' };

// GOVDATA-NOTES.md "Property and companies": the published price-paid example (its id is elided there: a UUID here).
const ppItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001', price: 1250000, date: '2024-11-15', postcode: 'SW1A 1AA', property_type: 'flat',
  new_build: false, tenure: 'leasehold', address: 'FLAT 3, 12 DOWNING STREET, LONDON',
};
const ppSearch = (item: Record<string, unknown> = ppItem) => ({ data: { transactions: [item], pagination: { page: 1, per_page: 25, total: 1 } }, meta: ppMeta });

const breakdown = { price: null, index: null, monthly_change: null, annual_change: null };
const hpiRecord = {
  date: '2025-01-01', region: { code: 'E92000001', name: 'England' }, average_price: 290000, index: 150.2, index_sa: null,
  monthly_change: -0.3, annual_change: 4.1, average_price_sa: null, sales_volume: null,
  ...Object.fromEntries(['detached', 'semi_detached', 'terraced', 'flat', 'ftb', 'foo'].map((k) => [k, breakdown])),
  ...Object.fromEntries(['cash', 'mortgage', 'new_build', 'old'].map((k) => [k, { ...breakdown, sales_volume: null }])),
};
const page1 = { total: 1, page: 1, per_page: 25, total_pages: 1 };

describe('property schemas (2-property-companies.md §2, §4)', () => {
  it('sold-price search: the published example fits; pagination sits inside data, not at the top; property_type values', async () => {
    expect(await schemaMisfits('property.price-paid.search', ppSearch())).toEqual([]);
    expect(await schemaMisfits('property.price-paid.address', ppSearch())).toEqual([]);
    const top = { data: { transactions: [ppItem] }, meta: ppMeta, pagination: page1 };
    expect((await schemaMisfits('property.price-paid.search', top)).join()).toMatch(/pagination/);
    expect((await schemaMisfits('property.price-paid.search', ppSearch({ ...ppItem, property_type: 'semi-detached' }))).join()).toMatch(/property_type/);
    expect((await schemaMisfits('property.price-paid.search', ppSearch({ ...ppItem, price: 1250000.5 }))).join()).toMatch(/price/);
    const { source_url: _u, ...noUrl } = ppMeta;
    expect((await schemaMisfits('property.price-paid.search', { ...ppSearch(), meta: noUrl })).join()).toMatch(/source_url/);
  });

  it('sold-price detail: the list fields plus estate_type, town, district, county (strings)', async () => {
    const detail = { ...ppItem, estate_type: 'leasehold', town: 'LONDON', district: 'CITY OF WESTMINSTER', county: 'GREATER LONDON',
      paon: '12', saon: 'FLAT 3', street: 'DOWNING STREET', locality: null, ppd_category: 'A' };
    expect(await schemaMisfits('property.price-paid.get', { data: detail, meta: ppMeta })).toEqual([]);
    expect((await schemaMisfits('property.price-paid.get', { data: { ...detail, estate_type: null }, meta: ppMeta })).join()).toMatch(/estate_type/);
    const { county: _c, ...noCounty } = detail;
    expect((await schemaMisfits('property.price-paid.get', { data: noCounty, meta: ppMeta })).join()).toMatch(/county/);
  });

  it('HPI record: nulls where the spec allows them, numbers elsewhere; top-level pagination', async () => {
    const meta = { ...ppMeta, source_url: 'https://www.gov.uk/government/collections/uk-house-price-index-reports' };
    expect(await schemaMisfits('property.hpi', { data: [hpiRecord], meta, pagination: page1 })).toEqual([]);
    expect((await schemaMisfits('property.hpi', { data: [hpiRecord], meta })).join()).toMatch(/pagination/);
    expect((await schemaMisfits('property.hpi', { data: [{ ...hpiRecord, average_price: '290000' }], meta, pagination: page1 })).join()).toMatch(/average_price/);
    expect((await schemaMisfits('property.hpi', { data: [{ ...hpiRecord, date: '2025-01' }], meta, pagination: page1 })).join()).toMatch(/date/);
  });

  it('council tax: band A to H, financial_year YYYY-YY', async () => {
    const meta = { api_version: 'v1', licence: LICENCE, source: 'MHCLG', source_url: 'https://www.gov.uk/government/collections/council-tax-statistics' };
    const rec = { authority_code: 'E06000023', authority_name: 'Bristol', financial_year: '2026-27', band: 'D', amount: 2713.68 };
    expect(await schemaMisfits('property.council-tax', { data: [rec], meta, pagination: page1 })).toEqual([]);
    expect((await schemaMisfits('property.council-tax', { data: [{ ...rec, band: 'I' }], meta, pagination: page1 })).join()).toMatch(/band/);
    expect((await schemaMisfits('property.council-tax', { data: [{ ...rec, financial_year: '2026' }], meta, pagination: page1 })).join()).toMatch(/financial_year/);
  });
});
