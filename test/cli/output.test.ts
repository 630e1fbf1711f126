/**
 * Output through the renderer registry: --fields everywhere, errors that reach a person, terminal tables
 * that read at 80 columns (issue 9 renderers; issue 10 items 3 and 8). On the example domain; the
 * domains' own cases are in test/tax/cli-output.test.ts and test/property/cli-output.test.ts.
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
    // The domains' renderers are registered by route id (the example domain's notes view: its table only).
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'example.notes' }, rc())).name).toBe('example-notes');
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'example.notes' }, rc({ wide: true }))).name).toBe('table');
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'example.notes' }, rc({ format: 'csv' }))).name).toBe('csv');
  });
});

describe('--fields', () => {
  it('a top-level field of a calculator keeps the answer', async () => {
    const r = await runCli(['example', 'calculate', '30', '--fields', 'total_count']);
    expect(r.code).toBe(0);
    // counts up to 30: ids 1 to 4 (count = id x 7), 7 + 14 + 21 + 28
    expect(json(r).data).toEqual({ total_count: 70 });
    const csv = await runCli(['example', 'calculate', '30', '--fields', 'total_count,item_count', '--format', 'csv']);
    expect(csv.stdout).toBe('total_count,item_count\r\n70,4\r\n');
  });

  it('dotted paths into nested objects', async () => {
    const r = await runCli(['example', 'show', '3', '--fields', 'location.latitude,count']);
    // item 3: latitude 51 + 3/100, count 3 x 7
    expect(json(r).data).toEqual({ location: { latitude: 51.03 }, count: 21 });
  });

  it('an unknown field is a usage error naming the fields there are', async () => {
    const r = await runCli(['example', 'calculate', '30', '--fields', 'nosuch']);
    expect(r.code).toBe(2);
    const e = json(r).error;
    expect(e.code).toBe('usage_error');
    expect(e.message).toMatch(/Unknown field 'nosuch'/);
    expect(e.message).toContain('total_count');
    const t = await runCli(['example', 'show', '3', '--fields', 'id,nope'], { tty: true });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/Unknown field 'nope'.*id, title, colour, count, location\.latitude, location\.longitude/);
  });

  it('applies to api --list and sql (--sweep: test/tax/; mirror status: test/property/)', async () => {
    const list = await runCli(['api', '--list', '--fields', 'id', '--format', 'ndjson']);
    expect(list.stdout.split('\n')[0]).toBe('{"id":"example.items"}');
    const sql = await runCli(['sql', 'SELECT 1 AS a, 2 AS b', '--fields', 'b', '--format', 'csv']);
    expect(sql.stdout).toBe('b\r\n2\r\n');
    const bad = await runCli(['sql', 'SELECT 1 AS a', '--fields', 'z']);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'usage_error']);
  });
});

describe('errors reach a person when stdout is for machines', () => {
  it('json and ndjson: the envelope on stdout and the one-line message on stderr', async () => {
    for (const format of ['json', 'ndjson']) {
      const r = await runCli(['example', 'calculate', 'abc', '--format', format]);
      expect(r.code).toBe(2);
      expect(json(r).error.code).toBe('bad_request');
      expect(r.stderr).toBe(`error bad_request: ${json(r).error.message}\n`);
    }
  });

  it('command-line errors too (an unknown option)', async () => {
    const r = await runCli(['example', 'calculate', '30', '--nosuch', '--format', 'ndjson']);
    expect([r.code, json(r).error.code]).toEqual([2, 'usage_error']);
    expect(r.stderr).toBe(`error usage_error: ${json(r).error.message}\n`);
    const csv = await runCli(['example', 'calculate', '30', '--nosuch', '--format', 'csv']);
    expect([csv.code, csv.stdout]).toEqual([2, '']);
    expect(csv.stderr).toMatch(/^error usage_error: unknown option '--nosuch'/);
  });

  it('--quiet keeps stderr empty', async () => {
    const r = await runCli(['example', 'calculate', 'abc', '--format', 'json', '--quiet']);
    expect([r.code, r.stderr, json(r).error.code]).toEqual([2, '', 'bad_request']);
  });

  it('csv: no JSON envelope in the CSV stream; the message on stderr and the exit code', async () => {
    const r = await runCli(['example', 'calculate', 'abc', '--format', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error bad_request: /);
  });
});

describe('terminal tables at 80 columns', () => {
  const tty = { tty: true, columns: 80, env: { NO_COLOR: '1' } };

  it('a record list, one record and a summary fit, their answer shown (the domains\' own: test/<domain>/)', async () => {
    const list = await runCli(['example', 'items', '--per-page', '5'], tty);
    const one = await runCli(['example', 'show', '3'], tty);
    const sum = await runCli(['example', 'summary'], tty);
    // the titles (77 characters) are cut to fit; item 3's count is 3 x 7; 20 items of each colour
    expect(list.stdout).toMatch(/│ 5 +│ Example item number 5 with a/);
    expect(one.stdout).toMatch(/count\s+│\s+21\s/);
    expect(sum.stdout).toMatch(/by_colour\.red\s+│\s+20\s/);
    for (const r of [list, one, sum]) expect(visibleWidth(r.stdout), r.stdout).toBeLessThanOrEqual(80);
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
    const all = JSON.parse((await runCli(['example', 'items', '--all', '--format', 'json'])).stdout).data as unknown[];
    const pages = Math.ceil(all.length / 2);
    expect(pages).toBeGreaterThan(1);
    for (const f of ['csv', 'ndjson']) {
      const r = await runCli(['example', 'items', '--per-page', '2', '--format', f]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`publicdata: page 1 of ${pages} (${all.length} records); add --all for every record, or --page N\n`);
    }
    for (const extra of [['--all'], ['--quiet'], ['--page', String(pages)]]) {
      expect((await runCli(['example', 'items', '--per-page', '2', '--format', 'csv', ...extra])).stderr).toBe('');
    }
    expect((await runCli(['example', 'items', '--per-page', '2', '--format', 'json'])).stderr).toBe('');
  });
});
