/**
 * Reviewer defects of the energy domain, each with its expected value worked out by hand: a single cap
 * period with null fields says why in meta.note; the bill table shows the consumption as given (every
 * digit, thousands grouped); `--period` takes `current` in any case.
 */
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf, getRoute, postRoute } from '../support/route.js';
import { json, runCli } from '../support/cli.js';

const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('a single cap period with null fields has a meta.note', () => {
  it('2019-10 (only the Direct Debit bill of the chart): the note names the nulls, as the list does', async () => {
    const one = await getRoute('/v1/energy/price-cap/periods/2019-10');
    const env = one.envelope as any;
    expect(one.status).toBe(200);
    expect(env.data.typical_consumption).toEqual({ electricity_kwh: null, gas_kwh: null });
    expect(env.data.typical_annual_bill.standard_credit).toBeNull();
    expect(env.meta.note).toMatch(/null where no page we cite showed one/);
    // the same wording as the list route's note
    const list = (await getRoute('/v1/energy/price-cap/periods', { per_page: '100' })).envelope as any;
    expect(list.meta.note).toContain(env.meta.note);
  });
  it('a period with every figure published (2025-10) carries no such note', async () => {
    const env = (await getRoute('/v1/energy/price-cap/periods/2025-10')).envelope as any;
    expect(env.data.typical_annual_bill).toEqual({ direct_debit: 1755, standard_credit: 1890, prepayment: 1707 });
    expect(env.meta.note).toBeUndefined();
  });
  it('the CLI answer of `energy periods 2019-10` has the note', async () => {
    const r = json(await runCli(['energy', 'periods', '2019-10', '--format', 'json']));
    expect(r.data.typical_annual_bill.prepayment).toBeNull();
    expect(r.meta.note).toMatch(/null where no page we cite showed one/);
  });
});

describe('the bill table shows the consumption as given', () => {
  const bill = async (e: string) =>
    strip((await runCli(['energy', 'bill', '--electricity', e, '--period', '2026-01', '--format', 'table'], { tty: true, columns: 120 })).stdout);
  it('9999999.99999999 kWh is not rounded to 10,000,000', async () => {
    expect(await bill('9999999.99999999')).toContain('9,999,999.99999999 kWh x ');
  });
  it('0.0049 kWh stays 0.0049 (not 0.005); 1234567.5 groups its thousands', async () => {
    expect(await bill('0.0049')).toContain(' 0.0049 kWh x ');
    expect(await bill('1234567.5')).toContain(' 1,234,567.5 kWh x ');
  });
});

describe('--period current in any case', () => {
  it('CURRENT and Current answer as current does (rates and the calculator)', async () => {
    const lower = await dataOf(getRoute('/v1/energy/price-cap/rates', { period: 'current' }));
    const upper = await dataOf(getRoute('/v1/energy/price-cap/rates', { period: 'CURRENT' }));
    expect(upper).toEqual(lower);
    const a = await dataOf(postRoute('/v1/energy/price-cap/calculate', { gas_kwh: 11500, period: 'Current' }));
    const b = await dataOf(postRoute('/v1/energy/price-cap/calculate', { gas_kwh: 11500, period: 'current' }));
    expect(a).toEqual(b);
    const cli = await runCli(['energy', 'bill', '--gas', '11500', '--period', 'CURRENT', '--format', 'json']);
    expect(cli.code).toBe(0);
    expect(json(cli).data.period_id).toBe(b.period_id);
  });
  it('anything else is still refused before data access', async () => {
    const e = errorOf(await getRoute('/v1/energy/price-cap/rates', { period: 'currently' }));
    expect(e).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });
});
