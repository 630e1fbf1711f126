/**
 * tax's own output cases (moved from test/cli/output.test.ts): its renderers, --fields on its calculators
 * and --sweep, its terminal tables at 80 columns.
 */
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { rendererFor, type RenderContext } from '../../src/output/renderers.js';
import { renderersFor } from '../../src/registry.js';

const M = { api_version: 'v1' as const, licence: 'OGL' };
const visibleWidth = (s: string) => Math.max(...s.split('\n').map((l) => [...l.replace(/\u001b\[[0-9;]*m/g, '')].length));
const rc = (over: Partial<RenderContext> = {}): RenderContext => ({ format: 'table', color: false, columns: 80, tty: true, wide: false, options: {}, renderers: renderersFor, ...over });

describe('tax renderers', () => {
  it('take-home has its own table renderer, by route id', async () => {
    expect((await rendererFor({ envelope: { data: {}, meta: M }, id: 'tax.take-home.calculate' }, rc())).name).toBe('take-home');
  });
});

describe('--fields on tax answers', () => {
  it('a top-level field of a calculator keeps the answer, not empty breakdown rows', async () => {
    const r = await runCli(['tax', 'income-tax', '60000', '--fields', 'total_income_tax']);
    expect(r.code).toBe(0);
    // 2026-27 rUK: (50270 - 12570) * 20% + (60000 - 50270) * 40% = 7540 + 3892
    expect(json(r).data).toEqual({ total_income_tax: 11432 });
    const csv = await runCli(['tax', 'income-tax', '60000', '--fields', 'total_income_tax,effective_rate', '--format', 'csv']);
    expect(csv.stdout).toBe('total_income_tax,effective_rate\r\n11432,0.1905\r\n');
  });

  it('dotted paths into nested objects', async () => {
    const r = await runCli(['tax', 'employer-cost', '35000', '--fields', 'per_employee.total_cost,total_annual_cost']);
    // 35000 + employer NI 15% over 5000 (4500) + 3% pension (1050)
    expect(json(r).data).toEqual({ per_employee: { total_cost: 40550 }, total_annual_cost: 40550 });
  });

  it('an unknown field is a usage error naming the fields there are', async () => {
    const r = await runCli(['tax', 'income-tax', '60000', '--fields', 'nosuch']);
    expect(r.code).toBe(2);
    const e = json(r).error;
    expect(e.code).toBe('usage_error');
    expect(e.message).toMatch(/Unknown field 'nosuch'/);
    expect(e.message).toContain('total_income_tax');
  });

  it('applies to --sweep', async () => {
    const sweep = await runCli(['tax', 'take-home', '--sweep', '20000:30000:10000', '--fields', 'gross_income,net_annual']);
    // 20000: tax 1486, NI 594.40; 30000: tax 3486, NI 1394.40
    expect(json(sweep).data).toEqual([{ gross_income: 20000, net_annual: 17919.6 }, { gross_income: 30000, net_annual: 25119.6 }]);
  });
});

describe('tax: terminal tables at 80 columns', () => {
  const tty = { tty: true, columns: 80, env: { NO_COLOR: '1' } };

  it('income tax, student loan and employer cost show their headline answer', async () => {
    const it = await runCli(['tax', 'income-tax', '60000', '--region', 'scotland'], tty);
    expect(it.stdout).toMatch(/total_income_tax\s+│\s+13182\.05/);
    const sl = await runCli(['tax', 'student-loan', '40000', '--plan', 'plan_2,postgraduate'], tty);
    // plan 2: 9% of (40000 - 29385) = 955.35, rounded down to 955 (CSLM13013); postgraduate: 6% of 19000 = 1140
    expect(sl.stdout).toMatch(/total_repayment\s+│\s+2095\s/);
    const ec = await runCli(['tax', 'employer-cost', '35000'], tty);
    expect(ec.stdout).toMatch(/total_annual_cost\s+│\s+40550/);
    for (const r of [it, sl, ec]) expect(visibleWidth(r.stdout)).toBeLessThanOrEqual(80);
  });

  it('wide objects fit: ni, compare, vat-return, sweep', async () => {
    const ni = await runCli(['tax', 'ni', '50000'], tty);
    expect(ni.stdout).not.toContain('[{');
    expect(ni.stdout).toContain('employee.breakdown');
    const cmp = await runCli(['tax', 'compare', '45000', '52000', '--b-region', 'scotland'], tty);
    expect(cmp.stdout).toMatch(/Net annual\s+£35,919\.60\s+£39,127\.35\s+\+£3,207\.75/);
    const sweep = await runCli(['tax', 'take-home', '--sweep', '20000:150000:10000'], tty);
    for (const r of [ni, cmp, sweep]) expect(visibleWidth(r.stdout)).toBeLessThanOrEqual(80);
  });
});
