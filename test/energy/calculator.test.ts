/**
 * The calculator against the published figures: for each shipped period with GB-average rates, the typical
 * consumption at those Direct Debit rates comes within the published rounding of the published typical bill.
 * Expected values are computed here with BigInt from the YAML text (not with the code under test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bill, energyCostPence, excludingVat, rateUnits, standingCostPence } from '../../src/domains/energy/calc.js';

const yamlDoc = parse(readFileSync(join(__dirname, '..', '..', 'data', 'energy', 'price-cap.yaml'), 'utf8'), { merge: true });

/** '26.35' -> 2635n hundredths of a penny; '46.4' -> 4640n; '34' -> 3400n (published rates have 0-2 dp). */
const hundredths = (t: string): bigint => {
  expect(t).toMatch(/^\d+(\.\d{1,2})?$/);
  const [i, f = ''] = t.split('.');
  return BigInt(i! + f.padEnd(2, '0'));
};
/** Half a unit of a published figure's last place, in hundredths of a penny x 2 (so 2 dp -> 1, 1 dp -> 10, 0 dp -> 100). */
const halfUlp2 = (t: string): bigint => 10n ** BigInt(2 - (t.split('.')[1]?.length ?? 0));

describe('reproducing the published typical bills', () => {
  // periods whose four cap figures were all shown (a null figure is never estimated, so such a period is not checked)
  const withRates = yamlDoc.periods.filter(
    (p: any) => p.rates && [p.rates.electricity, p.rates.gas].every((r: any) => r.unit_rate !== null && r.standing_charge !== null),
  );
  it('ships at least the periods of the research notes with rates', () => {
    expect(withRates.map((p: any) => p.period_id)).toEqual(expect.arrayContaining(['2025-07', '2025-10', '2026-01']));
  });

  for (const p of withRates) {
    it(`${p.period_id}: its typical consumption (${p.consumption.electricity_kwh}/${p.consumption.gas_kwh} kWh) at the cap's GB-average DD rates vs the published £${p.bills.direct_debit.pounds}`, () => {
      const e = p.rates.electricity;
      const g = p.rates.gas;
      const { electricity_kwh: ek, gas_kwh: gk } = p.consumption;
      // exact annual cost in hundredths of a penny
      const exact =
        BigInt(ek) * hundredths(e.unit_rate) + 365n * hundredths(e.standing_charge) + BigInt(gk) * hundredths(g.unit_rate) + 365n * hundredths(g.standing_charge);
      const publishedHundredths = BigInt(p.bills.direct_debit.pounds) * 10000n;
      const diff = exact > publishedHundredths ? exact - publishedHundredths : publishedHundredths - exact;
      // Published rates are rounded to their last place (each off by at most half of it: 0.005p at 2 dp, 0.05p
      // at 1 dp) and the bill to £1 (at most 50p): the bound in hundredths of a penny is
      // sum(kWh x half a place) + 5000.
      const bound =
        (BigInt(ek) * halfUlp2(e.unit_rate) + 365n * halfUlp2(e.standing_charge) + BigInt(gk) * halfUlp2(g.unit_rate) + 365n * halfUlp2(g.standing_charge)) / 2n +
        5000n;
      expect(diff <= bound, `off by ${Number(diff) / 10000} pounds, bound ${Number(bound) / 10000}`).toBe(true);
      // the code under test gives the same pence (rounding each fuel's parts to the penny moves it < 2p)
      const t = bill(ek, gk, { electricity: e, gas: g });
      expect(Math.abs(t.total_pence - Number(exact) / 100)).toBeLessThanOrEqual(2);
      // and rounds to the published whole pounds, or one pound off where the rates' rounding says so
      expect(Math.abs(Math.round(t.total_pence / 100) - Number(p.bills.direct_debit.pounds))).toBeLessThanOrEqual(1);
    });
  }

  it('how close, per period (pounds, computed - published)', () => {
    const rows = withRates.map((p: any) => {
      const t = bill(p.consumption.electricity_kwh, p.consumption.gas_kwh, p.rates);
      return [p.period_id, (t.total_pence - Number(p.bills.direct_debit.pounds) * 100) / 100];
    });
    // Hand-computed with each part rounded to the penny: e.g. 2024-04: 2700 x 24.50 = 66150p, 365 x 60.10 =
    // 21936.5 -> 21937p, 11500 x 6.04 = 69460p, 365 x 31.43 = 11471.95 -> 11472p: 169019p = £1,690.19 vs £1,690;
    // 2024-07: 60372 + 21943.8->21944 + 63020 + 11464.65->11465 = 156801p vs £1,568; 2025-07: 171900p vs £1,720.
    // 2022-10 (the cap's level, not what households paid): 2900 x 51.89 = 150481p, 365 x 46.4 = 16936p,
    // 12000 x 14.76 = 177120p, 365 x 28.5 = 10402.5 -> 10403p: 354940p vs £3,549.
    // 2026-04 at 2,700/11,500: 66609 + 20881.65->20882 + 66010 + 10617.85->10618 = 164119p vs £1,641;
    // 2026-07 at 2,500/9,500: 65275 + 20874.35->20874 + 69635 + 10599.6->10600 = 166384p vs £1,663;
    // 2026-10 at 2,500/9,500: 65800 + 20012.95->20013 + 75715 + 10833.2->10833 = 172361p vs £1,723.
    expect(Object.fromEntries(rows)).toEqual({
      '2022-10': 0.4,
      '2024-01': 0.81,
      '2024-04': 0.19,
      '2024-07': 0.01,
      '2024-10': 0.27,
      '2025-01': 0.38,
      '2025-04': 0.28,
      '2025-07': -1,
      '2025-10': -0.06,
      '2026-01': -0.5,
      '2026-04': 0.19,
      '2026-07': 0.84,
      '2026-10': 0.61,
    });
  });
});

