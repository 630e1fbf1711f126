/**
 * The /v1/energy routes in process with nothing synced: periods, current, rates (GB average + note),
 * regions, calculate; and bad input rejected with 400/404 before any data access. The 2019-2021 shipped
 * levels are checked against the real Ofgem chart CSV (test/fixtures/energy), read here independently.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf, getRoute, postRoute } from '../support/route.js';
import { handlerCtx } from '../support/handler-context.js';

const CALC = '/v1/energy/price-cap/calculate';

/** The chart's "Default tariff cap level" column: month (YYYY-MM) -> level, where filled. */
function chartLevels(): Map<string, string> {
  const text = readFileSync(join(__dirname, '..', 'fixtures', 'energy', 'retail-price-comparison.csv'), 'utf8');
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^"(\d{4}-\d{2})-28 00:00:00",.*,([\d.]*)$/.exec(line.trim());
    if (m && m[2]) out.set(m[1]!, m[2]);
  }
  return out;
}

describe('periods (shipped data, nothing synced)', () => {
  it('lists every shipped period newest first, each with sources', async () => {
    const r = await getRoute('/v1/energy/price-cap/periods', { per_page: '100' });
    const data = (r.envelope as any).data;
    expect(r.status).toBe(200);
    expect(data[0].period_id).toBe('2026-10');
    expect(data.at(-1).period_id).toBe('2019-01');
    // every cap period January 2019 to December 2026: 6 six-monthly to 2021-04, 2021-10, 2022-04, then quarterly 2022-10..2026-10 (17)
    expect((r.envelope as any).pagination.total).toBe(25);
    // contiguous: each period starts the day after the previous one ends
    const asc = [...data].reverse();
    for (let i = 1; i < asc.length; i++) {
      const next = new Date(Date.parse(`${asc[i - 1].end_date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(asc[i].start_date, asc[i].period_id).toBe(next);
    }
    expect(asc.at(-1).end_date).toBe('2026-12-31');
    const oct = data.find((p: any) => p.period_id === '2025-10');
    expect(oct).toMatchObject({
      start_date: '2025-10-01',
      end_date: '2025-12-31',
      typical_consumption: { electricity_kwh: 2700, gas_kwh: 11500 },
      typical_annual_bill: { direct_debit: 1755, standard_credit: 1890, prepayment: 1707 },
    });
    expect(oct.sources.typical_annual_bill.direct_debit).toMatch(/^https:\/\/www\.ofgem\.gov\.uk\//);
    expect((r.envelope as any).meta).toMatchObject({ source: 'Ofgem', licence: 'Open Government Licence v3.0' });
  });

  it('the 2019-2021 levels are those of the real Ofgem chart, each level change starting a period', async () => {
    const chart = chartLevels();
    const months = [...chart.keys()].sort();
    // periods = runs of equal levels in the chart (a new run starts a period)
    const runs: Array<{ month: string; level: string }> = [];
    for (const m of months) if (runs.length === 0 || runs.at(-1)!.level !== chart.get(m)) runs.push({ month: m, level: chart.get(m)! });
    expect(runs.map((x) => x.month)).toEqual(['2019-01', '2019-04', '2019-10', '2020-04', '2020-10', '2021-04']);
    for (const run of runs) {
      const p = await dataOf(getRoute(`/v1/energy/price-cap/periods/${run.month}`));
      expect(p.typical_annual_bill.direct_debit).toBe(Number(run.level));
      expect(p.typical_annual_bill.prepayment).toBeNull();
      // no page we cite states the 2019 values; 2,900/12,000 from April 2020 (Ofgem's TDCV page)
      expect(p.typical_consumption).toEqual(run.month < '2020' ? { electricity_kwh: null, gas_kwh: null } : { electricity_kwh: 2900, gas_kwh: 12000 });
    }
  });

  it('current is the period in force on the UK date; newest loaded with a note when none covers it', async () => {
    const inForce = await getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2025-11-30T23:30:00Z'));
    expect((inForce.envelope as any).data.period_id).toBe('2025-10');
    expect((inForce.envelope as any).meta.note).toBeUndefined();
    // 2025-12-31T23:30Z is still 31 December in the UK (GMT)
    const nye = await dataOf(getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2025-12-31T23:30:00Z')));
    expect(nye.period_id).toBe('2025-10');
    // BST: 2025-06-30T23:30Z is 1 July 00:30 in the UK, so the July period is in force
    expect((await dataOf(getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2025-06-30T23:30:00Z')))).period_id).toBe('2025-07');
    expect((await dataOf(getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2025-06-30T22:59:00Z')))).period_id).toBe('2025-04');
    // today (2026-11-29): October 2026 is in force; January 2027 is due within the announcement lead (35 days) and not shipped
    const today = await getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2026-11-29T12:00:00Z'));
    expect((today.envelope as any).data.period_id).toBe('2026-10');
    expect((today.envelope as any).meta.note).toMatch(/cap period from 2027-01-01 is not loaded.*'publicdata sync energy-price-cap'/);
    // 2026-11-21 is 41 days before 2027-01-01: no note about the next period
    const before = await getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2026-11-21T12:00:00Z'));
    expect((before.envelope as any).data.period_id).toBe('2026-10');
    expect((before.envelope as any).meta.note).not.toMatch(/2027-01-01/);
    const late = await getRoute('/v1/energy/price-cap/periods/current', {}, handlerCtx('2027-02-01T12:00:00Z'));
    expect((late.envelope as any).data.period_id).toBe('2026-10');
    expect((late.envelope as any).meta.note).toMatch(/No loaded cap period covers today \(2027-02-01\)/);
  });

  it('unknown or malformed period ids', async () => {
    expect(errorOf(await getRoute('/v1/energy/price-cap/periods/2027-01'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(errorOf(await getRoute('/v1/energy/price-cap/periods/2023-02'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(errorOf(await getRoute('/v1/energy/price-cap/periods/2025-13'))).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(errorOf(await getRoute('/v1/energy/price-cap/periods/latest'))).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });
});

describe('rates and regions before a sync', () => {
  it('GB-average Direct Debit single-rate figures as published, excluding VAT derived, with a note', async () => {
    const r = await getRoute('/v1/energy/price-cap/rates', { period: '2025-10' });
    const env = r.envelope as any;
    expect(env.data).toHaveLength(2);
    const el = env.data.find((x: any) => x.fuel === 'electricity');
    expect(el).toMatchObject({
      period_id: '2025-10',
      region: { code: 'gb_average', name: 'GB average' },
      payment_method: 'direct_debit',
      meter: 'single_rate',
      unit_rate: 26.35,
      standing_charge: 53.68,
    });
    // 26.35 / 1.05 = 25.095238... ; 53.68 / 1.05 = 51.123809...
    expect(el.excluding_vat).toEqual({ unit_rate: 25.0952, standing_charge: 51.1238 });
    expect(env.meta.note).toMatch(/not synced/);
  });
  it('a regional filter before a sync is an empty answer that says why; date picks the period', async () => {
    const r = await getRoute('/v1/energy/price-cap/rates', { date: '2024-08-15', region: 'london' });
    expect((r.envelope as any).data).toEqual([]);
    expect((r.envelope as any).meta.note).toMatch(/sync energy-price-cap/);
    const d = await dataOf(getRoute('/v1/energy/price-cap/rates', { date: '2024-08-15', fuel: 'gas' }));
    expect(d).toMatchObject([{ period_id: '2024-07', unit_rate: 5.48, standing_charge: 31.41 }]);
  });
  it('regions: the 14 GB regions and the GB average', async () => {
    const d = await dataOf(getRoute('/v1/energy/price-cap/regions'));
    expect(d).toHaveLength(15);
    expect(d.map((x: any) => x.code)).toContain('london');
    expect(d.at(-1)).toEqual({ code: 'gb_average', name: 'GB average' });
  });
});

describe('calculate', () => {
  it('the typical household in October 2025: every figure in pence, exact', async () => {
    const r = await postRoute(CALC, { electricity_kwh: 2700, gas_kwh: 11500, period: '2025-10' });
    const d = (r.envelope as any).data;
    // 2700 x 26.35 = 71145p; 365 x 53.68 = 19593.2 -> 19593p; 11500 x 6.29 = 72335p; 365 x 34.03 = 12420.95 -> 12421p
    expect(d.electricity).toEqual({ kwh: 2700, unit_rate: 26.35, standing_charge: 53.68, energy_cost: 711.45, standing_cost: 195.93, total: 907.38 });
    expect(d.gas).toEqual({ kwh: 11500, unit_rate: 6.29, standing_charge: 34.03, energy_cost: 723.35, standing_cost: 124.21, total: 847.56 });
    expect(d.total_annual).toBe(1754.94);
    expect(d.monthly).toBe(146.25); // 175494 / 12 = 14624.5 -> 14625p
    expect(d).toMatchObject({ period_id: '2025-10', region: { code: 'gb_average' }, payment_method: 'direct_debit', meter: 'single_rate' });
    expect(Object.keys((r.envelope as any).meta.rounding)).toEqual(['energy_cost', 'standing_cost', 'monthly']);
  });
  it('one fuel only; date selects the period', async () => {
    const d = await dataOf(postRoute(CALC, { electricity_kwh: 1000.5, date: '2025-08-01' }));
    // 1000.5 x 25.73 = 25742.865 -> 25743p; 365 x 51.37 = 18750.05 -> 18750p
    expect(d).toMatchObject({ period_id: '2025-07', gas: null, total_annual: 444.93 });
  });
  it('regional or prepayment prices before a sync: dataset_not_synced naming the sync', async () => {
    const e = errorOf(await postRoute(CALC, { electricity_kwh: 2700, region: 'london', period: '2025-10' }));
    expect(e).toMatchObject({ status: 503, code: 'dataset_not_synced' });
    expect(e.message).toMatch(/publicdata sync energy-price-cap/);
    expect(errorOf(await postRoute(CALC, { gas_kwh: 1, period: '2019-04' })).code).toBe('dataset_not_synced');
  });
  it.each([
    [{ electricity_kwh: -1 }, /at least 0/],
    [{ electricity_kwh: '2700' }, /must be a number/],
    [{}, /One of 'electricity_kwh', 'gas_kwh' is required/],
    [{ gas_kwh: 1, region: 'northern_ireland' }, /is not an electricity region.*Accepted/],
    [{ gas_kwh: 1, payment_method: 'cash' }, /Allowed/],
    [{ gas_kwh: 1, meter: 'economy10' }, /Allowed/],
    [{ gas_kwh: 1, period: '2025-1' }, /YYYY-MM/],
    [{ gas_kwh: 1, date: '2018-12-31' }, /before the first cap period/],
    [{ gas_kwh: 1, date: '2025-02-30' }, /Invalid date/],
    [{ gas_kwh: 1, date: '2025-01-01', period: '2025-01' }, /'date' and 'period' cannot/],
  ])('400 invalid_parameter for %j', async (body, msg) => {
    // an unreadable mirror dir: a bad request never gets as far as looking at it
    const e = errorOf(await postRoute(CALC, body, handlerCtx(undefined, { mirrorDir: '/dev/null/not-a-dir' })));
    expect(e).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(e.message).toMatch(msg);
  });
  it('a period after the data: 404; a figure no page showed: 404 naming it, never estimated', async () => {
    expect(errorOf(await postRoute(CALC, { gas_kwh: 1, date: '2027-01-01' }))).toMatchObject({ status: 404, code: 'not_found' });
    expect(errorOf(await postRoute(CALC, { gas_kwh: 1, period: '2027-01' }))).toMatchObject({ status: 404, code: 'not_found' });
    // January 2023 (Energy Price Guarantee): the standing charges were shown by no page we cite
    const e = errorOf(await postRoute(CALC, { gas_kwh: 1, date: '2023-01-01' }));
    expect(e).toMatchObject({ status: 404, code: 'not_found' });
    expect(e.message).toMatch(/gas standing charge for period 2023-01 under the Energy Price Guarantee/);
    // October 2021: the gas standing charge is null before a sync (the levels model states it)
    const g = errorOf(await postRoute(CALC, { gas_kwh: 1, period: '2021-10' }));
    expect(g).toMatchObject({ status: 503, code: 'dataset_not_synced' });
    expect(g.message).toMatch(/No gas standing charge for period 2021-10/);
    // ... but its electricity prices: 1,000 kWh x 20.80p = 20,800p + 365 x 24.88p = 9,081.2p -> 9,081p
    const el = await dataOf(postRoute(CALC, { electricity_kwh: 1000, period: '2021-10' }));
    expect(el.total_annual).toBe(298.81);
  });
});
