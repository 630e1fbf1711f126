/** One test per validation code of the spec (and the structural ones), plus one body with many faults at once. */
import { describe, expect, it } from 'vitest';
import { Q3_2026, standardCompany, tx, vatReturn } from './helpers.js';

async function details(body: unknown) {
  const r = await vatReturn(body, 'none');
  expect(r.status, JSON.stringify(r.envelope)).toBe(400);
  const env: any = r.envelope;
  expect(env.error.code).toBe('VALIDATION_ERROR');
  expect(env.error.documentation_url).toBe('https://docs.govdata.dev/errors/VALIDATION_ERROR');
  for (const d of env.error.details) {
    expect(typeof d.field).toBe('string');
    expect(typeof d.message).toBe('string');
    expect(d.message.length).toBeGreaterThan(10);
  }
  return env.error.details as Array<{ field: string; code: string; message: string }>;
}

const body = (transactions: unknown[], company: unknown = standardCompany(), period: unknown = Q3_2026) => ({ company, period, transactions });

/** code -> a body that fails with exactly that code, at that field. */
const cases: Array<[string, string, () => unknown]> = [
  ['AMOUNT_MISMATCH', 'transactions[0].gross_amount', () => body([tx({ gross_amount: 121 })])],
  ['EXEMPT_WITH_VAT', 'transactions[0].vat_amount', () => body([tx({ vat_rate: 'exempt', vat_rate_percentage: undefined })])],
  ['DUPLICATE_TRANSACTION_ID', 'transactions[1].id', () => body([tx({ id: 'A' }), tx({ id: 'A' })])],
  ['TRANSACTION_OUTSIDE_PERIOD', 'transactions[0].date', () => body([tx({ date: '2026-10-01' })])],
  ['SCHEME_GAP', 'company.vat_schemes[1]', () => body([tx({ date: '2026-07-10' })], standardCompany({ vat_schemes: [
    { scheme: 'standard', effective_from: '2026-01-01', effective_to: '2026-07-15' },
    { scheme: 'cash_accounting', effective_from: '2026-09-01', effective_to: null },
  ] }))],
  ['SCHEME_OVERLAP', 'company.vat_schemes[1]', () => body([tx()], standardCompany({ vat_schemes: [
    { scheme: 'standard', effective_from: '2026-01-01', effective_to: null },
    { scheme: 'flat_rate', effective_from: '2026-08-01', effective_to: null, flat_rate_percentage: 10 },
  ] }))],
  ['FRS_MISSING_PERCENTAGE', 'transactions[0].flat_rate_percentage', () => body([tx()], standardCompany({ vat_schemes: [{ scheme: 'flat_rate', effective_from: '2026-01-01', effective_to: null }] }))],
  ['BAD_DEBT_RELIEF_TOO_EARLY', 'transactions[0].date', () => body([tx({ type: 'bad_debt_relief', net_amount: -100, vat_amount: -20, gross_amount: -120, original_transaction_id: 'OLD', original_transaction_date: '2026-03-01' })])],
  ['BAD_DEBT_RELIEF_POSITIVE_VAT', 'transactions[0].vat_amount', () => body([tx({ type: 'bad_debt_relief', original_transaction_id: 'OLD', original_transaction_date: '2025-01-01' })])],
  ['BAD_DEBT_RELIEF_MISSING_ORIGINAL', 'transactions[0].original_transaction_id', () => body([tx({ type: 'bad_debt_relief', net_amount: -100, vat_amount: -20, gross_amount: -120 })])],
  ['DOMESTIC_REVERSE_CHARGE_SALE_WITH_VAT', 'transactions[0].vat_amount', () => body([tx({ supply_type: 'domestic_reverse_charge' })])],
  ['CAPITAL_GOODS_MISSING_VALUE', 'transactions[0].gross_amount', () => body([tx({ type: 'purchase', is_capital_asset: true, gross_amount: undefined })])],
  ['PERIOD_TOO_LONG', 'period.end_date', () => body([], standardCompany(), { start_date: '2026-01-01', end_date: '2027-01-01' })],
  ['INVALID_RATE_SUPPLY_COMBINATION', 'transactions[0].vat_rate', () => body([tx({ supply_type: 'export_outside_ec', vat_amount: 0, gross_amount: 100, vat_rate: 'standard', vat_rate_percentage: 20 })])],
  ['ANNUAL_ADJUSTMENT_WITHOUT_PARTIAL_EXEMPTION', 'company.partial_exemption.annual_adjustment', () => body([tx()], standardCompany({ partially_exempt: false, partial_exemption: { annual_adjustment: { year_months: 12 } } }))],
  ['PARTIAL_EXEMPTION_ATTRIBUTION_ON_OUTPUT', 'transactions[0].input_tax_attribution', () => body([tx({ input_tax_attribution: 'residual' })], standardCompany({ partially_exempt: true }))],
  ['INVALID_SCHEME_OVERRIDE', 'transactions[0].scheme_override', () => body([tx({ scheme_override: 'flat_rate' })])],
  ['RATE_PERCENTAGE_MISMATCH', 'transactions[0].vat_rate_percentage', () => body([tx({ vat_rate_percentage: 17.5 })])],
  ['SCHEME_OVERRIDE_DATE_MISMATCH', 'transactions[0].scheme_override', () => body([tx({ scheme_override: 'cash_accounting', date: '2026-07-10' })], standardCompany({ vat_schemes: [
    { scheme: 'standard', effective_from: '2026-01-01', effective_to: '2026-07-31' },
    { scheme: 'cash_accounting', effective_from: '2026-08-01', effective_to: null },
  ] }))],
  ['CREDIT_NOTE_POSITIVE_AMOUNTS', 'transactions[0].net_amount', () => body([tx({ type: 'credit_note_issued' })])],
  ['NEGATIVE_AMOUNT_ON_POSITIVE_TYPE', 'transactions[0].net_amount', () => body([tx({ net_amount: -100, vat_amount: -20, gross_amount: -120 })])],
  ['SUPPLY_TYPE_DIRECTION_MISMATCH', 'transactions[0].supply_type', () => body([tx({ supply_type: 'import_postponed_vat' })])],
  ['TRANSACTION_LIMIT_EXCEEDED', 'transactions', () => body(Array.from({ length: 10_001 }, (_, i) => tx({ id: `L${i}` })))],
  ['INVALID_CO2_BAND', 'company.fuel_scale_charges[0].co2_band', () => body([], standardCompany({ fuel_scale_charges: [{ fuel_type: 'petrol', co2_band: 123 }] }))],
  ['TRANSACTION_NO_MATCHING_SCHEME', 'transactions[0].date', () => body([tx({ date: '2026-07-02' })], standardCompany({ vat_schemes: [{ scheme: 'standard', effective_from: '2026-07-05', effective_to: null }] }))],
];

