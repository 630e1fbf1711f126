/** The terminal charts (src/output/chart.ts): plain rows in, no domain needed. */
import { describe, expect, it } from 'vitest';
import { priceChart, fit } from '../../src/output/chart.js';

describe('charts', () => {
  it('fit keeps the ends and the width', () => {
    expect(fit([1, 2, 3, 4, 5], 3)).toEqual([1, 3, 5]);
    expect(fit([1, 2], 10)).toEqual([1, 2]);
  });

  it('an HPI chart draws one region and says when the page held more', async () => {
    const rows = [
      { date: '2024-01-01', average_price: 100000, region: { code: 'A', name: 'Alpha' } },
      { date: '2024-02-01', average_price: 110000, region: { code: 'A', name: 'Alpha' } },
      { date: '2024-01-01', average_price: 900000, region: { code: 'B', name: 'Beta' } },
    ];
    const out = await priceChart(rows, 80);
    expect(out.split('\n')[0]).toBe('Alpha average price, 2024-01-01 to 2024-02-01 (first of 2 regions in this page; use --region)');
    expect(out).not.toContain('900,000');
  });
});
