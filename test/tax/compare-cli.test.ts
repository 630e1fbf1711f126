/**
 * `tax compare`'s per-scenario pension type takes its choices as every other choice does (any case; a value
 * outside them is the route's 400 bad_request naming the field), not commander's case-sensitive list.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

const compare = (...extra: string[]) => runCli(['tax', 'compare', '60000', '60000', '--year', '2026-27', '--format', 'json', ...extra], { env: isolatedEnv() });

describe('tax compare --a-pension-type / --b-pension-type', () => {
  it('take any case: NET_PAY is net_pay', async () => {
    const lower = await compare('--a-pension', '10', '--a-pension-type', 'net_pay');
    const upper = await compare('--a-pension', '10', '--a-pension-type', 'NET_PAY');
    expect([lower.code, upper.code]).toEqual([0, 0]);
    expect(upper.stdout).toBe(lower.stdout);
    // net pay: 10% of £60,000 comes off before tax and not before NI (HMRC's net pay arrangement)
    const a = JSON.parse(upper.stdout).data.scenario_a;
    expect(a.deductions.income_tax.taxable_income).toBe(60000 - 6000 - 12570);
  });

  it('a value outside the choices is the route\'s bad_request (exit 2), naming the scenario field', async () => {
    const r = await compare('--b-pension', '5', '--b-pension-type', 'foo');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'bad_request', message: expect.stringContaining("'scenario_b.pension_type': 'foo'") });
  });
});