describe('VAT return validation: each of the 25 codes of the spec', () => {
  it('covers all 25 codes', () => expect(new Set(cases.map((c) => c[0])).size).toBe(25));
  for (const [code, field, make] of cases) {
    it(code, async () => {
      const d = await details(make());
      expect(d).toEqual([expect.objectContaining({ code, field })]);
    });
  }
});

describe('VAT return validation: more paths to the same codes', () => {
  it('INVALID_CO2_BAND when the shipped table lacks the band (2026 quarterly above 160 g/km)', async () => {
    const d = await details(body([], standardCompany({ fuel_scale_charges: [{ fuel_type: 'diesel', co2_emissions: 190 }] })));
    expect(d).toEqual([expect.objectContaining({ code: 'INVALID_CO2_BAND', field: 'company.fuel_scale_charges[0].co2_band' })]);
    expect(d[0]!.message).toMatch(/vat_inclusive_charge/);
  });
  it('a missing band can be passed as vat_inclusive_charge instead', async () => {
    const r: any = await vatReturn(body([], standardCompany({ fuel_scale_charges: [{ fuel_type: 'diesel', co2_emissions: 190, vat_inclusive_charge: 450 }] })), 'none');
    expect(r.status).toBe(200);
    expect(r.envelope.data.boxes.box_1.value).toBe(75);
    expect(r.envelope.data.boxes.box_6.value).toBe(375);
  });
  it('FRS_MISSING_PERCENTAGE for an unknown flat-rate category', async () => {
    const d = await details(body([tx()], standardCompany({ vat_schemes: [{ scheme: 'flat_rate', effective_from: '2026-01-01', effective_to: null, flat_rate_category: 'space_tourism' }] })));
    expect(d).toEqual([expect.objectContaining({ code: 'FRS_MISSING_PERCENTAGE', field: 'company.vat_schemes[0].flat_rate_category' })]);
  });
  it('BAD_DEBT_RELIEF_MISSING_ORIGINAL when the named original is a purchase', async () => {
    const d = await details(body([
      tx({ id: 'P', type: 'purchase', date: '2026-07-01' }),
      tx({ type: 'bad_debt_relief', net_amount: -100, vat_amount: -20, gross_amount: -120, original_transaction_id: 'P', original_transaction_date: '2025-01-01' }),
    ], standardCompany(), { start_date: '2026-01-01', end_date: '2026-12-31' }));
    expect(d.map((x) => x.code)).toContain('BAD_DEBT_RELIEF_MISSING_ORIGINAL');
  });
  it('CREDIT_NOTE_POSITIVE_AMOUNTS for a received credit note', async () => {
    const d = await details(body([tx({ type: 'credit_note_received', net_amount: 0, vat_amount: 5, gross_amount: 5 })]));
    expect(d).toEqual([expect.objectContaining({ code: 'CREDIT_NOTE_POSITIVE_AMOUNTS', field: 'transactions[0].vat_amount' })]);
  });
  it('SUPPLY_TYPE_DIRECTION_MISMATCH for a purchase with an output supply type', async () => {
    const d = await details(body([tx({ type: 'purchase', supply_type: 'ec_supply_goods', vat_rate: 'zero', vat_rate_percentage: 0, vat_amount: 0, gross_amount: 100 })]));
    expect(d.map((x) => x.code)).toEqual(['SUPPLY_TYPE_DIRECTION_MISMATCH']);
  });
  it('RATE_PERCENTAGE_MISMATCH for a temporary rate outside its dates', async () => {
    const d = await details(body([tx({ vat_rate: 'hospitality_reduced', vat_rate_percentage: 12.5, vat_amount: 12.5, gross_amount: 112.5 })]));
    expect(d).toEqual([expect.objectContaining({ code: 'RATE_PERCENTAGE_MISMATCH', field: 'transactions[0].vat_rate' })]);
  });
  it('the temporary hospitality rate is accepted inside its dates', async () => {
    const r: any = await vatReturn(body([tx({ date: '2021-11-01', vat_rate: 'hospitality_reduced', vat_rate_percentage: 12.5, vat_amount: 12.5, gross_amount: 112.5 })], standardCompany(), { start_date: '2021-10-01', end_date: '2021-12-31' }), 'none');
    expect(r.status, JSON.stringify(r.envelope)).toBe(200);
    expect(r.envelope.data.boxes.box_1.value).toBe(12.5);
  });
  it('a scheme_override to standard is always allowed (cash accounting excluded supplies)', async () => {
    const r: any = await vatReturn(body([tx({ scheme_override: 'standard' })], standardCompany({ vat_schemes: [{ scheme: 'cash_accounting', effective_from: '2026-01-01', effective_to: null }] })), 'none');
    expect(r.status).toBe(200);
    expect(r.envelope.data.boxes.box_1.value).toBe(20);
    expect(r.envelope.data.scheme_summary.map((s: any) => [s.scheme, s.transaction_count])).toEqual([['cash_accounting', 0], ['standard', 1]]);
  });
});

