/**
 * The nine boxes as numbers: the running totals of a return (integer pence, boxes 1 and 4 also exact in
 * micro-pounds, 1/1,000,000 pound, as BigInt), their rounding onto the return (VAT Notice 700/12: boxes 1 to 5
 * in pounds and pence, 6 to 9 in whole pounds) and the conversions of pence and micro-pounds to JSON numbers.
 */
import { divRoundBig, roundToPounds, toPounds } from '../../../money.js';
import { extractVat } from '../vat.js';

/** The totals of a return being computed (engine.ts): boxes 2, 6 to 9 in pence, boxes 1 and 4 exact in micro-pounds. */
export interface BoxTotals {
  m1: bigint;
  b2: number;
  m4: bigint;
  b6: number;
  b7: number;
  b8: number;
  b9: number;
}

/** BigInt micro-pounds to a JS number of pounds (exact decimal text, then the nearest double). */
export function microToNumber(m: bigint): number {
  const neg = m < 0n;
  const a = neg ? -m : m;
  const int = a / 1_000_000n;
  const frac = (a % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return Number(`${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`);
}

/** Micro-pounds to pence, half a penny away from zero. */
const roundMicroToPence = (m: bigint): number => Number(divRoundBig(m, 10_000n, 'half-up'));

/** The VAT fraction of a VAT-inclusive amount (pence, either sign), half a penny away from zero. */
export function vatFraction(gross: number, rate: number): number {
  return gross < 0 ? -extractVat(-gross, rate).vat_pence : extractVat(gross, rate).vat_pence;
}

/** Rounded box value (pence) less its exact value (micro-pounds), in pounds. */
function diff(valuePence: number, exactMicro: bigint): number {
  return microToNumber(BigInt(valuePence) * 10_000n - exactMicro);
}

/**
 * The non-zero boxes of a transaction or category: `b` is pence for boxes 1, 2, 4, 6, 7, 8, 9 (in that order);
 * boxes 1 and 4 add the flat-rate micro-pound amounts `frs1` and `frs4`.
 */
export function boxesOf(b: readonly number[], frs1: bigint, frs4: bigint): Record<string, number> {
  const out: Record<string, number> = {};
  const m1 = BigInt(b[0]!) * 10_000n + frs1;
  if (m1) out['box_1'] = microToNumber(m1);
  if (b[1]) out['box_2'] = toPounds(b[1]);
  const m4 = BigInt(b[2]!) * 10_000n + frs4;
  if (m4) out['box_4'] = microToNumber(m4);
  if (b[3]) out['box_6'] = toPounds(b[3]);
  if (b[4]) out['box_7'] = toPounds(b[4]);
  if (b[5]) out['box_8'] = toPounds(b[5]);
  if (b[6]) out['box_9'] = toPounds(b[6]);
  return out;
}

/**
 * The boxes rounded (Notice 700/12: boxes 1 to 5 in pounds and pence, 6 to 9 in whole pounds), each with its
 * exact value, and the rounding of each. Box 3 = box 1 + box 2 and box 5 = box 3 - box 4, on the rounded values.
 */
export function roundBoxes(s: BoxTotals) {
  const { m1, b2, m4, b6, b7, b8, b9 } = s;
  const v1 = roundMicroToPence(m1);
  const v2 = b2;
  const v4 = roundMicroToPence(m4);
  const m2 = BigInt(b2) * 10_000n;
  const m3 = m1 + m2;
  const v3 = v1 + v2;
  const m5 = m3 - m4;
  const v5 = v3 - v4;
  const whole = (pn: number) => roundToPounds(pn, 'down');
  const vb = { b6: whole(b6), b7: whole(b7), b8: whole(b8), b9: whole(b9) };
  const box = (value: number, exact: bigint) => ({ value: value / 100, exact_value: microToNumber(exact) });
  const boxes = {
    box_1: box(v1, m1),
    box_2: box(v2, m2),
    box_3: box(v3, m3),
    box_4: box(v4, m4),
    box_5: box(v5, m5),
    box_6: box(vb.b6, BigInt(b6) * 10_000n),
    box_7: box(vb.b7, BigInt(b7) * 10_000n),
    box_8: box(vb.b8, BigInt(b8) * 10_000n),
    box_9: box(vb.b9, BigInt(b9) * 10_000n),
  };
  const rounding_summary = {
    box_1_rounding: diff(v1, m1),
    box_2_rounding: diff(v2, m2),
    box_3_rounding: diff(v3, m3),
    box_4_rounding: diff(v4, m4),
    box_5_rounding: diff(v5, m5),
    box_6_rounding: (vb.b6 - b6) / 100,
    box_7_rounding: (vb.b7 - b7) / 100,
    box_8_rounding: (vb.b8 - b8) / 100,
    box_9_rounding: (vb.b9 - b9) / 100,
  };
  return { boxes, rounding_summary };
}
