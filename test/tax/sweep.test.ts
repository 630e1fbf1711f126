import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';

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
