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
 * A percentile ONS did not publish (suppressed, marked ':' or '-', or a blank cell) is skipped (the band
 * widens to the next published neighbours); when p10 or p90 itself is missing, an amount beyond the
 * outermost published point is not placed at all, and the reason says why each point below (above) it is
 * missing, as the record says: suppression only for the points named in its `suppressed`.
 * Exact arithmetic (decimal.js on the published values); the result is rounded to one decimal place,
 * half up. An amount equal to a published value gets that percentile (the lowest of equal values).
 * docs/earnings.md "The percentile calculator".
 */
import { Decimal } from 'decimal.js';
import { markerOf } from './codes.js';

export const PUBLISHED = [
  ['p10', 10], ['p20', 20], ['p25', 25], ['p30', 30], ['p40', 40], ['median', 50],
  ['p60', 60], ['p70', 70], ['p75', 75], ['p80', 80], ['p90', 90],
] as const;

type PointField = (typeof PUBLISHED)[number][0];
export type PublishedValues = Partial<Record<PointField, number | null>>;

/**
 * Why a point is missing, in words, per field: 'suppressed' (x, ..), "marked ':' (not applicable)", ...;
 * a field not listed was left blank by ONS: 'not published'.
 */
export type Missing = Partial<Record<PointField, string>>;

/** The reasons of a record's missing points: its `suppressed` fields and its `markers` (table column names: p10, median). */
export function missingOf(suppressed: readonly string[], markers: Readonly<Record<string, string>>): Missing {
  const out: Missing = {};
  for (const [f] of PUBLISHED) {
    const m = markers[f];
    if (suppressed.includes(f)) out[f] = 'suppressed';
    else if (m !== undefined) out[f] = `marked '${m}'${markerOf(m) ? ` (${markerOf(m)!.meaning})` : ''}`;
  }
  return out;
}

export interface Placement {
  percentile: number | null;
  percentile_bound: 'below_p10' | 'above_p90' | null;
  /** The published points used (percentile, value), or the nearest one when outside. */
  between: Array<{ percentile: number; value: number }>;
  /** Why the amount could not be placed, when it could not. */
  unplaced?: string;
}

/** 'p10 suppressed', 'p10, p20 not published; median suppressed': the missing fields grouped by reason, in order. */
function describe(fields: readonly PointField[], missing: Missing): string {
  const groups = new Map<string, PointField[]>();
  for (const f of fields) {
    const why = missing[f] ?? 'not published';
    groups.set(why, [...(groups.get(why) ?? []), f]);
  }
  return [...groups].map(([why, fs]) => `${fs.join(', ')} ${why}`).join('; ');
}

function nonePublished(missing: Missing): string {
  const whys = new Set(PUBLISHED.map(([f]) => missing[f] ?? 'not published'));
  if (whys.size === 1 && whys.has('suppressed')) return 'ONS suppressed every percentile of this record';
  if (whys.size === 1 && whys.has('not published')) return 'ONS published no percentile for this record';
  return `ONS published no percentile for this record (${describe(PUBLISHED.map(([f]) => f), missing)})`;
}

export function placeAmount(amount: number, v: PublishedValues, missing: Missing = {}): Placement {
  const points = PUBLISHED.flatMap(([f, q]) => (typeof v[f] === 'number' ? [{ percentile: q, value: v[f] as number }] : []));
  if (points.length === 0) return { percentile: null, percentile_bound: null, between: [], unplaced: nonePublished(missing) };
  const a = new Decimal(String(amount));
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const outside = (pred: (q: number) => boolean) => describe(PUBLISHED.filter(([, q]) => pred(q)).map(([f]) => f), missing);
  if (a.lt(first.value)) {
    if (first.percentile === 10) return { percentile: null, percentile_bound: 'below_p10', between: [first] };
    const why = outside((q) => q < first.percentile);
    return { percentile: null, percentile_bound: null, between: [first], unplaced: `below p${first.percentile}, the lowest percentile ONS published for this record (${why})` };
  }
  if (a.gt(last.value)) {
    if (last.percentile === 90) return { percentile: null, percentile_bound: 'above_p90', between: [last] };
    const why = outside((q) => q > last.percentile);
    return { percentile: null, percentile_bound: null, between: [last], unplaced: `above p${last.percentile}, the highest percentile ONS published for this record (${why})` };
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
