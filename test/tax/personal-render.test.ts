/** Terminal rendering of take-home results (exact text for the plain, uncoloured form). */
import { describe, expect, it } from 'vitest';
import { money, pct, renderSweep, renderTakeHome, sweepChart } from '../../src/domains/tax/render.js';
import { data, post } from './personal-helpers.js';

describe('render', () => {
  it('money and pct', () => {
    expect(money(1234567.5)).toBe('£1,234,567.50');
    expect(money(-0.4)).toBe('-£0.40');
    expect(pct(0.1273)).toBe('12.73%');
    expect(pct(0.62)).toBe('62%');
  });

  it('take-home table for £45,000 2025-26', async () => {
    const d = await data(post('/v1/tax/take-home/calculate', { gross_income: 45000, tax_year: '2025-26' }));
    expect(renderTakeHome(d, { color: false })).toBe(
      [
        'Take-home pay 2025-26 · England, Wales & NI',
        '  Gross income                £45,000.00',
        '  Personal allowance          £12,570.00',
        '─'.repeat(40),
        '  Income tax                  -£6,486.00  effective 14.41%',
        '    basic 20%                  £6,486.00  on £32,430.00',
        '  National Insurance          -£2,594.40',
        '    8% £12,570.00–£50,270.00   £2,594.40',
        '─'.repeat(40),
        '  Total deductions            -£9,080.40',
        '  Net annual                  £35,919.60',
        '  Net monthly                  £2,993.30',
        '  Net weekly                     £690.76',
        '─'.repeat(40),
        '  Effective rate                  20.18%  tax + NI + student loan',
        '  Marginal rate                      28%  on the next £1 of gross',
        '  Employer NI                  £6,000.00',
        '  Cost to employer            £51,000.00',
        '',
      ].join('\n'),
    );
    expect(renderTakeHome(d, { color: true })).toContain('\u001b[1m');
  });

  it('sweep table and chart', async () => {
    const rows = [];
    for (const g of [20000, 60000, 110000]) rows.push(await data(post('/v1/tax/take-home/calculate', { gross_income: g, tax_year: '2026-27' })));
    const t = renderSweep(rows);
    expect(t.split('\n')[0]).toMatch(/^\s+Gross\s+Income tax\s+NI/);
    expect(t).toContain('£110,000.00');
    expect(t.trim().split('\n')).toHaveLength(4);
    const c = await sweepChart(rows);
    expect(c).toContain('Net annual pay');
    expect(c).toContain('Marginal rate');
    expect(c).toContain('62%');
  });
});
