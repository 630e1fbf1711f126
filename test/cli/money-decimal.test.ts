/**
 * src/money.ts: the exact-decimal helpers (n x 10^e) that accounts amounts are rounded, compared and
 * written with, and the ratio of two pence amounts, against values worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { decEqual, decToPence, decToText, penceRatio, rescaleDec } from '../../src/money.js';

describe('exact decimals', () => {
  it('rescaleDec: to whole 10^target units, an exact half away from zero, for both signs', () => {
    expect(rescaleDec({ n: 12345n, e: -3 }, -2)).toBe(1235n); // 12.345 -> 1234.5 hundredths -> 1235
    expect(rescaleDec({ n: -12345n, e: -3 }, -2)).toBe(-1235n);
    expect(rescaleDec({ n: 12344n, e: -3 }, -2)).toBe(1234n); // 1234.4
    expect(rescaleDec({ n: -12346n, e: -3 }, -2)).toBe(-1235n); // -1234.6
    expect(rescaleDec({ n: 149n, e: -2 }, 0)).toBe(1n); // 1.49
    expect(rescaleDec({ n: 150n, e: -2 }, 0)).toBe(2n); // 1.50
    expect(rescaleDec({ n: -150n, e: -2 }, 0)).toBe(-2n);
    expect(rescaleDec({ n: -149n, e: -2 }, 0)).toBe(-1n);
    expect(rescaleDec({ n: -4n, e: -1 }, 0)).toBe(0n); // -0.4
    // scaling up is exact: 5 -> 500 hundredths; 7 x 10^3 -> 7000 units
    expect(rescaleDec({ n: 5n, e: 0 }, -2)).toBe(500n);
    expect(rescaleDec({ n: 7n, e: 3 }, 0)).toBe(7000n);
    // beyond 2^53: 123456789012345678901.235 -> 12345678901234567890123.5 hundredths -> ...124
    expect(rescaleDec({ n: 123456789012345678901235n, e: -3 }, -2)).toBe(12345678901234567890124n);
  });

  it('decToPence: pounds to whole pence, halves away from zero', () => {
    expect(decToPence({ n: 1234550n, e: -4 })).toBe(12346n); // £123.4550 -> 12345.50p
    expect(decToPence({ n: 1234549n, e: -4 })).toBe(12345n); // 12345.49p
    expect(decToPence({ n: -1234550n, e: -4 })).toBe(-12346n);
    expect(decToPence({ n: 12n, e: 3 })).toBe(1200000n); // £12,000
    expect(decToPence({ n: 995n, e: -2 })).toBe(995n); // £9.95
  });

  it('decEqual: the same value whatever the exponents', () => {
    expect(decEqual({ n: 150n, e: -2 }, { n: 15n, e: -1 })).toBe(true); // 1.50 = 1.5
    expect(decEqual({ n: 1n, e: 0 }, { n: 100n, e: -2 })).toBe(true);
    expect(decEqual({ n: 1n, e: 0 }, { n: 101n, e: -2 })).toBe(false);
    expect(decEqual({ n: -5n, e: 1 }, { n: -50n, e: 0 })).toBe(true); // -50
    expect(decEqual({ n: 5n, e: 1 }, { n: -50n, e: 0 })).toBe(false);
  });

  it('decToText: exact decimal text', () => {
    expect(decToText({ n: -12345n, e: -2 })).toBe('-123.45');
    expect(decToText({ n: 12n, e: 3 })).toBe('12000');
    expect(decToText({ n: 5n, e: -3 })).toBe('0.005');
    expect(decToText({ n: -5n, e: -3 })).toBe('-0.005');
    expect(decToText({ n: 0n, e: -2 })).toBe('0.00');
    expect(decToText({ n: 1234n, e: 0 })).toBe('1234');
  });
});

describe('penceRatio', () => {
  it('a / b x scale to dp decimals; null when either is null or b is zero', () => {
    expect(penceRatio(150n, 200n)).toBe(0.75);
    expect(penceRatio(1n, 3n)).toBe(0.3333);
    expect(penceRatio(-1n, 3n)).toBe(-0.3333);
    expect(penceRatio(1n, 3n, 100, 2)).toBe(33.33); // a percentage
    expect(penceRatio(2n, 3n, 100, 2)).toBe(66.67);
    expect(penceRatio(5n, 0n)).toBeNull();
    expect(penceRatio(null, 5n)).toBeNull();
    expect(penceRatio(5n, null)).toBeNull();
  });

  it('an exact half goes toward +infinity (Math.round), for both signs', () => {
    expect(penceRatio(1n, 8n, 1, 2)).toBe(0.13); // 0.125
    expect(penceRatio(-1n, 8n, 1, 2)).toBe(-0.12); // -0.125
  });
});
