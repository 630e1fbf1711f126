/** src/domains/tax/tax-year.ts: the current tax year follows the UK civil date across midnight and the clock changes. */
import { describe, expect, it } from 'vitest';
import { currentTaxYear, resolveTaxYear } from '../../src/domains/tax/tax-year.js';

describe('current tax year', () => {
  it('changes at UK midnight starting 6 April (BST: 23:00 UTC on 5 April), remembered per UTC hour', () => {
    // 2026: BST from 29 March 01:00 UTC; 6 April 00:00 BST is 5 April 23:00 UTC.
    expect(currentTaxYear(new Date('2026-04-05T22:59:59.999Z'))).toBe('2025-26');
    expect(currentTaxYear(new Date('2026-04-05T23:00:00.000Z'))).toBe('2026-27');
    expect(currentTaxYear(new Date('2026-04-05T22:30:00.000Z'))).toBe('2025-26'); // back an hour: not the remembered year
    expect(currentTaxYear(new Date('2026-04-05T23:59:59.999Z'))).toBe('2026-27');
    // GMT (no BST) at a new year's midnight does not change the tax year
    expect(currentTaxYear(new Date('2027-01-01T00:00:00Z'))).toBe('2026-27');
    expect(() => currentTaxYear(new Date('nonsense'))).toThrow(RangeError);
  });

  it('reads the clock only when no year is asked', () => {
    let reads = 0;
    const clock = () => (reads++, new Date('2026-11-21T12:00:00Z'));
    expect(resolveTaxYear('2025-26', clock, ['2025-26', '2026-27'])).toBe('2025-26');
    expect(reads).toBe(0);
    expect(resolveTaxYear(undefined, clock, ['2025-26', '2026-27'])).toBe('2026-27');
    expect(reads).toBe(1);
  });
});
