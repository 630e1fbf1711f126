/** fast-check properties of the nine boxes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateVatReturn } from '../../../src/domains/tax/vat-return/handler.js';
import { KINDS, PCT } from '../vat-gen.mjs';

const txArb = fc
  .record({
    kind: fc.integer({ min: 0, max: KINDS.length - 1 }),
    net: fc.integer({ min: 0, max: 50_000_000 }),
    vatSkew: fc.integer({ min: -2, max: 2 }),
    day: fc.integer({ min: 0, max: 91 }),
    capital: fc.boolean(),
    attribution: fc.constantFrom('taxable', 'exempt', 'residual'),
  })
  .map((r) => {
    const [type, supply, rate] = KINDS[r.kind]!;
    const sign = type.startsWith('credit_note') ? -1 : 1;
    let vat = supply === 'domestic_reverse_charge' && type === 'sale' ? 0 : Math.round((r.net * PCT[rate]!) / 100);
    if (vat > 2) vat += r.vatSkew; // VAT as invoiced may differ by pennies
    const t: Record<string, unknown> = {
      date: new Date(Date.UTC(2026, 6, 1 + r.day)).toISOString().slice(0, 10),
      type,
      net_amount: (sign * r.net) / 100,
      vat_amount: (sign * vat) / 100,
      gross_amount: (sign * (r.net + vat)) / 100,
      vat_rate: rate,
      supply_type: supply,
      is_capital_asset: type === 'purchase' && r.capital,
    };
    if (type === 'purchase' || type === 'credit_note_received' || type === 'debit_note_received') t['input_tax_attribution'] = r.attribution;
    return t;
  });

const withIds = (txs: Record<string, unknown>[]) => txs.map((t, i) => ({ id: `P${i}`, ...t }));

const COMPANIES: Record<string, unknown> = {
  standard: { vat_registration_number: 'XI123456789', vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }] },
  partly_exempt: {
    vat_registration_number: 'XI123456789',
    vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }],
    partially_exempt: true,
  },
  flat_rate: {
    vat_registration_number: 'XI123456789',
    vat_schemes: [
      { scheme: 'standard', effective_from: '2020-01-01', effective_to: '2026-08-15' },
      { scheme: 'flat_rate', effective_from: '2026-08-16', effective_to: null, flat_rate_category: 'computer_and_it_consultancy_or_data_processing', first_year: false },
    ],
    fuel_scale_charges: [{ fuel_type: 'diesel', co2_emissions: 143 }],
  },
};
const companyArb = fc.constantFrom(...Object.keys(COMPANIES));

function run(company: string, txs: Record<string, unknown>[]): any {
  return calculateVatReturn({ company: COMPANIES[company], period: { start_date: '2026-07-01', end_date: '2026-09-30' }, transactions: txs }, 'none');
}
const p = (x: number) => Math.round(x * 100);

/** Standard-rated domestic sales and purchases with VAT as invoiced (20% give or take a few pence), in pence. */
const plainArb = fc.record({
  sale: fc.boolean(),
  net: fc.integer({ min: 0, max: 100_000_000 }),
  vatSkew: fc.integer({ min: -3, max: 3 }),
  day: fc.integer({ min: 0, max: 91 }),
});

