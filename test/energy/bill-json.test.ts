/**
 * The calculator's answer writes its own JSON for batches (calc.ts BillAnswer [JSON_TEXT], from its integer
 * pence): it must be exactly what JSON.stringify writes for the same object, and the energy cost's
 * integer fast path must equal the exact product computed here with BigInt from the kWh's decimal text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_TEXT, penceJson } from '../../src/contract/json-text.js';
import { BillAnswer, energyCostPence, parsed } from '../../src/domains/energy/calc.js';

const head = { period_id: '2025-10', region: Object.freeze({ code: 'gb_average', name: 'GB average' }), payment_method: 'direct_debit', meter: 'single_rate' };
/** A rate as text with 0–4 decimal places, as the shipped data and the synced levels hold them. */
const rateText = fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 4 })).map(([w, f, d]) => (d === 0 ? `${w}` : `${w}.${String(f).padStart(4, '0').slice(0, d)}`));
/** kWh as JSON numbers: whole, with a few decimals, tiny, and up to the route's maximum. */
const kwh = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000 }),
  fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 3 })).map(([n, d]) => Number((n / 10 ** d).toFixed(d))),
  fc.double({ min: 0, max: 10_000_000, noNaN: true }),
  fc.constantFrom(0, 1e-7, 5e-324, 0.005, 9_999_999.99, 1000.5),
);

/** kWh x rate in pence (rate in 1/10,000 p), halves up, from the kWh's decimal text with BigInt only. */
function exactCost(k: number, rateUnits: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(k))!;
  const frac = m[2] ?? '';
  let units = BigInt(m[1]! + frac);
  let scale = frac.length - Number(m[3] ?? 0);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  const num = units * BigInt(rateUnits);
  const den = 10n ** BigInt(scale) * 10_000n;
  return (2n * num + den) / (2n * den); // half up (non-negative)
}

describe('BillAnswer JSON text', () => {
  it('is what JSON.stringify writes, for any consumption and rates', () => {
    fc.assert(
      fc.property(fc.option(kwh, { nil: undefined }), fc.option(kwh, { nil: undefined }), rateText, rateText, rateText, rateText, (ek, gk, eu, es, gu, gs) => {
        const a = new BillAnswer(head, ek, parsed({ unit_rate: eu, standing_charge: es }), gk, parsed({ unit_rate: gu, standing_charge: gs }));
        expect(a[JSON_TEXT]()).toBe(JSON.stringify(a));
      }),
      { numRuns: 3000 },
    );
  });
  it('the energy cost is exact for any kWh', () => {
    fc.assert(
      fc.property(kwh, fc.integer({ min: 0, max: 9_999_999 }), (k, r) => {
        expect(BigInt(energyCostPence(k, r))).toBe(exactCost(k, r));
      }),
      { numRuns: 5000 },
    );
  });
  it('penceJson writes pence / 100 as JSON.stringify does', () => {
    for (const p of [0, -0, 1, 5, 10, 99, 100, 101, 110, -5, -110, 123456, 999_999_999_999_999, -999_999_999_999_999, 1e15, 2 ** 53])
      expect(penceJson(p), String(p)).toBe(JSON.stringify(p / 100));
    fc.assert(fc.property(fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }), (p) => penceJson(p) === JSON.stringify(p / 100)), { numRuns: 20000 });
  });
});
