/**
 * `sync energy-price-cap` through the real framework from a local server serving Ofgem's levels page and a
 * GENERATED levels-model workbook (bench/lib/energy-workbook.mjs; format-true, not Ofgem data). Expected
 * rates are computed here with BigInt from the generator's integer-pence totals, not with the code under test.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM generator shared with the bench
import { generateLevelsWorkbook, REGION_LABELS } from '../../bench/lib/energy-workbook.mjs';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor, sqlOn } from '../property/mirror-helper.js';
import { useUpstreamServer } from '../sync/upstream-harness.js';
import { dataOf, errorOf, getRoute, postRoute } from '../support/route.js';
import { readWorkbook, parsePeriodLabel } from '../../src/domains/energy/sync/workbook.js';
import { priceCapData } from '../../src/domains/energy/shipped.js';

const up = useUpstreamServer('pd-energy-sync-');
const PAGE = '/energy-price-cap/energy-regulation/domestic-and-non-domestic/energy-pricing-rules/energy-price-cap/energy-price-cap-default-tariff-levels';
const FILE = '/sites/default/files/2025-08/energy-price-cap-levels-pre-levelised-rates-model.xlsx';

function servePage(): void {
  up.server.set(PAGE, `<html><body><a href="/sites/default/files/x.pdf">PDF</a> <a href="${FILE}">Energy price cap levels model (xlsx)</a></body></html>`, {
    contentType: 'text/html',
  });
}

/** round(n / d) halves up, for non-negative BigInts. */
const divHalfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

/** Expected incl.-VAT rates (hundredths of a penny) from pence levels: ex VAT exact as fractions, x 1.05, 2 dp halves up. */
function expectedRates(nilPence: number, benchPence: number, kwh: number): { unit: number; standing: number; unitEx: number; standingEx: number } {
  // standing ex VAT = nil / 365 p/day; incl. = nil x 105 / (365 x 100), to 0.01p: x 100 -> nil x 105 / 365
  const standing = divHalfUp(BigInt(nilPence) * 105n, 365n);
  const unit = divHalfUp(BigInt(benchPence - nilPence) * 105n, BigInt(kwh));
  // ex VAT to 4 dp: nil x 10000 / 365
  const standingEx = divHalfUp(BigInt(nilPence) * 10000n, 365n);
  const unitEx = divHalfUp(BigInt(benchPence - nilPence) * 10000n, BigInt(kwh));
  return { unit: Number(unit) / 100, standing: Number(standing) / 100, unitEx: Number(unitEx) / 10000, standingEx: Number(standingEx) / 10000 };
}

describe('levels-model reader', () => {
  it('period labels in the forms of the model', () => {
    expect(parsePeriodLabel('Oct-Dec 2025')).toMatchObject({ period_id: '2025-10', start_date: '2025-10-01', end_date: '2025-12-31' });
    expect(parsePeriodLabel('Oct 2019 - Mar 2020')).toMatchObject({ period_id: '2019-10', end_date: '2020-03-31' });
    expect(parsePeriodLabel('Jan-Mar 2024')!.end_date).toBe('2024-03-31');
    expect(parsePeriodLabel('Total')).toBeNull();
    expect(parsePeriodLabel('Dec-Jan 2025')).toBeNull();
  });
  it('finds the tables by label in xlsx and ods alike, wherever the blocks sit', () => {
    const regions = [...priceCapData().regions, priceCapData().gb_average];
    for (const bookType of ['xlsx', 'ods'] as const) {
      const g = generateLevelsWorkbook({ bookType, seed: 7 });
      const wb = readWorkbook(g.buffer, regions);
      expect(wb.sheets).toHaveLength(18);
      expect(wb.periods.map((p) => p.period_id)).toEqual(g.periods.map((p: any) => p.id));
      // 6 periods x 14 regions x 9 combinations x (nil + benchmark)
      expect(wb.levels).toHaveLength(6 * 14 * 9 * 2);
      const l = wb.levels.find((x) => x.period_id === '2025-10' && x.region_code === 'london' && x.fuel === 'gas' && x.payment_method === 'prepayment' && x.kwh === 0)!;
      expect(Math.round(Number(l.pounds) * 100)).toBe(g.truth['2025-10|london|gas|single_rate|prepayment'].nilPence);
      expect(l.vat_basis).toBe('excluding');
    }
  });
  it('refuses a sheet that does not state its VAT basis', () => {
    const g = generateLevelsWorkbook({ vatLabel: false });
    expect(() => readWorkbook(g.buffer, priceCapData().regions)).toThrow(/include or exclude VAT/);
  });
});

