/**
 * The property and companies response schemas state the spec's shapes (docs/spec/2-property-companies.md,
 * GOVDATA-NOTES.md), independently of the handlers: the published example answers fit, and answers that
 * break a rule the spec states (a field's type or values, where pagination sits, which meta fields a route
 * has, a field absent on an event kind) do not. Real answers are checked in conformance.test.ts and in the
 * domains' route tests (test/support/schema-check.ts).
 */
import { describe, expect, it } from 'vitest';
import { schemaMisfits } from '../support/schema-check.js';

const LICENCE = 'Open Government Licence v3.0';
const ppMeta = { api_version: 'v1', licence: LICENCE, source: 'HM Land Registry', source_url: 'https://www.gov.uk/government/collections/price-paid-data' };
const chMeta = { api_version: 'v1', licence: LICENCE, source: 'Companies House', source_url: 'https://download.companieshouse.gov.uk' };

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

const summary = {
  company_number: '00445790', company_name: 'TESCO PLC', company_status: 'active', company_type: 'plc', date_of_creation: '1947-11-27',
  registered_office_address: { postal_code: 'WD18 8AT', locality: 'WELWYN GARDEN CITY' }, sic_codes: ['47110'],
};

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

describe('companies schemas (2-property-companies.md §2-§4)', () => {
  it('search: company summaries, meta.query echoes q, top-level pagination; sic_codes are strings in a summary', async () => {
    expect(await schemaMisfits('companies.search', { data: [summary], meta: { ...chMeta, query: 'tesco' }, pagination: page1 })).toEqual([]);
    expect((await schemaMisfits('companies.search', { data: [summary], meta: chMeta, pagination: page1 })).join()).toMatch(/query/);
    const objs = { ...summary, sic_codes: [{ code: '47110', description: 'Retail sale in non-specialised stores' }] };
    expect((await schemaMisfits('companies.list', { data: [objs], meta: chMeta, pagination: page1 })).join()).toMatch(/sic_codes/);
    expect((await schemaMisfits('companies.list', { data: [{ ...summary, company_number: '445790' }], meta: chMeta, pagination: page1 })).join()).toMatch(/company_number/);
  });

  it('financials: meta without source_url fits (the spec: "meta has no source_url"); figures are numbers', async () => {
    const { source_url: _u, ...meta } = chMeta;
    const fin = { revenue: 1, cost_of_sales: null, gross_profit: null, profit_before_tax: 2, total_assets: 3, net_assets: 4, employees_count: 5,
      current_assets: null, current_liabilities: null, cash: null, directors_remuneration: null };
    const filing = { period_start: '2025-01-01', period_end: '2025-12-31', filing_type: 'full', accounting_standard: 'FRS 102', filed_at: '2026-03-01T00:00:00Z', financials: fin };
    const data = { company_number: '00445790', company_name: 'TESCO PLC', filings_count: 1, filings: [filing] };
    expect(await schemaMisfits('companies.financials', { data, meta })).toEqual([]);
    const bad = { ...data, filings: [{ ...filing, financials: { ...fin, employees_count: 5.5 } }] };
    expect((await schemaMisfits('companies.financials', { data: bad, meta })).join()).toMatch(/employees_count/);
    expect((await schemaMisfits('companies.financials', { data: { ...data, filings: [{ ...filing, filed_at: '2026-03-01' }] }, meta })).join()).toMatch(/filed_at/);
  });

  it('PSC changes: appointed or ceased, natures_of_control absent on ceased', async () => {
    const appointed = { event: 'appointed', date: '2016-04-06', name: 'Jane Doe', psc_type: 'individual', natures_of_control: ['ownership-of-shares-75-to-100-percent'] };
    const ceased = { event: 'ceased', date: '2018-05-14', name: 'Jane Doe', psc_type: 'individual' };
    const env = (events: unknown[]) => ({ data: { company_number: '09145694', company_name: 'X LTD', total_events: events.length, events }, meta: chMeta });
    expect(await schemaMisfits('companies.psc.changes', env([appointed, ceased]))).toEqual([]);
    expect(await schemaMisfits('companies.psc.changes', env([{ ...ceased, natures_of_control: [] }]))).not.toEqual([]);
    expect(await schemaMisfits('companies.psc.changes', env([{ ...appointed, event: 'notified' }]))).not.toEqual([]);
  });

  it('timeline event types and health signals are the spec\'s sets (§3)', async () => {
    const tl = (type: string) => ({ data: { company_number: '00445790', company_name: 'TESCO PLC', event_count: 1, events: [{ date: '1947-11-27', type, description: 'x' }] }, meta: chMeta });
    expect(await schemaMisfits('companies.timeline', tl('incorporation'))).toEqual([]);
    expect((await schemaMisfits('companies.timeline', tl('dissolved'))).join()).toMatch(/type/);
    const r = (signal: string) => ({ value: 1.2, signal, label: 'x' });
    const health = (signal: string) => ({
      data: { company_number: '00445790', company_name: 'TESCO PLC', period_end: '2025-02-22',
        health: Object.fromEntries(['current_ratio', 'debt_to_equity', 'profit_margin', 'return_on_assets', 'cash_ratio'].map((k) => [k, r(signal)])) },
      meta: chMeta,
    });
    expect(await schemaMisfits('companies.health', health('amber'))).toEqual([]);
    expect((await schemaMisfits('companies.health', health('yellow'))).join()).toMatch(/signal/);
  });
});
