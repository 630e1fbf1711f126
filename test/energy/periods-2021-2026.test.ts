/**
 * Issue 35: every cap period January 2019 to December 2026 from shipped data, VAT per fuel and period (no VAT
 * on domestic electricity from 1 October 2026), each period's own typical consumption, and the Energy Price
 * Guarantee beside the cap (October 2022 to June 2023). Expected figures are hand-computed from the
 * published figures (data/energy/price-cap.yaml, read here as text), not by the code under test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dataOf, errorOf, getRoute, postRoute } from '../support/route.js';

const CALC = '/v1/energy/price-cap/calculate';
const yamlDoc = parse(readFileSync(join(__dirname, '..', '..', 'data', 'energy', 'price-cap.yaml'), 'utf8'), { merge: true });

describe('every period January 2019 to December 2026, nothing synced', () => {
  it('a date in every month answers with the one period that covers it', async () => {
    const periods = await dataOf(getRoute('/v1/energy/price-cap/periods', { per_page: '100' }));
    for (let y = 2019; y <= 2026; y++)
      for (let m = 1; m <= 12; m++) {
        const date = `${y}-${String(m).padStart(2, '0')}-15`;
        const covering = periods.filter((p: any) => p.start_date <= date && date <= p.end_date);
        expect(covering, date).toHaveLength(1);
        // the rates route resolves the same date (200, the GB average where published)
        const r = await getRoute('/v1/energy/price-cap/rates', { date });
        expect(r.status, date).toBe(200);
        for (const row of (r.envelope as any).data) expect(row.period_id).toBe(covering[0].period_id);
        expect(covering[0].sources.typical_annual_bill.direct_debit, date).toMatch(/^https:\/\//);
      }
  });

  it('each period carries its own typical consumption', async () => {
    const tdcv = async (id: string) => (await dataOf(getRoute(`/v1/energy/price-cap/periods/${id}`))).typical_consumption;
    expect(await tdcv('2023-10')).toEqual({ electricity_kwh: 2900, gas_kwh: 12000 });
    expect(await tdcv('2024-01')).toEqual({ electricity_kwh: 2700, gas_kwh: 11500 });
    expect(await tdcv('2026-04')).toEqual({ electricity_kwh: 2700, gas_kwh: 11500 });
    expect(await tdcv('2026-07')).toEqual({ electricity_kwh: 2500, gas_kwh: 9500, electricity_multi_rate_kwh: 3400 });
    expect(await tdcv('2026-10')).toEqual({ electricity_kwh: 2500, gas_kwh: 9500, electricity_multi_rate_kwh: 3400 });
  });

  it('a figure no page showed is null, with the period note saying so', async () => {
    const r = await getRoute('/v1/energy/price-cap/periods/2021-10');
    const d = (r.envelope as any).data;
    expect(d.gb_average_rates.gas).toMatchObject({ unit_rate: 4.07, standing_charge: null });
    expect(d.typical_annual_bill).toEqual({ direct_debit: 1277, standard_credit: null, prepayment: 1309 });
    expect(d.note).toMatch(/gas standing charge was not shown/);
    expect((r.envelope as any).meta.note).toMatch(/null where no page we cite showed one/);
  });
});

describe('the calculator at each 2026 period’s own typical consumption reproduces the published bill', () => {
  // hand-computed, each part to the penny half up:
  // 2026-04: 2700 x 24.67 = 66609p; 365 x 57.21 = 20881.65 -> 20882p; 11500 x 5.74 = 66010p; 365 x 29.09 = 10617.85 -> 10618p
  // 2026-07: 2500 x 26.11 = 65275p; 365 x 57.19 = 20874.35 -> 20874p; 9500 x 7.33 = 69635p; 365 x 29.04 = 10599.6 -> 10600p
  // 2026-10: 2500 x 26.32 = 65800p; 365 x 54.83 = 20012.95 -> 20013p; 9500 x 7.97 = 75715p; 365 x 29.68 = 10833.2 -> 10833p
  it.each([
    ['2026-04', 2700, 11500, 1641.19, 1641],
    ['2026-07', 2500, 9500, 1663.84, 1663],
    ['2026-10', 2500, 9500, 1723.61, 1723],
  ])('%s at %i/%i kWh: £%f (published £%i)', async (period, e, g, total, published) => {
    const d = await dataOf(postRoute(CALC, { electricity_kwh: e, gas_kwh: g, period }));
    expect(d.total_annual).toBe(total);
    expect(Math.abs(d.total_annual - published)).toBeLessThan(1);
    const p = await dataOf(getRoute(`/v1/energy/price-cap/periods/${period}`));
    expect(p.typical_consumption).toMatchObject({ electricity_kwh: e, gas_kwh: g });
    expect(p.typical_annual_bill.direct_debit).toBe(published);
  });
});

describe('VAT per fuel and period', () => {
  it('October 2026 electricity carries no VAT; gas 5%', async () => {
    const r = await getRoute('/v1/energy/price-cap/rates', { period: '2026-10' });
    const rows = (r.envelope as any).data;
    const el = rows.find((x: any) => x.fuel === 'electricity');
    const gas = rows.find((x: any) => x.fuel === 'gas');
    expect(el).toMatchObject({ unit_rate: 26.32, standing_charge: 54.83, vat_rate: 0, excluding_vat: { unit_rate: 26.32, standing_charge: 54.83 } });
    // 7.97 / 1.05 = 7.590476... ; 29.68 / 1.05 = 28.266666...
    expect(gas).toMatchObject({ vat_rate: 0.05, excluding_vat: { unit_rate: 7.5905, standing_charge: 28.2667 } });
    // September 2026 electricity: 5% (26.11 / 1.05 = 24.866666...)
    const sep = (await dataOf(getRoute('/v1/energy/price-cap/rates', { period: '2026-07', fuel: 'electricity' })))[0];
    expect(sep).toMatchObject({ vat_rate: 0.05, excluding_vat: { unit_rate: 24.8667 } });
    const c = await getRoute('/v1/energy/price-cap/periods/2026-10');
    expect((c.envelope as any).data.vat_rate).toEqual({ electricity: 0, gas: 0.05 });
    const bill = await postRoute(CALC, { electricity_kwh: 2500, period: '2026-10' });
    expect((bill.envelope as any).meta.note).toMatch(/No VAT on domestic electricity from 2026-10-01 to 2027-03-31/);
  });
  it('the VAT data covers both fuels on every period day, and no period straddles a change', () => {
    for (const p of yamlDoc.periods)
      for (const fuel of ['electricity', 'gas']) {
        const at = (d: string) => yamlDoc.vat.filter((v: any) => v.fuel === fuel && v.from <= d && (v.to === null || d <= v.to));
        expect(at(p.start_date), `${p.period_id} ${fuel}`).toHaveLength(1);
        expect(at(p.end_date)[0], `${p.period_id} ${fuel}`).toBe(at(p.start_date)[0]);
      }
  });
});

describe('the Energy Price Guarantee beside the cap (October 2022 to June 2023)', () => {
  it('the period shows the cap level and the guarantee households paid, and which applied', async () => {
    const cases: Array<[string, number]> = [
      ['2022-10', 3549],
      ['2023-01', 4279],
      ['2023-04', 3280],
    ];
    for (const [id, cap] of cases) {
      const d = await dataOf(getRoute(`/v1/energy/price-cap/periods/${id}`));
      expect(d.typical_annual_bill.direct_debit).toBe(cap);
      expect(d.applied).toBe('energy_price_guarantee');
      expect(d.energy_price_guarantee.typical_annual_bill).toBe(2500);
    }
    const oct = await dataOf(getRoute('/v1/energy/price-cap/periods/2022-10'));
    expect(oct.energy_price_guarantee.gb_average_rates.electricity).toMatchObject({ unit_rate: 34, standing_charge: 46.4 });
    expect(oct.gb_average_rates.electricity).toMatchObject({ unit_rate: 51.89, standing_charge: 46.4 });
    const jul = await dataOf(getRoute('/v1/energy/price-cap/periods/2023-07'));
    expect([jul.applied, jul.energy_price_guarantee]).toEqual(['price_cap', null]);
  });
  it('rates for the period list the cap and the guarantee, each marked', async () => {
    const r = await getRoute('/v1/energy/price-cap/rates', { period: '2022-10' });
    const rows = (r.envelope as any).data.map((x: any) => [x.fuel, x.tariff, x.unit_rate]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['electricity', 'price_cap', 51.89],
        ['gas', 'price_cap', 14.76],
        ['electricity', 'energy_price_guarantee', 34],
        ['gas', 'energy_price_guarantee', 10.33],
      ]),
    );
    expect((r.envelope as any).meta.note).toMatch(/households paid the energy_price_guarantee rows/);
  });
  it('a bill for a date in those months uses what households paid and says so', async () => {
    // 2900 x 34 = 98600p; 365 x 46.4 = 16936p; 12000 x 10.33 = 123960p; 365 x 28.5 = 10402.5 -> 10403p: 249899p
    const r = await postRoute(CALC, { electricity_kwh: 2900, gas_kwh: 12000, date: '2022-11-15' });
    expect((r.envelope as any).data.total_annual).toBe(2498.99);
    expect((r.envelope as any).data.period_id).toBe('2022-10');
    expect((r.envelope as any).meta.note).toMatch(/Energy Price Guarantee: priced at the guarantee's rates households paid \(typical GBP 2500\), not at the cap's level \(typical GBP 3549/);
    // regional guarantee rates are not in the open data we hold
    expect(errorOf(await postRoute(CALC, { gas_kwh: 1, date: '2022-11-15', region: 'london' }))).toMatchObject({ status: 404, code: 'not_found' });
  });
});
