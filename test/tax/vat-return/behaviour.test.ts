/** Behaviour beyond the golden cases: response shapes, warnings, journals, overrides, exact fractions, the docs example. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postRoute } from '../../support/route.js';
import { describe, expect, it } from 'vitest';
import { Q3_2026, standardCompany, tx, vatReturn } from './helpers.js';

async function ok(body: unknown, detail: 'full' | 'summary' | 'none' = 'full'): Promise<any> {
  const r = await vatReturn(body, detail);
  expect(r.status, JSON.stringify(r.envelope)).toBe(200);
  return (r.envelope as any).data;
}
const codes = (d: any) => d.warnings.map((w: any) => w.code);

describe('response shape', () => {
  it('breakdown_detail none / summary / full, and meta', async () => {
    const body = { company: standardCompany(), period: Q3_2026, transactions: [tx(), tx({ type: 'purchase' })] };
    const none = await ok(body, 'none');
    expect(Object.keys(none)).toEqual(['return_period', 'boxes', 'warnings', 'scheme_summary', 'rounding_summary']);
    const summary = await ok(body, 'summary');
    expect(summary.breakdown.categories).toHaveLength(2);
    expect(summary.breakdown.transactions).toBeUndefined();
    const full = await ok(body, 'full');
    expect(full.breakdown.transactions.map((t: any) => t.boxes)).toEqual([{ box_1: 20, box_6: 100 }, { box_4: 20, box_7: 100 }]);
    const r: any = await vatReturn(body, 'none');
    expect(r.envelope.meta).toEqual({
      api_version: 'v1',
      licence: 'Open Government Licence v3.0',
      source: 'HM Revenue & Customs',
      source_url: 'https://www.gov.uk/guidance/how-to-fill-in-and-submit-your-vat-return-vat-notice-70012',
      breakdown_detail: 'none',
    });
  });

  it('the default breakdown_detail is summary', async () => {
    const { ctx } = await import('./helpers.js');
    const r: any = await postRoute('/v1/tax/vat/return/calculate', { company: standardCompany(), period: Q3_2026, transactions: [tx()] }, ctx);
    expect(r.envelope.meta.breakdown_detail).toBe('summary');
    expect(r.envelope.data.breakdown.categories).toHaveLength(1);
  });

  it('an empty period gives a nil return', async () => {
    const d = await ok({ company: standardCompany(), period: Q3_2026, transactions: [] }, 'none');
    for (let k = 1; k <= 9; k++) expect(d.boxes[`box_${k}`]).toEqual({ value: 0, exact_value: 0 });
    expect(d.scheme_summary).toEqual([{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null, transaction_count: 0 }]);
  });
});

describe('exact values and rounding', () => {
  it('a flat-rate fraction of a penny is kept in exact_value and rounded in value', async () => {
    const d = await ok({
      company: { vat_schemes: [{ scheme: 'flat_rate', effective_from: '2024-01-01', effective_to: null, flat_rate_percentage: 14.5, first_year: false }] },
      period: Q3_2026,
      transactions: [tx({ net_amount: 1028.81, vat_amount: 205.76, gross_amount: 1234.57 })],
    });
    expect(d.boxes.box_1).toEqual({ value: 179.01, exact_value: 179.01265 });
    expect(d.rounding_summary.box_1_rounding).toBe(-0.00265);
    expect(d.boxes.box_6).toEqual({ value: 1234, exact_value: 1234.57 });
    expect(d.breakdown.transactions[0].boxes.box_1).toBe(179.01265);
  });

  it('half a penny rounds away from zero', async () => {
    const d = await ok({
      company: { vat_schemes: [{ scheme: 'flat_rate', effective_from: '2024-01-01', effective_to: null, flat_rate_percentage: 10.5, first_year: false }] },
      period: Q3_2026,
      transactions: [tx({ net_amount: 0.9, vat_amount: 0.1, gross_amount: 1 })], // 10.5% of £1.00 = 10.5p
    });
    expect(d.boxes.box_1.value).toBe(0.11);
  });

  it('negative boxes 6-9 drop pence toward zero', async () => {
    const d = await ok({ company: standardCompany(), period: Q3_2026, transactions: [tx({ type: 'credit_note_issued', net_amount: -10.99, vat_amount: -2.2, gross_amount: -13.19 })] });
    expect(d.boxes.box_6).toEqual({ value: -10, exact_value: -10.99 });
    expect(d.boxes.box_1.value).toBe(-2.2);
  });
});

describe('journals and overrides', () => {
  it('journals need a direction and may carry either sign', async () => {
    const d = await ok({ company: standardCompany(), period: Q3_2026, transactions: [
      tx({ type: 'journal', direction: 'output', net_amount: -40, vat_amount: -8, gross_amount: -48 }),
      tx({ type: 'journal', direction: 'input', net_amount: 25, vat_amount: 5, gross_amount: 30 }),
    ] }, 'none');
    expect(d.boxes.box_1.value).toBe(-8);
    expect(d.boxes.box_4.value).toBe(5);
    const r: any = await vatReturn({ company: standardCompany(), period: Q3_2026, transactions: [tx({ type: 'journal' })] }, 'none');
    expect(r.envelope.error.details).toEqual([expect.objectContaining({ field: 'transactions[0].direction', code: 'MISSING_FIELD' })]);
  });

  it('override to cash accounting moves an invoice dated under standard accounting to its payment date', async () => {
    const company = standardCompany({ vat_schemes: [
      { scheme: 'standard', effective_from: '2026-01-01', effective_to: '2026-07-31' },
      { scheme: 'cash_accounting', effective_from: '2026-08-01', effective_to: null },
    ] });
    const d = await ok({ company, period: Q3_2026, transactions: [
      tx({ id: 'A', date: '2026-07-10', payment_date: '2026-08-15', scheme_override: 'cash_accounting' }),
      tx({ id: 'B', date: '2026-08-10', payment_date: '2026-10-02' }),
    ] });
    expect(d.breakdown.transactions[0]).toMatchObject({ id: 'A', scheme: 'cash_accounting', accounting_date: '2026-08-15', included: true });
    expect(d.breakdown.transactions[1]).toMatchObject({ id: 'B', included: false, excluded_reason: 'paid on 2026-10-02, outside this period (cash accounting)' });
    expect(d.boxes.box_1.value).toBe(20);
    expect(d.scheme_summary.map((s: any) => s.transaction_count)).toEqual([0, 1]);
    expect(codes(d)).toContain('TRANSACTION_EXCLUDED');
  });
});

describe('warnings', () => {
  it('EC goods outside Northern Ireland, attribution without partial exemption, no vat_schemes', async () => {
    const d = await ok({ company: { vat_registration_number: 'GB123456789' }, period: Q3_2026, transactions: [
      tx({ supply_type: 'ec_supply_goods', vat_rate: 'zero', vat_rate_percentage: 0, vat_amount: 0, gross_amount: 100 }),
      tx({ type: 'purchase', input_tax_attribution: 'taxable' }),
    ] }, 'none');
    expect(codes(d)).toEqual(expect.arrayContaining(['NO_VAT_SCHEMES', 'EC_GOODS_NOT_NORTHERN_IRELAND', 'ATTRIBUTION_IGNORED']));
    expect(d.scheme_summary).toEqual([{ scheme: 'standard', effective_from: '2026-07-01', effective_to: '2026-09-30', transaction_count: 2, implied: true }]);
  });

  it('fuel scale charges: electric cars have none, flat rate businesses none, odd periods use monthly charges', async () => {
    const electric = await ok({ company: standardCompany({ fuel_scale_charges: [{ fuel_type: 'electric' }] }), period: Q3_2026, transactions: [] }, 'none');
    expect(codes(electric)).toContain('FUEL_SCALE_ELECTRIC');
    expect(electric.boxes.box_1.value).toBe(0);
    const frs = await ok({ company: { vat_schemes: [{ scheme: 'flat_rate', effective_from: '2024-01-01', effective_to: null, flat_rate_percentage: 10 }], fuel_scale_charges: [{ co2_emissions: 150 }] }, period: Q3_2026, transactions: [] }, 'none');
    expect(codes(frs)).toContain('FUEL_SCALE_UNDER_FLAT_RATE');
    expect(frs.boxes.box_1.value).toBe(0);
    // two months from 1 June 2025: 2 x the 1-month charge for band 150 (£109) = £218, VAT £36.33
    const two = await ok({ company: standardCompany({ fuel_scale_charges: [{ co2_emissions: 150 }] }), period: { start_date: '2025-06-01', end_date: '2025-07-31' }, transactions: [] }, 'none');
    expect(codes(two)).toContain('FUEL_SCALE_PERIOD_LENGTH');
    expect(two.boxes.box_1.value).toBe(36.33);
    expect(two.fuel_scale_charges[0].vat_inclusive_charge).toBe(218);
  });

  it('bad debt relief from a sale in the request uses its due date', async () => {
    const r: any = await vatReturn({ company: standardCompany(), period: { start_date: '2026-01-01', end_date: '2026-12-31' }, transactions: [
      tx({ id: 'INV', date: '2026-01-10', payment_due_date: '2026-03-31' }),
      tx({ id: 'BDR', date: '2026-09-29', type: 'bad_debt_relief', net_amount: -100, vat_amount: -20, gross_amount: -120, original_transaction_id: 'INV' }),
    ] }, 'none');
    expect(r.envelope.error.details).toEqual([expect.objectContaining({ code: 'BAD_DEBT_RELIEF_TOO_EARLY', message: expect.stringContaining('2026-09-30') })]);
  });
});

describe('the docs example stays true', () => {
  it('docs/tax-vat-return.md: the example body gives the example response', async () => {
    const md = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'tax-vat-return.md'), 'utf8');
    const blocks = [...md.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!));
    const [body, response, , error] = blocks;
    const r = await vatReturn(body, 'summary');
    expect(r.envelope).toEqual(response);
    expect(error.error.code).toBe('VALIDATION_ERROR');
  });
});
