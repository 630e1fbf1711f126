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
import { ctxFor, sqlOn } from '../support/mirror-helper.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
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

// ---- issue 35: the 2026 levels model (v1.31 layout), GENERATED here with SheetJS (bench/lib/energy-workbook.mjs) ----

import { modelVersion, newestModel } from '../../src/domains/energy/sync/index.js';
// @ts-expect-error plain ESM generator shared with the bench
import { v131BenchmarkKwh } from '../../bench/lib/energy-workbook.mjs';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const yamlDoc = parse(readFileSync(join(__dirname, '..', '..', 'data', 'energy', 'price-cap.yaml'), 'utf8'), { merge: true });
/** VAT of a fuel on a date from the YAML text, in percent (5 or 0). */
const vatPct = (fuel: string, date: string): bigint => {
  const v = yamlDoc.vat.find((x: any) => x.fuel === fuel && x.from <= date && (x.to === null || date <= x.to));
  return BigInt(Math.round(Number(v.rate) * 100));
};
/** '26.11' -> 2611n hundredths of a penny. */
const h = (t: string): bigint => BigInt(t.replace('.', ''));

/** Shipped incl.-VAT figure -> ex VAT in 1/10,000 p, rounded half up: h x 100 x 100 / (100 + vat%). */
const exUnits = (incl: string, pct: bigint): bigint => divHalfUp(h(incl) * 10000n, 100n + pct);

const V131_PAGE_LINKS = [
  '/sites/default/files/2024-08/Default_tariff_cap_level_v1.23.xlsx',
  '/sites/default/files/2026-05/Energy-price-cap-levels-pre-levelised-rates-model-v1.30-July-September-2026.xlsx',
  '/sites/default/files/2026-08/Default-tariff-cap-level-v1.31.xlsx',
  '/sites/default/files/2025-08/energy-price-cap-levels-pre-levelised-rates-model.xlsx',
];

describe('discovery picks the newest model by version', () => {
  it('whatever the separators and wording', () => {
    expect(modelVersion('Default-tariff-cap-level-v1.31.xlsx')).toEqual([1, 31]);
    expect(modelVersion('Default_tariff_cap_level_v1.23.xlsx')).toEqual([1, 23]);
    expect(modelVersion('Energy-price-cap-levels-pre-levelised-rates-model-v1.30-July-September-2026.xlsx')).toEqual([1, 30]);
    expect(modelVersion('energy-price-cap-levels-pre-levelised-rates-model.xlsx')).toEqual([]);
    const links = new Map(V131_PAGE_LINKS.map((u) => [u.split('/').pop()!, `https://www.ofgem.gov.uk${u}`]));
    expect(newestModel(links)?.name).toBe('Default-tariff-cap-level-v1.31.xlsx');
    // v1.7 < v1.23 (numbers, not text)
    expect(newestModel(new Map([['Default_tariff_cap_level_v1.23.xlsx', 'a'], ['Default_tariff_cap_level_v1.7.xlsx', 'b']]))?.name).toBe(
      'Default_tariff_cap_level_v1.23.xlsx',
    );
  });
});

