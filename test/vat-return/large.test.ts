import { describe, expect, it } from 'vitest';
import { calculateVatReturn } from '../../src/domains/tax/vat-return/handler.js';
import { mixedBody } from './generate.js';

/**
 * Large bodies are computed completely. Speed (10,000 transactions in at most 50 ms) is shown by
 * `npm run bench` (bench/vat-return.bench.mjs), not asserted here: timing in tests measures the scheduler.
 */
describe('VAT return at the transaction limit', () => {
  it('computes 10,000 mixed transactions, every one counted', () => {
    const out: any = calculateVatReturn(mixedBody(10_000), 'summary');
    expect(out.scheme_summary[0].transaction_count).toBe(10_000);
    expect(out.boxes.box_3.value).toBeCloseTo(out.boxes.box_1.value + out.boxes.box_2.value, 2);
  });

  it('a full breakdown attributes all 10,000 transactions', () => {
    const out: any = calculateVatReturn(mixedBody(10_000, 7), 'full');
    expect(out.breakdown.transactions).toHaveLength(10_000);
  });
});
