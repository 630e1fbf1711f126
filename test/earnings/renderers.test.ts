/**
 * The rank table's pieces: money as pounds (whole pounds for the annual measure, pence with two decimals),
 * and a missing point as the record explains it. The record here is the real Middlesbrough UA row (Table
 * 8.7a 2020, Full-Time row 13: H13 and N13..Q13 'x') with its p90 turned into ':' (ONS's "not applicable",
 * which no percentile of the real file carries) and its p80 into a blank cell, to cover all three cases.
 */
import { describe, expect, it } from 'vitest';
import type { Output, RenderContext } from '../../src/output/types.js';
import { pounds, rankLines, rankTable } from '../../src/domains/earnings/renderers.js';

describe('earnings rank renderer', () => {
  it('pounds: whole pounds stay whole on the annual measure; pence show two decimals', () => {
    expect(pounds(42000, 0)).toBe('£42,000');
    expect(pounds(42000.5, 0)).toBe('£42,000.50');
    expect(pounds(42000.05, 0)).toBe('£42,000.05');
    expect(pounds(650.5, 2)).toBe('£650.50');
    expect(pounds(650, 2)).toBe('£650.00');
  });

  it('a missing point reads suppressed (in suppressed), its marker, or not published; the unplaced amount sits by its nearest point', () => {
    const reference = {
      year: 2020, measure: 'annual_gross', population: 'full_time',
      median: 26645,
      percentiles: { p10: null, p20: 19786, p25: 20800, p30: 22160, p40: 24209, p60: 31031, p70: null, p75: null, p80: null, p90: null },
      suppressed: ['percentiles.p10', 'percentiles.p70', 'percentiles.p75'],
      markers: { 'percentiles.p10': 'x', 'percentiles.p70': 'x', 'percentiles.p75': 'x', 'percentiles.p90': ':' },
    };
    const lines = rankLines({ amount: 35000, percentile: null, percentile_bound: null, between: [{ percentile: 60, value: 31031 }], reference });
    expect(lines.map((l) => [l.label, l.value ?? l.missing])).toEqual([
      ['p10', 'suppressed'], ['p20', 19786], ['p25', 20800], ['p30', 22160], ['p40', 24209], ['median', 26645], ['p60', 31031],
      ['not placed', 35000],
      ['p70', 'suppressed'], ['p75', 'suppressed'], ['p80', 'not published'], ['p90', ':'],
    ]);
    const answer = { amount: 35000, percentile: null, percentile_bound: null, between: [{ percentile: 60, value: 31031 }], reference };
    const text = String(rankTable.render({ envelope: { data: answer, meta: {} } } as unknown as Output, { options: {}, columns: 80 } as unknown as RenderContext));
    // ONS's key of every sheet: ': = not applicable'
    expect(text).toMatch(/\n  p90\s+:\n: = not applicable \(ONS key\)\n/);
    // the title wraps at word boundaries to the 80 columns (issue 37)
    expect(Math.max(...text.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(text.split('\n').slice(0, 2).join(' ')).toMatch(/^£35,000 a year: not placed \(above p60, the highest published\) among full-time employee jobs/);
  });
});