describe('VAT return validation: malformed bodies are VALIDATION_ERROR with details', () => {
  it('a body that is not an object', async () => {
    for (const b of [null, 'text', 42, [1, 2]]) {
      const d = await details(b);
      expect(d).toEqual([expect.objectContaining({ code: 'INVALID_BODY', field: 'body' })]);
    }
  });
  it('missing period and transactions', async () => {
    const d = await details({ company: standardCompany() });
    expect(d.map((x) => [x.field, x.code])).toEqual([['period', 'MISSING_FIELD'], ['transactions', 'MISSING_FIELD']]);
  });
  it('wrong types, bad dates, bad enumerations, 3-dp amounts', async () => {
    const d = await details({
      company: 'acme',
      period: { start_date: '2026-02-30', end_date: '2026-06-31' },
      transactions: [5, { id: 'X', date: '26-07-01', type: 'refund', net_amount: '100', vat_amount: 20.001, vat_rate: 'super', supply_type: 'moon' }],
    });
    expect(d.map((x) => `${x.field}:${x.code}`)).toEqual([
      'period.start_date:INVALID_DATE',
      'period.end_date:INVALID_DATE',
      'company:INVALID_FIELD_TYPE',
      'transactions[0]:INVALID_FIELD_TYPE',
      'transactions[1].date:INVALID_DATE',
      'transactions[1].type:INVALID_ENUM_VALUE',
      'transactions[1].net_amount:INVALID_AMOUNT',
      'transactions[1].vat_amount:INVALID_AMOUNT',
      'transactions[1].vat_rate:INVALID_ENUM_VALUE',
      'transactions[1].supply_type:INVALID_ENUM_VALUE',
    ]);
  });
  it('amounts beyond £1bn are refused so that every sum stays exact', async () => {
    const d = await details(body([tx({ net_amount: 1_000_000_000.01, vat_amount: 0, gross_amount: 1_000_000_000.01, vat_rate: 'zero', vat_rate_percentage: 0 })]));
    expect(d.map((x) => `${x.field}:${x.code}`)).toEqual(['transactions[0].net_amount:INVALID_AMOUNT', 'transactions[0].gross_amount:INVALID_AMOUNT']);
  });
  it('end date before start date', async () => {
    const d = await details(body([], standardCompany(), { start_date: '2026-09-30', end_date: '2026-07-01' }));
    expect(d).toEqual([expect.objectContaining({ code: 'INVALID_PERIOD', field: 'period.end_date' })]);
  });
});

