/**
 * VAT on one amount: add VAT to a net amount (exclusive) or extract it from a gross amount (inclusive).
 * Exact integer-pence arithmetic (BigInt), no floats on amounts.
 *
 * Rounding (docs/tax-business.md, "VAT rounding"):
 *  - exclusive (an invoice trader adding VAT to a net price): VAT = net x rate, the fraction of a penny
 *    dropped (rounded down to the whole penny). VAT Notice 700 section 16 ("Rounding of amounts of VAT" on
 *    invoices): the total VAT payable on an invoice may be rounded down to a whole penny; HMRC VATREC12010
 *    calls this the rounding concession "available since the inception of the tax".
 *  - inclusive (extracting VAT from a VAT-inclusive price, the retailer's case): VAT = gross x rate / (1 + rate)
 *    (the VAT fraction, 1/6 at 20%), rounded to the nearest penny with a half penny rounded up, because
 *    retailers calculating VAT at line or invoice level "must not round the VAT figure down" (Notice 700,
 *    retailers' rounding; VATREC12010). net = gross - VAT, so net + VAT = gross exactly.
 */
import { ratePpm } from '../../money.js';

export type VatDirection = 'exclusive' | 'inclusive';

export interface VatAmounts {
  net_pence: number;
  vat_pence: number;
  total_pence: number;
}

const PPM = 1_000_000n;

function divFloor(a: bigint, b: bigint): bigint {
  // a >= 0, b > 0
  return a / b;
}

function divHalfUp(a: bigint, b: bigint): bigint {
  // a >= 0, b > 0
  return (2n * a + b) / (2n * b);
}

/** Add VAT at `rate` (a fraction, e.g. 0.2) to a net amount in pence; VAT rounded down to the penny. */
export function addVat(netPence: number, rate: number): VatAmounts {
  if (!Number.isSafeInteger(netPence) || netPence < 0) throw new RangeError(`net amount ${netPence} must be a non-negative integer of pence`);
  const ppm = BigInt(ratePpm(rate));
  const vat = Number(divFloor(BigInt(netPence) * ppm, PPM));
  return { net_pence: netPence, vat_pence: vat, total_pence: netPence + vat };
}

/** Extract VAT at `rate` from a VAT-inclusive amount in pence; VAT rounded to the nearest penny, half up. */
export function extractVat(grossPence: number, rate: number): VatAmounts {
  if (!Number.isSafeInteger(grossPence) || grossPence < 0) throw new RangeError(`gross amount ${grossPence} must be a non-negative integer of pence`);
  const ppm = BigInt(ratePpm(rate));
  const vat = Number(divHalfUp(BigInt(grossPence) * ppm, PPM + ppm));
  return { net_pence: grossPence - vat, vat_pence: vat, total_pence: grossPence };
}

export function vatOn(amountPence: number, rate: number, direction: VatDirection): VatAmounts {
  return direction === 'exclusive' ? addVat(amountPence, rate) : extractVat(amountPence, rate);
}
