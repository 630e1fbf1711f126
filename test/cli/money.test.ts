/** src/money.ts: every rounding mode, exact beyond 2^53, against hand-worked values. */
import { describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { applyRate, decimalOf, decimalToNumber, divRound, divRoundBig, mulDiv, roundToPounds, toPence, toPounds, type Rounding , penceFromText, penceToText, poundsFromPence, scaledTextToPence } from '../../src/money.js';
import { parseAmount } from '../../src/amount.js';

describe('money', () => {
  it('rounds quotients by every mode, for both signs', () => {
    const cases: Array<[number, number, Record<string, number>]> = [
      [7, 2, { down: 3, up: 4, 'half-up': 4, 'half-down': 3, 'half-even': 4 }], // 3.5
      [5, 2, { down: 2, up: 3, 'half-up': 3, 'half-down': 2, 'half-even': 2 }], // 2.5
      [-7, 2, { down: -3, up: -4, 'half-up': -4, 'half-down': -3, 'half-even': -4 }], // -3.5
      [10, 3, { down: 3, up: 4, 'half-up': 3, 'half-down': 3, 'half-even': 3 }], // 3.33
      [20, 3, { down: 6, up: 7, 'half-up': 7, 'half-down': 7, 'half-even': 7 }], // 6.67
      [9, 3, { down: 3, up: 3, 'half-up': 3, 'half-down': 3, 'half-even': 3 }],
    ];
    for (const [a, b, want] of cases) for (const [mode, v] of Object.entries(want)) expect(divRound(a, b, mode as never), `${a}/${b} ${mode}`).toBe(v);
  });

  it('the safe-integer path agrees with the BigInt path for every mode, sign and remainder', () => {
    const modes: Rounding[] = ['down', 'up', 'half-up', 'half-down', 'half-even'];
    for (let a = -41; a <= 41; a++) {
      for (const b of [1, 2, 3, 4, 7, 10, 100]) {
        for (const mode of modes) expect(divRound(a, b, mode), `${a}/${b} ${mode}`).toBe(Number(divRoundBig(BigInt(a), BigInt(b), mode)));
      }
    }
  });

  it('is exact for dividends at the edge of the safe integers', () => {
    // (2^53 - 1) / 3 = 3,002,399,751,580,330.33…: toward zero 330, away from zero 331, for both signs.
    const a = Number.MAX_SAFE_INTEGER;
    expect(divRound(-a, 3, 'down')).toBe(-3_002_399_751_580_330);
    expect(divRound(-a, 3, 'up')).toBe(-3_002_399_751_580_331);
    expect(divRound(a, 3, 'down')).toBe(3_002_399_751_580_330);
    expect(divRound(-a, 3, 'half-up')).toBe(-3_002_399_751_580_330);
  });

  it('is exact beyond 2^53 (BigInt path agrees with hand arithmetic)', () => {
    // £90,000,000.01 x 20% = £18,000,000.002 -> 1,800,000,000 pence down, exactly
    expect(applyRate(9_000_000_001, 0.2, 'down')).toBe(1_800_000_000);
    expect(mulDiv(9_000_000_001, 200_000, 1_000_000, 'half-up')).toBe(1_800_000_000);
    // 2^53 + 1 does not survive float division; 9007199254740993 / 1 * 3 / 3
    expect(mulDiv(3_000_000_001, 3_000_000_001, 3_000_000_001, 'down')).toBe(3_000_000_001);
  });

  it('NI rounds an exact half penny down (CWG2), tax to the nearest with half up', () => {
    expect(applyRate(1250, 0.02, 'half-down')).toBe(25); // 25.0
    expect(applyRate(25, 0.02, 'half-down')).toBe(0); // 0.5 -> 0
    expect(applyRate(25, 0.02, 'half-up')).toBe(1); // 0.5 -> 1
  });

  it('converts pounds and pence, refusing amounts over £1bn', () => {
    expect(toPence(45000.99)).toBe(4_500_099);
    expect(toPence(0.1 + 0.2)).toBe(30);
    expect([toPence(0.005), toPence(-0.005), toPence(-45.994)]).toEqual([1, -1, -4599]);
    expect(toPounds(259_440)).toBe(2594.4);
    expect(roundToPounds(1_000_045, 'down')).toBe(1_000_000);
    expect(() => toPence(1e20)).toThrow(RangeError);
  });
});

describe('decimal values of numbers (decimal.js as the reference)', () => {
  it('decimalOf reads a number as decimal.js does, and the arithmetic built on it matches', () => {
    const xs = [0, 1, 14.5, 16.5, 0.1, 0.3, 12.345, 99.999, 1e-7, 2.5e-9, 100, 7.25, 1234567.891, -3.75, -0.05];
    let seed = 7;
    for (let i = 0; i < 300; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      xs.push(Math.round((seed / 2147483648) * 100 * 10 ** (i % 5)) / 10 ** (i % 5));
    }
    for (const x of xs) {
      const d = decimalOf(x);
      expect(new Decimal(d.units.toString()).div(new Decimal(10).pow(d.scale)).equals(new Decimal(x))).toBe(true);
      expect(decimalToNumber(d.units, d.scale)).toBe(x === 0 ? 0 : x);
      // percentage less 1 point, never below 0 (vat-data firstYear)
      const a = decimalOf(x);
      const diff = a.units - 10n ** BigInt(a.scale);
      expect(diff <= 0n ? 0 : decimalToNumber(diff, a.scale)).toBe(Decimal.max(0, new Decimal(x).minus(1)).toNumber());
      // residual x percentage x 100 rounded half away from zero (vat-return special method)
      for (const residual of [123457, -98765, 1, 0]) {
        const ours = divRoundBig(BigInt(residual) * d.units * 100n, 10n ** BigInt(d.scale), 'half-up');
        const ref = BigInt(new Decimal(residual).times(x).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
        expect(ours).toBe(ref);
      }
    }
  });
});

describe('decimal text and pence (decimal.js as the reference)', () => {
  it('45.5k, 1.234565k and 0.000145M are exact: 1,234.565 rounds half up to 1,234.57 (floats gave 1,234.56)', () => {
    expect(parseAmount('45.5k')).toBe(45500);
    expect(parseAmount('1.234565k')).toBe(new Decimal('1.234565').times(1000).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber());
    expect(parseAmount('1.234565k')).toBe(1234.57);
    expect(parseAmount('-2.5m')).toBe(-2_500_000);
  });
  it('penceFromText / penceToText / poundsFromPence round-trip DuckDB decimal text', () => {
    for (const t of ['0.00', '-5.00', '1234.56', '-0.07', '12', '99999999999.99']) {
      const p = penceFromText(t)!;
      expect(p).toBe(BigInt(new Decimal(t).times(100).toFixed(0)));
      expect(penceToText(p)).toBe(new Decimal(t).toFixed(2));
      expect(poundsFromPence(p)).toBe(new Decimal(t).toNumber());
    }
    expect(penceFromText(null)).toBeNull();
    expect(() => penceFromText('1.234')).toThrow(/money/);
  });
  it('scaledTextToPence rounds half away from zero, exactly', () => {
    expect(scaledTextToPence('0.0005', 10n)).toBe(1n); // 0.005 -> 1p
    expect(scaledTextToPence('-0.0005', 10n)).toBe(-1n);
    expect(scaledTextToPence('123.454999', 1n)).toBe(12345n);
  });
});