describe('exact arithmetic', () => {
  it('rates parse exactly and costs round half up to the penny', () => {
    expect(rateUnits('26.35')).toBe(263500);
    expect(rateUnits('0.0001')).toBe(1);
    expect(() => rateUnits('1.23456')).toThrow();
    expect(() => rateUnits('-1')).toThrow();
    // 0.1 kWh x 25p = 2.5p -> 3p (half up); float 0.1*25 would also hit 2.5, 0.3 x 25.15 = 7.545 -> 8p
    expect(energyCostPence(0.1, rateUnits('25'))).toBe(3);
    expect(energyCostPence(0.3, rateUnits('25.15'))).toBe(8);
    // 365 x 53.68 = 19593.2p -> 19593p; 365 x 34.03 = 12420.95 -> 12421p
    expect(standingCostPence(rateUnits('53.68'))).toBe(19593);
    expect(standingCostPence(rateUnits('34.03'))).toBe(12421);
    // big consumption stays exact (BigInt path): 9,999,999.99 kWh x 27.69p = 276,899,999.7231p
    expect(energyCostPence(9_999_999.99, rateUnits('27.69'))).toBe(276_900_000);
  });
  it('monthly is a twelfth rounded half up; a zero consumption costs the standing charge only', () => {
    const t = bill(0, undefined, { electricity: { unit_rate: '26.35', standing_charge: '53.68' } });
    expect(t.total_pence).toBe(19593);
    expect(t.monthly).toBe(16.33); // 19593 / 12 = 1632.75 -> 1633p
    expect(t.gas).toBeNull();
  });
  it('excluding VAT: incl / 1.05 to 4 dp, halves up', () => {
    expect(excludingVat('26.35', '0.05')).toBe('25.0952'); // 25.095238...
    expect(excludingVat('53.68', '0.05')).toBe('51.1238'); // 51.123809...
    expect(excludingVat('21.00', '0.05')).toBe('20.0000');
  });
});
