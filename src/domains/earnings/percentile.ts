/**
 * Where an amount of pay sits among the percentiles ONS publishes (p10, p20, p25, p30, p40, median,
 * p60, p70, p75, p80, p90).
 *
 * Method: linear interpolation of the distribution function between the two adjacent published
 * percentiles that bracket the amount:  q = q_a + (amount - v_a) x (q_b - q_a) / (v_b - v_a),
 * i.e. pay is taken as evenly spread within each band. Why: it reproduces every published percentile
 * exactly, is monotone, and assumes no model of the distribution (a fitted log-normal would not pass
 * through the published points); ASHE's bands are 5 or 10 points wide, so the error is bounded by the
 * band. Never beyond the outermost published points: below p10 or above p90 the answer is
 * `percentile: null` with `percentile_bound` below_p10 / above_p90 (ONS publishes nothing further out).
 * A suppressed percentile is skipped (the band widens to the next published neighbours); when p10 or p90
 * itself is suppressed, an amount beyond the outermost published point is not placed at all.
 * Exact arithmetic (decimal.js on the published values); the result is rounded to one decimal place,
 * half up. An amount equal to a published value gets that percentile (the lowest of equal values).
 * docs/earnings.md "The percentile calculator".
 */
import { Decimal } from 'decimal.js';

export const PUBLISHED = [
  ['p10', 10], ['p20', 20], ['p25', 25], ['p30', 30], ['p40', 40], ['median', 50],
  ['p60', 60], ['p70', 70], ['p75', 75], ['p80', 80], ['p90', 90],
] as const;

export type PublishedValues = Partial<Record<(typeof PUBLISHED)[number][0], number | null>>;

export interface Placement {
  percentile: number | null;
  percentile_bound: 'below_p10' | 'above_p90' | null;
  /** The published points used (percentile, value), or the nearest one when outside. */
  between: Array<{ percentile: number; value: number }>;
  /** Why the amount could not be placed, when it could not. */
  unplaced?: string;
}

export function placeAmount(amount: number, v: PublishedValues): Placement {
  const points = PUBLISHED.flatMap(([f, q]) => (typeof v[f] === 'number' ? [{ percentile: q, value: v[f] as number }] : []));
  if (points.length === 0) {
    return { percentile: null, percentile_bound: null, between: [], unplaced: 'ONS suppressed every percentile of this record' };
  }
  const a = new Decimal(String(amount));
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (a.lt(first.value)) {
    if (first.percentile === 10) return { percentile: null, percentile_bound: 'below_p10', between: [first] };
    return { percentile: null, percentile_bound: null, between: [first], unplaced: `below p${first.percentile}, the lowest percentile ONS published for this record (p10 suppressed)` };
  }
  if (a.gt(last.value)) {
    if (last.percentile === 90) return { percentile: null, percentile_bound: 'above_p90', between: [last] };
    return { percentile: null, percentile_bound: null, between: [last], unplaced: `above p${last.percentile}, the highest percentile ONS published for this record (p90 suppressed)` };
  }
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (a.eq(p.value)) return { percentile: p.percentile, percentile_bound: null, between: [p] };
    const next = points[i + 1];
    if (next && a.gt(p.value) && a.lt(next.value)) {
      const q = new Decimal(p.percentile).plus(a.minus(p.value).times(next.percentile - p.percentile).div(new Decimal(next.value).minus(p.value)));
      return { percentile: q.toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toNumber(), percentile_bound: null, between: [p, next] };
    }
  }
  // Only when the published values are not in increasing order.
  return { percentile: null, percentile_bound: null, between: [], unplaced: 'the published percentiles of this record are not in increasing order' };
}
