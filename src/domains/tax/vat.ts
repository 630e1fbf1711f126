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
import { mulDiv, PPM, ratePpm } from '../../money.js';

export type VatDirection = 'exclusive' | 'inclusive';

export interface VatAmounts {
  net_pence: number;
  vat_pence: number;
  total_pence: number;
}


/** Add VAT at `rate` (a fraction, e.g. 0.2) to a net amount in pence; VAT rounded down to the penny. */
export function addVat(netPence: number, rate: number): VatAmounts {
  if (!Number.isSafeInteger(netPence) || netPence < 0) throw new RangeError(`net amount ${netPence} must be a non-negative integer of pence`);
  const vat = mulDiv(netPence, ratePpm(rate), PPM, 'down');
  return { net_pence: netPence, vat_pence: vat, total_pence: netPence + vat };
}

/** Extract VAT at `rate` from a VAT-inclusive amount in pence; VAT rounded to the nearest penny, half up. */
export function extractVat(grossPence: number, rate: number): VatAmounts {
  if (!Number.isSafeInteger(grossPence) || grossPence < 0) throw new RangeError(`gross amount ${grossPence} must be a non-negative integer of pence`);
  const ppm = ratePpm(rate);
  // The VAT fraction rate / (1 + rate), e.g. 1/6 at 20%.
  const vat = mulDiv(grossPence, ppm, PPM + ppm, 'half-up');
  return { net_pence: grossPence - vat, vat_pence: vat, total_pence: grossPence };
}

export function vatOn(amountPence: number, rate: number, direction: VatDirection): VatAmounts {
  return direction === 'exclusive' ? addVat(amountPence, rate) : extractVat(amountPence, rate);
}
