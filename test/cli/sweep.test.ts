import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { priceChart, fit } from '../../src/output/chart.js';

describe('tax take-home --sweep', () => {
  it('piped: one take-home record per income, equal to single runs', async () => {
    const r = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--region', 'scotland']);
    expect(r.code).toBe(0);
    const rows = json(r).data as Array<{ gross_income: number; net_annual: number; region: string }>;
    expect(rows.map((x) => x.gross_income)).toEqual([20000, 25000, 30000]);
    for (const row of rows) {
      const one = json(await runCli(['tax', 'take-home', String(row.gross_income), '--region', 'scotland']));
      expect(row.net_annual).toBe(one.data.net_annual);
      expect(row.region).toBe('scotland');
    }
  });

  it('terminal: a table, or a chart with --chart', async () => {
    const t = await runCli(['tax', 'take-home', '--sweep', '20000:150000:10000', '--no-color'], { tty: true });
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('150,000');
    const c = await runCli(['tax', 'take-home', '--sweep', '20000:150000:10000', '--chart', '--no-color'], { tty: true });
    expect(c.stdout).toMatch(/[╭╮╰╯│┤┼]/);
  });

  it('rejects a malformed sweep as a usage error', async () => {
    const r = await runCli(['tax', 'take-home', '--sweep', '20000-150000']);
    expect([r.code, json(r).error.code]).toEqual([2, 'usage_error']);
  });
});

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
