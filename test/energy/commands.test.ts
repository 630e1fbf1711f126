/** The `energy` commands in process: the bill table, --batch, periods --chart, and exit codes of bad input. */
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';

describe('energy commands', () => {
  it('bill: a breakdown table on a terminal, like tax take-home', async () => {
    const r = await runCli(['energy', 'bill', '--electricity', '2,700', '--gas', '11500', '--period', '2025-10'], { tty: true, columns: 100 });
    expect(r.code).toBe(0);
    const out = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    // hand-computed: 2700 x 26.35 = £711.45; 365 x 53.68 = 19593.2p -> £195.93; 11500 x 6.29 = £723.35; 365 x 34.03 -> £124.21
    expect(out).toContain('Energy bill under the cap 2025-10');
    expect(out).toMatch(/energy\s+£711\.45\s+2,700 kWh x 26\.35p/);
    expect(out).toMatch(/standing charge\s+£124\.21\s+365 days x 34\.03p/);
    expect(out).toMatch(/Total a year\s+£1,754\.94/);
  });
  it('bill --batch: one answer per line, a bad line answered in place', async () => {
    const stdin = ['{"electricity_kwh":2700,"period":"2025-07"}', '{"gas_kwh":-3}', '{"gas_kwh":11500,"date":"2026-02-14"}'].join('\n');
    const r = await runCli(['energy', 'bill', '--batch'], { stdin });
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    // 2700 x 25.73 = 69471p + 365 x 51.37 = 18750.05 -> 18750p
    expect(lines[0].data.total_annual).toBe(882.21);
    expect(lines[1].error.code).toBe('invalid_parameter');
    // 11500 x 5.93 = 68195p + 365 x 35.09 = 12807.85 -> 12808p
    expect(lines[2].data).toMatchObject({ period_id: '2026-01', total_annual: 810.03 });
    expect(r.code).not.toBe(0);
  });
  it('periods --chart draws the Direct Debit bill over the periods', async () => {
    const r = await runCli(['energy', 'periods', '--chart'], { tty: true, columns: 80 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Typical dual-fuel bill under the cap (Direct Debit, £/year), 2019-01 to 2026-10');
    expect(r.stdout).toContain('£4,279'); // the chart's top: the highest shipped figure (2023-01, the cap's level; households paid the guarantee)
  });
  it('periods current and rates as JSON; neither fuel is a usage error before any data', async () => {
    expect(json(await runCli(['energy', 'periods', '2024-07', '--format', 'json'])).data.typical_annual_bill.direct_debit).toBe(1568);
    // on 2026-11-29 October 2026 is in force and January 2027 (due within the announcement lead) is not shipped
    const cur = json(await runCli(['energy', 'current', '--format', 'json'], { now: new Date('2026-11-29T12:00:00Z') }));
    expect(cur.data.period_id).toBe('2026-10');
    expect(cur.meta.note).toMatch(/2027-01-01 is not loaded/);
    expect(json(await runCli(['energy', 'periods', 'current', '--format', 'json'])).data.period_id).toBe('2026-10');
    const rates = json(await runCli(['energy', 'rates', '--date', '2025-05-01', '--fuel', 'gas', '--format', 'json']));
    expect(rates.data).toMatchObject([{ period_id: '2025-04', unit_rate: 6.99, standing_charge: 32.67 }]);
    const none = await runCli(['energy', 'bill', '--region', 'london']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/One of --electricity, --gas is required/);
    const bad = await runCli(['energy', 'bill', '--gas', 'lots']);
    expect(bad.code).toBe(2);
  });
});