describe('sync energy-price-cap: a workbook built in the v1.31 layout', () => {
  // GB-average Direct Debit single-rate levels written so that the model's GB average equals the shipped figures
  const shippedIds = ['2025-10', '2026-01', '2026-04', '2026-07', '2026-10'];
  const gbAverage: Record<string, { unitEx: bigint; standingEx: bigint }> = {};
  for (const id of shippedIds) {
    const p = yamlDoc.periods.find((x: any) => x.period_id === id);
    for (const fuel of ['electricity', 'gas']) {
      const pct = vatPct(fuel, p.start_date);
      gbAverage[`${id}|${fuel}`] = { unitEx: exUnits(p.rates[fuel].unit_rate, pct), standingEx: exUnits(p.rates[fuel].standing_charge, pct) };
    }
  }

  it('_Benchmark sheets, per-period benchmark, GB average row, 0% electricity VAT: rates equal to the shipped ones', async () => {
    const g = generateLevelsWorkbook({ layout: 'v1.31', gbAverage, seed: 31 });
    up.server.set(PAGE, `<html><body>${V131_PAGE_LINKS.map((l) => `<a href="${l}">model</a>`).join(' ')}</body></html>`, { contentType: 'text/html' });
    // only the v1.31 file is served: picking another link fails the sync
    up.server.set('/sites/default/files/2026-08/Default-tariff-cap-level-v1.31.xlsx', g.buffer, {
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    const o = up.syncOptions('2026-11-29T08:00:00Z');
    const r = await syncDataset('energy-price-cap', o);
    expect(r.status).toBe('synced');
    expect(r.files[0]!.name).toBe('Default-tariff-cap-level-v1.31.xlsx');
    const db = join(o.mirrorDir, 'energy_price_cap.duckdb');

    // the model's GB average row gives the shipped figures exactly, electricity without VAT from October 2026
    const gb = await sqlOn(
      db,
      "SELECT period_id, fuel, CAST(unit_rate AS VARCHAR) AS u, CAST(standing_charge AS VARCHAR) AS s, benchmark_kwh AS k FROM rates WHERE region_code = 'gb_average' AND payment_method = 'direct_debit' AND meter = 'single_rate' ORDER BY period_id, fuel",
    );
    expect(gb).toHaveLength(10);
    for (const x of gb as any[]) {
      const p = yamlDoc.periods.find((y: any) => y.period_id === x.period_id);
      expect([x.u, x.s], `${x.period_id} ${x.fuel}`).toEqual([p.rates[x.fuel].unit_rate, p.rates[x.fuel].standing_charge]);
    }
    // per-period benchmark: 3,100 kWh in 2025-10, 2,700 in 2026-01, 2,500 from 2026-07 (electricity single-rate)
    expect(gb.filter((x: any) => x.fuel === 'electricity').map((x: any) => x.k)).toEqual([3100, 2700, 2700, 2500, 2500]);

    // every regional rate from the generator's pence, at that period's own benchmark kWh and its fuel's VAT
    const rows = await sqlOn(
      db,
      "SELECT r.period_id, r.region_code, r.fuel, r.meter, r.payment_method, r.unit_rate::DOUBLE AS u, r.standing_charge::DOUBLE AS s, CAST(p.start_date AS VARCHAR) AS d FROM rates r JOIN periods p USING (period_id) WHERE r.region_code <> 'gb_average'",
    );
    expect(rows).toHaveLength(5 * 14 * 9);
    for (const x of rows as any[]) {
      const t = g.truth[`${x.period_id}|${x.region_code}|${x.fuel}|${x.meter}|${x.payment_method}`];
      const pct = vatPct(x.fuel, x.d);
      const kind = x.fuel === 'gas' ? 'Gas' : x.meter === 'multi_register' ? 'ElecMulti' : 'ElecSingle';
      expect(t.kwh).toBe(v131BenchmarkKwh(kind, x.period_id));
      const unit = divHalfUp(BigInt(t.benchPence - t.nilPence) * (100n + pct), BigInt(t.kwh));
      const standing = divHalfUp(BigInt(t.nilPence) * (100n + pct), 365n);
      expect([x.u, x.s]).toEqual([Number(unit) / 100, Number(standing) / 100]);
    }

    // the answers say which GB average was used
    const ctx = ctxFor(o.mirrorDir, '2026-11-29T12:00:00Z');
    const rates = await getRoute('/v1/energy/price-cap/rates', { period: '2026-10', region: 'gb_average', payment_method: 'direct_debit', meter: 'single_rate' }, ctx);
    const env = rates.envelope as any;
    expect(env.data.map((x: any) => [x.fuel, x.origin, x.unit_rate, x.vat_rate])).toEqual([
      ['electricity', 'published', 26.32, 0],
      ['gas', 'published', 7.97, 0.05],
    ]);
    expect(env.meta.note).toMatch(/gb_average: the Direct Debit single-rate figures Ofgem published \(shipped, origin 'published'\) where both are shipped; otherwise the model's own 'GB average' row/);
    // a GB-average combination not shipped (prepayment) comes from the model's row
    const ppm = await dataOf(getRoute('/v1/energy/price-cap/rates', { period: '2026-10', region: 'gb_average', payment_method: 'prepayment', fuel: 'gas' }, ctx));
    expect(ppm).toMatchObject([{ origin: 'levels_model' }]);
    // London electricity in October 2026 carries no VAT: excluding VAT equals the price to 2 dp
    const lon = await dataOf(getRoute('/v1/energy/price-cap/rates', { period: '2026-10', region: 'london', fuel: 'electricity', meter: 'single_rate', payment_method: 'direct_debit' }, ctx));
    expect(lon[0].vat_rate).toBe(0);
    expect(lon[0].unit_rate).toBeCloseTo(lon[0].excluding_vat.unit_rate, 2);
  });

  it('--from accepts the v1.31 workbook; a _Benchmark sheet without a per-period benchmark is refused', async () => {
    const regions = [...priceCapData().regions, priceCapData().gb_average];
    const ok = readWorkbook(generateLevelsWorkbook({ layout: 'v1.31', gbAverage, seed: 5 }).buffer, regions);
    expect(ok.sheets).toContain('ElecSingle_Other_Benchmark');
    expect(ok.sheets).toContain('Gas_Other_Benchmark');
    const bad = generateLevelsWorkbook({ layout: 'v1.31', gbAverage, perPeriodRow: false }).buffer;
    expect(() => readWorkbook(bad, regions)).toThrow(/no 'Benchmark consumption' row/);
    // through the framework with --from
    const o = up.syncOptions('2026-11-29T08:00:00Z');
    const fs = await import('node:fs');
    fs.mkdirSync(o.cacheDir, { recursive: true });
    const file = join(o.cacheDir, '..', 'Default-tariff-cap-level-v1.31.xlsx');
    fs.writeFileSync(file, generateLevelsWorkbook({ layout: 'v1.31', gbAverage, seed: 6 }).buffer);
    const r = await syncDataset('energy-price-cap', { ...o, from: file });
    expect(r.status).toBe('synced');
    const n = await sqlOn(join(o.mirrorDir, 'energy_price_cap.duckdb'), 'SELECT count(*)::INTEGER AS n FROM rates');
    // 5 periods x (14 regions + GB average) x 9
    expect(n[0]!.n).toBe(5 * 15 * 9);
  });
});
