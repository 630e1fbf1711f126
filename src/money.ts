/**
 * Exact money arithmetic on integer pence. Amounts are integers (pence); rates are exact decimal
 * fractions given as numbers with at most 6 decimal places (0.2, 0.1325, 0.0273), scaled to integer
 * parts per million. Products are exact integers; above 2^53 the computation falls back to BigInt.
 * Division is integer division with an explicit rounding mode, so no float arithmetic touches an amount.
 */

export type Rounding = 'down' | 'up' | 'half-up' | 'half-even';

const PPM = 1_000_000;

/** A rate (fraction) as integer parts per million; throws if it has more than 6 decimal places. */
export function ratePpm(rate: number): number {
  const ppm = Math.round(rate * PPM);
  if (Math.abs(ppm - rate * PPM) > 1e-6) throw new Error(`rate ${rate} has more than 6 decimal places`);
  return ppm;
}

/** Integer division a/b (b > 0) with a rounding mode; exact for any safe integers. */
export function divRound(a: number, b: number, mode: Rounding): number {
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b <= 0) {
    return Number(divRoundBig(BigInt(a), BigInt(b), mode));
  }
  const r = ((a % b) + b) % b; // non-negative remainder
  const q = (a - r) / b; // exact floor
  if (r === 0) return q;
  switch (mode) {
    case 'down':
      return a >= 0 ? q : q + 1; // toward zero
    case 'up':
      return a >= 0 ? q + 1 : q; // away from zero
    case 'half-up': {
      const twice = 2 * r;
      if (a >= 0) return twice >= b ? q + 1 : q;
      return twice > b ? q + 1 : q; // -x.5 rounds away from zero
    }
    case 'half-even': {
      const twice = 2 * r;
      if (twice > b) return q + 1;
      if (twice < b) return q;
      return q % 2 === 0 ? q : q + 1;
    }
  }
}

function divRoundBig(a: bigint, b: bigint, mode: Rounding): bigint {
  const r = ((a % b) + b) % b;
  const q = (a - r) / b;
  if (r === 0n) return q;
  switch (mode) {
    case 'down':
      return a >= 0n ? q : q + 1n;
    case 'up':
      return a >= 0n ? q + 1n : q;
    case 'half-up':
      return a >= 0n ? (2n * r >= b ? q + 1n : q) : 2n * r > b ? q + 1n : q;
    case 'half-even':
      return 2n * r > b ? q + 1n : 2n * r < b ? q : q % 2n === 0n ? q : q + 1n;
  }
}

/** pence x rate, rounded to whole pence with `mode`. */
export function applyRate(pence: number, rate: number, mode: Rounding = 'half-up'): number {
  const ppm = ratePpm(rate);
  const product = pence * ppm;
  if (Number.isSafeInteger(product)) return divRound(product, PPM, mode);
  return Number(divRoundBig(BigInt(pence) * BigInt(ppm), BigInt(PPM), mode));
}

/** Pounds (a number with at most 2 decimal places, as typed by a user) to integer pence. */
export function toPence(pounds: number): number {
  const p = Math.round(pounds * 100);
  if (!Number.isSafeInteger(p)) throw new RangeError(`amount ${pounds} out of range`);
  return p;
}

/** Integer pence to pounds for output (the nearest double to the 2-dp decimal; JSON prints it exactly). */
export function toPounds(pence: number): number {
  return pence / 100;
}

/** Round pence to whole pounds (in pence) with `mode`. */
export function roundToPounds(pence: number, mode: Rounding): number {
  return divRound(pence, 100, mode) * 100;
}
