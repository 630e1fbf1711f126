/**
 * The companies response schemas state the spec's shapes (docs/spec/2-property-companies.md,
 * GOVDATA-NOTES.md), independently of the handlers: the published example answers fit, and answers that
 * break a rule the spec states (a field's type or values, where pagination sits, which meta fields a route
 * has, a field absent on an event kind) do not. Real answers are checked in test/server/conformance.test.ts
 * and in this domain's route tests (test/support/schema-check.ts). The property half is test/property/response-schemas.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { schemaMisfits } from '../support/schema-check.js';

const LICENCE = 'Open Government Licence v3.0';
const chMeta = { api_version: 'v1', licence: LICENCE, source: 'Companies House', source_url: 'https://download.companieshouse.gov.uk' };
const page1 = { total: 1, page: 1, per_page: 25, total_pages: 1 };

const summary = {
  company_number: '00445790', company_name: 'TESCO PLC', company_status: 'active', company_type: 'plc', date_of_creation: '1947-11-27',
  registered_office_address: { postal_code: 'WD18 8AT', locality: 'WELWYN GARDEN CITY' }, sic_codes: ['47110'],
};

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