describe('sync energy-price-cap', () => {
  it('loads every region, fuel, payment method and meter; rates and the calculator answer from it', async () => {
    const g = generateLevelsWorkbook();
    servePage();
    up.server.set(FILE, g.buffer, { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fault: { closeAfterBody: true } });
    const o = up.syncOptions('2026-02-01T08:00:00Z');
    const r = await syncDataset('energy-price-cap', o);
    expect(r.status).toBe('synced');
    const db = join(o.mirrorDir, 'energy_price_cap.duckdb');
    const counts = await sqlOn(db, 'SELECT count(*)::INTEGER AS n, count(DISTINCT region_code)::INTEGER AS regions FROM rates');
    expect(counts[0]).toEqual({ n: 6 * 14 * 9, regions: 14 });

    // every rate against the generator's totals
    const rows = await sqlOn(
      db,
      'SELECT period_id, region_code, fuel, meter, payment_method, unit_rate::DOUBLE AS u, standing_charge::DOUBLE AS s, unit_rate_ex_vat::DOUBLE AS ue, standing_charge_ex_vat::DOUBLE AS se FROM rates',
    );
    for (const x of rows) {
      const t = g.truth[`${x.period_id}|${x.region_code}|${x.fuel}|${x.meter}|${x.payment_method}`];
      const e = expectedRates(t.nilPence, t.benchPence, t.kwh);
      expect([x.u, x.s, x.ue, x.se]).toEqual([e.unit, e.standing, e.unitEx, e.standingEx]);
    }

    const ctx = ctxFor(o.mirrorDir, '2026-02-01T12:00:00Z');
    const london = await getRoute('/v1/energy/price-cap/rates', { region: 'london', payment_method: 'prepayment' }, ctx);
    const env = london.envelope as any;
    expect(env.data).toHaveLength(3); // electricity single, electricity multi-register, gas
    expect(env.data.every((x: any) => x.period_id === '2026-01' && x.region.name === 'London')).toBe(true);
    expect(env.meta.note).toMatch(/levels model/);
    expect(env.meta.as_of).toBe('2026-01-01');
    const all = await dataOf(getRoute('/v1/energy/price-cap/rates', { period: '2025-10' }, ctx));
    // 14 regions x 9 from the model + the two shipped GB-average rows
    expect(all).toHaveLength(14 * 9 + 2);

    // the calculator prices a prepayment home in London from the synced rates
    const t = g.truth['2025-10|london|electricity|single_rate|prepayment'];
    const e = expectedRates(t.nilPence, t.benchPence, t.kwh);
    const c = await dataOf(postRoute('/v1/energy/price-cap/calculate', { electricity_kwh: 2000, region: 'london', payment_method: 'prepayment', period: '2025-10' }, ctx));
    const expectPence = Math.round(2000 * Math.round(e.unit * 100)) / 100 + Number(divHalfUp(365n * BigInt(Math.round(e.standing * 100)), 100n));
    expect(Math.round(c.total_annual * 100)).toBe(expectPence);
    // a period only in the model is listed, without shipped figures
    const periods = await dataOf(getRoute('/v1/energy/price-cap/periods', { per_page: '100' }, ctx));
    expect(periods.find((p: any) => p.period_id === '2025-10').regional_rates).toBe(true);

    // an incomplete workbook (a region missing from one sheet) is refused and the synced data stays
    up.server.set(FILE, generateLevelsWorkbook({ omitRegion: 'south_wales', seed: 3 }).buffer);
    await expect(syncDataset('energy-price-cap', { ...o, force: true })).rejects.toThrow(/south_wales/);
    const still = await sqlOn(db, 'SELECT count(*)::INTEGER AS n FROM rates');
    expect(still[0]!.n).toBe(6 * 14 * 9);
    expect(errorOf(await getRoute('/v1/energy/price-cap/periods/2019-02', {}, ctx)).status).toBe(404);
  });

  it('region labels the generator writes are those the shipped data recognises', () => {
    const known = new Set(priceCapData().regions.flatMap((r) => r.labels));
    for (const [, label] of REGION_LABELS as Array<[string, string]>) expect(known.has(label)).toBe(true);
  });
});
