/**
 * The interpolation between published percentiles. Expected values are worked by hand from the real
 * Table 8.7a 2020, All sheet, United Kingdom row 6 (H6..Q6 and D6) and written with the arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { missingOf, placeAmount } from '../../src/domains/earnings/percentile.js';

// All!D6 median 25886; H6..Q6 p10 8628, p20 13756, p25 16338, p30 18349, p40 21960, p60 30350, p70 35753, p75 39093, p80 42810, p90 55798
const UK_ALL_2020 = { p10: 8628, p20: 13756, p25: 16338, p30: 18349, p40: 21960, median: 25886, p60: 30350, p70: 35753, p75: 39093, p80: 42810, p90: 55798 };

describe('placeAmount (linear between adjacent published percentiles)', () => {
  it('gives each published percentile exactly at its value', () => {
    expect(placeAmount(8628, UK_ALL_2020)).toMatchObject({ percentile: 10, percentile_bound: null });
    expect(placeAmount(25886, UK_ALL_2020).percentile).toBe(50);
    expect(placeAmount(39093, UK_ALL_2020).percentile).toBe(75);
    expect(placeAmount(55798, UK_ALL_2020)).toMatchObject({ percentile: 90, percentile_bound: null });
  });

  it('interpolates inside a band', () => {
    // 28000 between median 25886 (50) and p60 30350 (60): 50 + 2114 x 10 / 4464 = 50 + 4.7357 -> 54.7
    expect(placeAmount(28000, UK_ALL_2020)).toMatchObject({ percentile: 54.7, between: [{ percentile: 50, value: 25886 }, { percentile: 60, value: 30350 }] });
    // 15000 between p20 13756 and p25 16338: 20 + 1244 x 5 / 2582 = 20 + 2.4090 -> 22.4
    expect(placeAmount(15000, UK_ALL_2020).percentile).toBe(22.4);
    // 50000 between p80 42810 and p90 55798: 80 + 7190 x 10 / 12988 = 80 + 5.5359 -> 85.5
    expect(placeAmount(50000, UK_ALL_2020).percentile).toBe(85.5);
    // half-up at the first decimal: p10 8628 .. p20 13756 (5128 wide); 8628 + 5128 x 0.25 = 9910 -> 12.5 exactly
    expect(placeAmount(9910, UK_ALL_2020).percentile).toBe(12.5);
  });

  it('never extrapolates beyond p10 or p90', () => {
    expect(placeAmount(8627.99, UK_ALL_2020)).toMatchObject({ percentile: null, percentile_bound: 'below_p10' });
    expect(placeAmount(1, UK_ALL_2020)).toMatchObject({ percentile: null, percentile_bound: 'below_p10' });
    expect(placeAmount(55798.01, UK_ALL_2020)).toMatchObject({ percentile: null, percentile_bound: 'above_p90' });
  });

  it('skips suppressed percentiles and does not place beyond a suppressed p10 or p90', () => {
    // Full-Time row 13, Middlesbrough UA: H13 x, I13 19786, J13 20800, K13 22160, L13 24209, D13 26645, M13 31031, N13..Q13 x
    const mid = { p10: null, p20: 19786, p25: 20800, p30: 22160, p40: 24209, median: 26645, p60: 31031, p70: null, p75: null, p80: null, p90: null };
    const above = placeAmount(40000, mid);
    expect(above).toMatchObject({ percentile: null, percentile_bound: null });
    expect(above.unplaced).toMatch(/above p60/);
    expect(placeAmount(19000, mid)).toMatchObject({ percentile: null, percentile_bound: null });
    // 28000 between median 26645 (50) and p60 31031 (60): 50 + 1355 x 10 / 4386 = 53.089 -> 53.1
    expect(placeAmount(28000, mid).percentile).toBe(53.1);
    // a band across a suppressed point: p30 and p40 suppressed, 20000 between p25 18000 and median 26000 -> 25 + 2000 x 25 / 8000 = 31.25 -> 31.3
    expect(placeAmount(20000, { p10: 10000, p25: 18000, p30: null, p40: null, median: 26000, p90: 60000 }).percentile).toBe(31.3);
  });

  it('says why a point is missing as the record does: suppressed only when named in suppressed', () => {
    // Full-Time row 13, Middlesbrough UA: H13 'x' (ONS key: CV > 20%, a suppression), N13..Q13 'x'
    const mid = { p10: null, p20: 19786, p25: 20800, p30: 22160, p40: 24209, median: 26645, p60: 31031, p70: null, p75: null, p80: null, p90: null };
    const x = { p10: 'x', p70: 'x', p75: 'x', p80: 'x', p90: 'x' };
    const sup = missingOf(['p10', 'p70', 'p75', 'p80', 'p90'], x);
    expect(sup).toEqual({ p10: 'suppressed', p70: 'suppressed', p75: 'suppressed', p80: 'suppressed', p90: 'suppressed' });
    expect(placeAmount(10000, mid, sup).unplaced).toBe('below p20, the lowest percentile ONS published for this record (p10 suppressed)');
    expect(placeAmount(40000, mid, sup).unplaced).toBe('above p60, the highest percentile ONS published for this record (p70, p75, p80, p90 suppressed)');
    // the same nulls as blank cells (nothing in suppressed or markers): not published, never 'suppressed'
    expect(placeAmount(10000, mid).unplaced).toBe('below p20, the lowest percentile ONS published for this record (p10 not published)');
    // ':' is ONS's 'not applicable' (the key of every sheet), not a suppression
    const na = missingOf([], { p70: ':', p75: ':', p80: ':', p90: ':' });
    expect(placeAmount(40000, mid, { ...na, p70: 'suppressed' }).unplaced).toBe(
      "above p60, the highest percentile ONS published for this record (p70 suppressed; p75, p80, p90 marked ':' (not applicable))",
    );
    // no point at all (the missing points grouped by reason): blank (Isles of Scilly, Part-Time row 337, D and H..Q blank), all suppressed, or mixed
    expect(placeAmount(20000, {}).unplaced).toBe('ONS published no percentile for this record');
    const every = ['p10', 'p20', 'p25', 'p30', 'p40', 'median', 'p60', 'p70', 'p75', 'p80', 'p90'];
    expect(placeAmount(20000, {}, missingOf(every, {})).unplaced).toBe('ONS suppressed every percentile of this record');
    expect(placeAmount(20000, {}, missingOf(['median'], { median: '..' })).unplaced).toBe(
      'ONS published no percentile for this record (p10, p20, p25, p30, p40, p60, p70, p75, p80, p90 not published; median suppressed)',
    );
  });
});
