/**
 * Output through the renderer registry: --fields everywhere, errors that reach a person, terminal tables
 * that read at 80 columns (issue 9 renderers; issue 10 items 3 and 8).
 */
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { rendererFor, registerRenderers, type RenderContext } from '../../src/output/renderers.js';
import { chooseColumns } from '../../src/output/view.js';
import { renderersFor } from '../../src/registry.js';

const M = { api_version: 'v1' as const, licence: 'OGL' };
const visibleWidth = (s: string) => Math.max(...s.split('\n').map((l) => [...l.replace(/\u001b\[[0-9;]*m/g, '')].length));
const rc = (over: Partial<RenderContext> = {}): RenderContext => ({ format: 'table', color: false, columns: 80, tty: true, wide: false, options: {}, renderers: renderersFor, ...over });

describe('renderer registry', () => {
  it('per-answer renderers take the table format by id; the built-ins answer every format', async () => {
    const out = { envelope: { data: { x: 1 }, meta: M }, id: 'test.route' };
    expect((await rendererFor(out, rc())).name).toBe('table');
    registerRenderers({ 'test.route': { name: 'special', canRender: (_o, c) => !c.wide, render: () => 'special\n' } });
    expect((await rendererFor(out, rc())).name).toBe('special');
    expect((await rendererFor(out, rc({ wide: true }))).name).toBe('table');
    for (const f of ['json', 'ndjson', 'csv'] as const) expect((await rendererFor(out, rc({ format: f }))).name).toBe(f);
    // The domains' renderers are registered by route id.
    expect((await rendererFor({ envelope: { data: {}, meta: M }, id: 'tax.take-home.calculate' }, rc())).name).toBe('take-home');
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'property.hpi' }, rc({ options: { chart: true } }))).name).toBe('hpi-chart');
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'property.hpi' }, rc())).name).toBe('table');
  });
});

describe('--fields', () => {
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
    const t = await runCli(['calendar', 'regions', '--fields', 'slug,nope'], { tty: true });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/Unknown field 'nope'.*slug, name/);
  });

  it('applies to --sweep, api --list, mirror status and sql', async () => {
    const sweep = await runCli(['tax', 'take-home', '--sweep', '20000:30000:10000', '--fields', 'gross_income,net_annual']);
    // 20000: tax 1486, NI 594.40; 30000: tax 3486, NI 1394.40
    expect(json(sweep).data).toEqual([{ gross_income: 20000, net_annual: 17919.6 }, { gross_income: 30000, net_annual: 25119.6 }]);
    const list = await runCli(['api', '--list', '--fields', 'id', '--format', 'ndjson']);
    expect(list.stdout.split('\n')[0]).toBe('{"id":"example.items"}');
    const st = await runCli(['mirror', 'status', 'hpi', '--fields', 'dataset,present', '--format', 'csv']);
    expect(st.stdout).toBe('dataset,present\r\nhpi,false\r\n');
    const sql = await runCli(['sql', 'SELECT 1 AS a, 2 AS b', '--fields', 'b', '--format', 'csv']);
    expect(sql.stdout).toBe('b\r\n2\r\n');
    const bad = await runCli(['sql', 'SELECT 1 AS a', '--fields', 'z']);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'usage_error']);
  });
});

describe('errors reach a person when stdout is for machines', () => {
  it('json and ndjson: the envelope on stdout and the one-line message on stderr', async () => {
    for (const format of ['json', 'ndjson']) {
      const r = await runCli(['tax', 'take-home', 'abc', '--format', format]);
      expect(r.code).toBe(2);
      expect(json(r).error.code).toBe('bad_request');
      expect(r.stderr).toBe(`error bad_request: ${json(r).error.message}\n`);
    }
  });

  it('command-line errors too (an unknown option)', async () => {
    const r = await runCli(['tax', 'take-home', '45000', '--nosuch', '--format', 'ndjson']);
    expect([r.code, json(r).error.code]).toEqual([2, 'usage_error']);
    expect(r.stderr).toBe(`error usage_error: ${json(r).error.message}\n`);
    const csv = await runCli(['tax', 'take-home', '45000', '--nosuch', '--format', 'csv']);
    expect([csv.code, csv.stdout]).toEqual([2, '']);
    expect(csv.stderr).toMatch(/^error usage_error: unknown option '--nosuch'/);
  });

  it('--quiet keeps stderr empty', async () => {
    const r = await runCli(['tax', 'take-home', 'abc', '--format', 'json', '--quiet']);
    expect([r.code, r.stderr, json(r).error.code]).toEqual([2, '', 'bad_request']);
  });

  it('csv: no JSON envelope in the CSV stream; the message on stderr and the exit code', async () => {
    const r = await runCli(['tax', 'take-home', 'abc', '--format', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error bad_request: /);
  });
});

describe('terminal tables at 80 columns', () => {
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

  it('too many columns: the ones that fit, the rest named; --wide shows them all', async () => {
    const c = chooseColumns(['id', 'a', 'b', 'c', 'd'], [40, 20, 20, 20, 20], 80, false);
    expect(c.shown).toEqual(['id', 'a', 'b']);
    expect(c.hidden).toEqual(['c', 'd']);
    expect(c.widths![0]).toBe(40); // the id is never narrowed
    expect(chooseColumns(['a', 'b'], [10, 10], 80, false)).toEqual({ shown: ['a', 'b'], hidden: [] });
    expect(chooseColumns(['id', 'a', 'b', 'c', 'd'], [40, 20, 20, 20, 20], 80, true).shown).toHaveLength(5);
  });

  it('a measure is kept whatever its place, the other columns give way', async () => {
    // id 40 + d 20 leaves 80 - 40 - 20 - 3 borders = 17 for one more column, with a border: a (wrapped to 16).
    const c = chooseColumns(['id', 'a', 'b', 'c', 'd'], [40, 20, 20, 20, 20], 80, false, ['d']);
    expect(c.shown).toEqual(['id', 'a', 'd']);
    expect(c.widths).toEqual([40, 16, 20]);
    // A measure wider than the room left is narrowed (its cells are cut), not dropped.
    const m = chooseColumns(['id', 'a', 'address'], [40, 20, 70], 80, false, ['address']);
    expect(m.shown).toEqual(['id', 'address']);
    expect(m.widths!.reduce((x, y) => x + y, 0) + m.widths!.length + 1).toBe(80);
  });
});

describe('csv and ndjson say on stderr that there are more pages', () => {
  it('page 1 of N with --per-page 2; nothing with --all, --quiet, json, or on the last page', async () => {
    const all = JSON.parse((await runCli(['tax', 'years', '--all', '--format', 'json'])).stdout).data as unknown[];
    const pages = Math.ceil(all.length / 2);
    expect(pages).toBeGreaterThan(1);
    for (const f of ['csv', 'ndjson']) {
      const r = await runCli(['tax', 'years', '--per-page', '2', '--format', f]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`publicdata: page 1 of ${pages} (${all.length} records); add --all for every record, or --page N\n`);
    }
    for (const extra of [['--all'], ['--quiet'], ['--page', String(pages)]]) {
      expect((await runCli(['tax', 'years', '--per-page', '2', '--format', 'csv', ...extra])).stderr).toBe('');
    }
    expect((await runCli(['tax', 'years', '--per-page', '2', '--format', 'json'])).stderr).toBe('');
  });
});
