/** tax's own command tests (moved from test/cli/commands.test.ts): usage and validation errors, api --list's calculator line, batch. */
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';

describe('tax: errors and exit codes', () => {
  it('usage errors: one line in the error envelope, exit 2', async () => {
    const r = await runCli(['tax', 'take-home', '45000', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      '{"error":{"code":"usage_error","message":"unknown option \'--bogus\'","documentation_url":"https://docs.govdata.dev/errors/usage_error"}}\n',
    );
    const t = await runCli(['tax', 'nonsense'], { tty: true, env: { NO_COLOR: '1' } });
    expect(t.code).toBe(2);
    expect(t.stderr).toBe("error usage_error: unknown command 'nonsense'\n");
    expect(t.stdout).toBe('');
  });

  it('validation errors use the spec codes and exit 2 (400) or 1 (404/422)', async () => {
    const region = await runCli(['tax', 'income-tax', '30000', '--region', 'atlantis']) // ('wales' is england_wales_ni since issue 37's region vocabulary);
    expect([region.code, json(region).error.code]).toEqual([2, 'invalid_region']);
    const year = await runCli(['tax', 'bands', '1989-90']);
    expect([year.code, json(year).error.code]).toEqual([1, 'invalid_tax_year']);
    const bad = await runCli(['api', 'POST', '/v1/tax/income/calculate', '--data', '{nope']);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'usage_error']);
  });

});

describe('tax: api --list', () => {
  it('lists the take-home calculator with its cost', async () => {
    const r = await runCli(['api', '--list'], { tty: true, columns: 1000 }); // wide enough for one line a route
    expect(r.stdout.trim().split('\n').find((l) => l.startsWith('POST /v1/tax/take-home/calculate'))).toMatch(/10 credits\s+local\s+Take-home/);
  });
});

describe('batch', () => {
  it('one envelope per line in order; bad lines get their error and the batch goes on', async () => {
    const input = ['{"gross_income":30000}', 'not json', '{"gross_income":"x"}', '', '{"gross_income":50000,"region":"atlantis"}', '{"gross_income":20000}'].join('\n');
    const r = await runCli(['tax', 'take-home', '--batch'], { stdin: input });
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(5);
    expect(out.map((e) => e.data?.gross_income ?? e.error.code)).toEqual([30000, 'bad_request', 'bad_request', 'invalid_region', 20000]);
    expect(out[1].error.message).toBe('Line 2: not valid JSON.');
    expect(r.code).toBe(2);
  });

  it('flags give defaults that each line may override; exit 0 when every line succeeds', async () => {
    const r = await runCli(['tax', 'take-home', '--batch', '--region', 'scotland'], { stdin: '{"gross_income":40000}\n{"gross_income":40000,"region":"england_wales_ni"}\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).data.region)).toEqual(['scotland', 'england_wales_ni']);
  });
});

