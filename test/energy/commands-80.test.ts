/** The energy domain's answers with a renderer of their own, at their longest, at 80 columns, and the bill's figures whole (issue 37; test/support/commands-80.ts). */
import { describe, expect, it } from 'vitest';
import { asJson, at80, fits, gbp, rendererCases, statementRow } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-energy-', 'energy');

rendererCases(
  fx,
  {
    'energy.price-cap.calculate': [
      ['energy', 'bill', '--electricity', '2700', '--gas', '11500'],
      ['energy', 'bill', '--electricity', '2700', '--gas', '11500', '--period', '2022-10'],
    ],
    'energy.price-cap.periods': [['energy', 'periods', '--chart']],
  },
  { domain: 'energy' },
);

describe('the answer figures stay whole', () => {
  it('energy bill, both fuels: the totals whole and the closing line wrapped at word boundaries', async () => {
    const argv = ['energy', 'bill', '--electricity', '2700', '--gas', '11500'];
    const [r, { data }] = [await at80(fx, argv), await asJson(fx, argv)];
    fits(r);
    expect(statementRow(r.stdout, 'Total a year')).toBe(`Total a year ${gbp(data.total_annual)}`);
    expect(statementRow(r.stdout, 'Electricity')).toBe(`Electricity ${gbp(data.electricity.total)}`);
    expect(statementRow(r.stdout, 'Gas')).toBe(`Gas ${gbp(data.gas.total)}`);
    // 2026-10 (the clock's period): no VAT on domestic electricity from 2026-10-01 to 2027-03-31
    const lines = r.stdout.split('\n');
    const close = lines.slice(lines.findIndex((l) => l.startsWith('  Monthly')) + 1).filter((l) => /^ {2}\S/.test(l));
    expect(close.map((l) => l.trim()).join(' ')).toBe('electricity without VAT, gas incl. VAT at 5%; rates as the cap sets them (maximums)');
  });
});
