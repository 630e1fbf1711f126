/** A batch line of a body-document route (VAT return) is checked as a single call is: every detail, VALIDATION_ERROR. */
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';

const minimal = {
  company: { vat_registration_number: 'GB123456789', vat_schemes: [{ scheme: 'standard', effective_from: '2026-01-01', effective_to: null }], partially_exempt: false },
  period: { start_date: '2026-01-01', end_date: '2026-03-31' },
  transactions: [
    { id: 'S1', date: '2026-01-15', type: 'sale', net_amount: 1000, vat_amount: 200, gross_amount: 1200, vat_rate: 'standard', vat_rate_percentage: 20, supply_type: 'domestic', is_capital_asset: false },
  ],
};
// 1000 + 200 is not 1210: AMOUNT_MISMATCH at transactions[0].gross_amount (a document rule, not a field type)
const mismatched = { ...minimal, transactions: [{ ...minimal.transactions[0], gross_amount: 1210 }] };

describe('tax vat-return --batch', () => {
  it('runs the document check on every line, as for a single call', async () => {
    const stdin = `${JSON.stringify(minimal)}\n${JSON.stringify(mismatched)}\n`;
    const r = await runCli(['tax', 'vat-return', '--batch', '--format', 'ndjson'], { stdin });
    const [ok, bad] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(ok.error).toBeUndefined();
    // box 1: the VAT due on the one sale, 200.00 (1000 net at 20%)
    expect(JSON.stringify(ok.data)).toMatch(/"box_1[^"]*":\s*200\b/);
    expect(bad.error.code).toBe('VALIDATION_ERROR');
    expect(bad.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).toEqual([['transactions[0].gross_amount', 'AMOUNT_MISMATCH']]);
    // the same document as a single call gives the same error
    const single = await runCli(['api', 'POST', '/v1/tax/vat/return/calculate', '--data', '-'], { stdin: JSON.stringify(mismatched) });
    expect(json(single).error).toEqual(bad.error);
    expect(r.code).not.toBe(0);
  });
});