describe('VAT return properties', () => {
  it('standard-rated domestic sales and purchases: boxes 1-7 are the sums computed here', () => {
    fc.assert(
      fc.property(fc.array(plainArb, { maxLength: 40 }), (xs) => {
        let salesVat = 0, purchaseVat = 0, salesNet = 0, purchaseNet = 0;
        const txs = xs.map((x, i) => {
          const vat = Math.max(0, Math.floor(x.net / 5) + x.vatSkew);
          if (x.sale) (salesVat += vat), (salesNet += x.net);
          else (purchaseVat += vat), (purchaseNet += x.net);
          return {
            id: `S${i}`,
            date: new Date(Date.UTC(2026, 6, 1 + x.day)).toISOString().slice(0, 10),
            type: x.sale ? 'sale' : 'purchase',
            net_amount: x.net / 100,
            vat_amount: vat / 100,
            gross_amount: (x.net + vat) / 100,
            vat_rate: 'standard',
            supply_type: 'domestic',
          };
        });
        const b = run('standard', txs).boxes;
        expect(p(b.box_1.value)).toBe(salesVat);
        expect(p(b.box_2.value)).toBe(0);
        expect(p(b.box_3.value)).toBe(salesVat);
        expect(p(b.box_4.value)).toBe(purchaseVat);
        expect(p(b.box_5.value)).toBe(salesVat - purchaseVat);
        // boxes 6 and 7: whole pounds, the pence dropped
        expect(b.box_6.value).toBe(Math.floor(salesNet / 100));
        expect(b.box_7.value).toBe(Math.floor(purchaseNet / 100));
        expect(b.box_8.value).toBe(0);
        expect(b.box_9.value).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('boxes 6 to 9 are whole pounds whatever the mix', () => {
    fc.assert(
      fc.property(companyArb, fc.array(txArb, { maxLength: 40 }), (company, txs) => {
        const b = run(company, withIds(txs)).boxes;
        for (const k of ['box_6', 'box_7', 'box_8', 'box_9']) expect(Number.isInteger(b[k].value)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('a credit note for the full amount cancels its sale', () => {
    const saleArb = fc.record({
      net: fc.integer({ min: 1, max: 10_000_000 }),
      kind: fc.constantFrom(['domestic', 'standard'], ['domestic', 'reduced'], ['domestic', 'zero'], ['domestic', 'exempt'], ['ec_supply_goods', 'zero'], ['export_outside_ec', 'zero']),
      day: fc.integer({ min: 0, max: 91 }),
      creditDay: fc.integer({ min: 0, max: 91 }),
    });
    fc.assert(
      fc.property(companyArb, fc.array(txArb, { maxLength: 20 }), saleArb, (company, txs, s) => {
        const kind = s.kind as readonly string[];
        const supply = kind[0]!;
        const rate = kind[1]!;
        const vat = Math.round((s.net * PCT[rate]!) / 100);
        const base = withIds(txs);
        const sale = { id: 'SALE', date: new Date(Date.UTC(2026, 6, 1 + s.day)).toISOString().slice(0, 10), type: 'sale', net_amount: s.net / 100, vat_amount: vat / 100, gross_amount: (s.net + vat) / 100, vat_rate: rate, supply_type: supply };
        const creditDate = new Date(Date.UTC(2026, 6, 1 + s.creditDay)).toISOString().slice(0, 10);
        // the credit note must fall under the same flat-rate percentage as its sale to cancel it exactly
        if (company === 'flat_rate' && (sale.date >= '2026-08-16') !== (creditDate >= '2026-08-16')) return;
        const credit = { ...sale, id: 'CREDIT', date: creditDate, type: 'credit_note_issued', net_amount: -s.net / 100, vat_amount: -vat / 100, gross_amount: -(s.net + vat) / 100 };
        const a = run(company, base).boxes;
        const b = run(company, [...base, sale, credit]).boxes;
        for (const k of Object.keys(a)) expect(b[k].exact_value, k).toBeCloseTo(a[k].exact_value, 6);
      }),
      { numRuns: 200 },
    );
  });

  it('the order of transactions never changes the result', () => {
    fc.assert(
      fc.property(companyArb, fc.array(txArb, { minLength: 1, maxLength: 40 }), fc.integer(), (company, txs, seed) => {
        const list = withIds(txs);
        const shuffled = [...list];
        let s = seed >>> 0;
        for (let i = shuffled.length - 1; i > 0; i--) {
          s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
          const j = s % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        const a = run(company, list);
        const b = run(company, shuffled);
        expect(b.boxes).toEqual(a.boxes);
        expect(b.rounding_summary).toEqual(a.rounding_summary);
        expect(b.scheme_summary).toEqual(a.scheme_summary);
        expect(b.partial_exemption).toEqual(a.partial_exemption);
      }),
      { numRuns: 200 },
    );
  });
});