describe('VAT return validation: every failure of a body is reported at once', () => {
  it('reports 14 different faults in one answer', async () => {
    const d = await details({
      company: standardCompany({
        vat_schemes: [
          { scheme: 'standard', effective_from: '2026-01-01', effective_to: '2026-07-31' },
          { scheme: 'standard', effective_from: '2026-07-20', effective_to: null },
        ],
        partial_exemption: { annual_adjustment: {} },
        fuel_scale_charges: [{ fuel_type: 'petrol', co2_band: 'huge' }],
      }),
      period: Q3_2026,
      transactions: [
        tx({ id: 'D', gross_amount: 999 }),
        tx({ id: 'D' }),
        tx({ date: '2026-12-25' }),
        tx({ vat_rate: 'exempt', vat_rate_percentage: undefined }),
        tx({ type: 'credit_note_issued' }),
        tx({ type: 'purchase', net_amount: -1, vat_amount: 0, gross_amount: -1 }),
        tx({ supply_type: 'domestic_reverse_charge' }),
        tx({ vat_rate_percentage: 15 }),
        tx({ supply_type: 'ec_acquisition_goods' }),
        tx({ scheme_override: 'annual_accounting' }),
        tx({ type: 'bad_debt_relief', net_amount: -10, vat_amount: -2, gross_amount: -12 }),
      ],
    });
    const codes = new Set(d.map((x) => x.code));
    for (const c of [
      'AMOUNT_MISMATCH', 'DUPLICATE_TRANSACTION_ID', 'TRANSACTION_OUTSIDE_PERIOD', 'EXEMPT_WITH_VAT', 'CREDIT_NOTE_POSITIVE_AMOUNTS',
      'NEGATIVE_AMOUNT_ON_POSITIVE_TYPE', 'DOMESTIC_REVERSE_CHARGE_SALE_WITH_VAT', 'RATE_PERCENTAGE_MISMATCH', 'SUPPLY_TYPE_DIRECTION_MISMATCH',
      'INVALID_SCHEME_OVERRIDE', 'BAD_DEBT_RELIEF_MISSING_ORIGINAL', 'SCHEME_OVERLAP', 'ANNUAL_ADJUSTMENT_WITHOUT_PARTIAL_EXEMPTION', 'INVALID_CO2_BAND',
    ]) expect(codes, c).toContain(c);
    expect(codes.size).toBe(14);
  });
});
