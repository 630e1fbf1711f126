/**
 * The tax domain's answers with a renderer of their own, at their longest, at 80 columns, and their figures
 * whole (issue 37; test/support/commands-80.ts). On every domain's fixture mirror: `--rank` ranks against
 * earnings and `--postcode` looks the place up.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { asJson, at80, fits, gbp, rendererCases, statementRow } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-tax-');

const vatCsv = join(mkdtempSync(join(tmpdir(), 'commands-80-vat-')), 'q3.csv');
beforeAll(() => {
  writeFileSync(
    vatCsv,
    [
      'id,date,type,net_amount,vat_amount,gross_amount,vat_rate,supply_type',
      'S1,2026-07-01,sale,"1,000.00",200.00,"1,200.00",standard,domestic',
      'S2,2026-08-15,sale,50000.00,10000.00,60000.00,standard,domestic',
      'P1,2026-09-30,purchase,400.00,80.00,480.00,standard,domestic',
    ].join('\n'),
  );
});

rendererCases(
  fx,
  {
    'tax.take-home.calculate': [
      ['tax', 'take-home', '45000', '--rank'],
      ['tax', 'take-home', '45000', '--rank', '--region', 'North West'],
      ['tax', 'take-home', '80000', '--pension', '5', '--pension-type', 'relief_at_source', '--student-loan', 'plan_2,postgraduate', '--rank', '--postcode', 'LS8 3BS'],
    ],
    'tax.take-home.sweep': [
      ['tax', 'take-home', '--sweep', '20000:150000:5000', '--student-loan', 'plan_2', '--pension', '5'],
      ['tax', 'take-home', '--sweep', '20000:150000:5000', '--chart'],
    ],
    'tax.compare': [
      ['tax', 'compare', '40000', '50000'],
      ['tax', 'compare', '45000', '52000', '--b-region', 'scotland', '--b-pension', '10', '--b-pension-type', 'salary_sacrifice'],
    ],
    'tax.vat.return.calculate': [['tax', 'vat-return', '--csv', vatCsv, '--period', '2026-07-01:2026-09-30', '--vrn', 'GB123456789']],
  },
  { domain: 'tax' },
);

describe('the answer figures stay whole', () => {
  it('tax take-home --rank: the amounts, and the rank with its area, year and median (the note wrapped at word boundaries)', async () => {
    for (const region of [[], ['--region', 'North West']]) {
      const argv = ['tax', 'take-home', '45000', '--rank', ...region];
      const [r, { data }] = [await at80(fx, argv), await asJson(fx, argv)];
      fits(r);
      // 45,000 in 2026-27 (England, Wales & NI): tax 20% of (45,000 - 12,570) = 6,486; NI 8% of the same = 2,594.40
      expect(statementRow(r.stdout, 'Net annual')).toBe('Net annual £35,919.60');
      expect(data.net_annual).toBe(35919.6);
      expect(data.rank).not.toBeNull();
      const { percentile, area, year, median } = data.rank as { percentile: number; area: string; year: number; median: number };
      expect(statementRow(r.stdout, 'Gross among full-time jobs')).toBe(`Gross among full-time jobs percentile ${percentile} ${area}, April ${year}, median ${gbp(median)} (ONS ASHE)`);
    }
  });

  it('tax compare 40000 50000: every figure of A, B and B − A whole', async () => {
    const r = await at80(fx, ['tax', 'compare', '40000', '50000']);
    fits(r);
    const row = (label: string) => r.stdout.split('\n').find((l) => l.startsWith(label))!.replace(/\s+/g, ' ');
    // 2026-27, England, Wales & NI: tax 20% above £12,570, NI 8% from £12,570 to £50,270
    expect(row('Gross income')).toBe('Gross income £40,000.00 £50,000.00 +£10,000.00');
    expect(row('Income tax')).toBe('Income tax £5,486.00 £7,486.00 +£2,000.00');
    expect(row('National Insurance')).toBe('National Insurance £2,194.40 £2,994.40 +£800.00');
    expect(row('Net annual')).toBe('Net annual £32,319.60 £39,519.60 +£7,200.00');
    expect(row('Marginal rate')).toBe('Marginal rate 28% 28% 0 pts');
    // the headings, wrapped at word boundaries: every word of each in order
    const heads = r.stdout.split('\n').slice(1, r.stdout.split('\n').findIndex((l) => l.startsWith('Gross income')));
    const words = heads.map((l) => l.trim().split(/\s{2,}/));
    expect(heads.length).toBeGreaterThan(0);
    expect(words.flat().join(' ')).toMatch(/^A \(England, Wales &( NI\))? B \(England, Wales & NI\) B − A( NI\))?$/);
  });
});
