import { describe, expect, it } from 'vitest';
import { calculateVatReturn } from '../../../src/domains/tax/vat-return/handler.js';
import { mixedBody } from '../vat-gen.mjs';

/**
 * Large bodies are computed completely. Speed (10,000 transactions in at most 50 ms) is shown by
 * `npm run bench` (bench/tax-vat-return.bench.mjs), not asserted here: timing in tests measures the scheduler.
 */
describe('VAT return at the transaction limit', () => {
  it('computes 10,000 mixed transactions, every one counted', () => {
    const body = mixedBody(10_000);
    const out: any = calculateVatReturn(body, 'summary');
    expect(out.scheme_summary[0].transaction_count).toBe(10_000);
    // standard accounting, not partly exempt: every purchase-side transaction of the mix puts its VAT in
    // box 4 and its net in box 7; acquisitions of goods put their VAT in box 2 and net in box 9; supplies of goods to the EU their net in box 8
    const pence = (x: unknown) => Math.round((x as number) * 100);
    const inputs = body.transactions.filter((t) => ['purchase', 'credit_note_received', 'debit_note_received'].includes(t['type'] as string));
    const acq = inputs.filter((t) => t['supply_type'] === 'ec_acquisition_goods');
    const sum = (ts: Record<string, unknown>[], k: string) => ts.reduce((a, t) => a + pence(t[k]), 0);
    const wholePounds = (p: number) => Math.trunc(p / 100);
    expect(inputs.length).toBeGreaterThan(1000);
    expect(pence(out.boxes.box_4.value)).toBe(sum(inputs, 'vat_amount'));
    expect(out.boxes.box_7.value).toBe(wholePounds(sum(inputs, 'net_amount')));
    expect(pence(out.boxes.box_2.value)).toBe(sum(acq, 'vat_amount'));
    expect(out.boxes.box_9.value).toBe(wholePounds(sum(acq, 'net_amount')));
    expect(out.boxes.box_8.value).toBe(wholePounds(sum(body.transactions.filter((t) => t['supply_type'] === 'ec_supply_goods'), 'net_amount')));
  });

  it('a full breakdown attributes all 10,000 transactions', () => {
    const out: any = calculateVatReturn(mixedBody(10_000, 7), 'full');
    expect(out.breakdown.transactions).toHaveLength(10_000);
  });
});
