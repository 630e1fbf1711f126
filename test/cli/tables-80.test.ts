/**
 * Issue 37, tables at 80 columns, answer first: every route's sample (test/<domain>/samples.ts, on the
 * fixture mirror they sync) rendered as a table at 80 columns prints no line wider than 80, on stdout or
 * stderr (notes wrap at word boundaries), and keeps its answer columns (RouteSpec.measures; identifier
 * columns by isKeyColumn): each is in the header, not in the "more columns" line, and its cells are the
 * `--format json` answer's values, whole or cut with an ellipsis: the routes registered (the example
 * domain's calls below, and with the real domains their samples). The commands the issue names are the
 * domains' own cases, in test/<domain>/tables-80.test.ts.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/registry.js';
import { isKeyColumn } from '../../src/output/view.js';
import { runCli } from '../support/cli.js';
import { samples as exampleSamples } from '../support/example-domain/samples.js';
import { ROUTE_SAMPLES, useFixtureMirror, type Sample } from '../support/route-samples.js';
import { at, both, checkColumn, COLUMNS, flat, last, text, widest, type Rec } from '../support/tables-80.js';

const fx = useFixtureMirror('tables-80-');
// the example domain's two mirror datasets beside the real domains' (its samples' build)
beforeAll(async () => {
  await exampleSamples.build!({ dataDir: fx.dir(), mirror: join(fx.dir(), 'mirror'), cacheDir: join(fx.dir(), 'example-cache') });
});

/**
 * The example domain's calls (test/support/example-domain/: 77-character titles, markers on some items, no
 * location on some): a list, a list near a point, one record, a summary, the notes view, the calculator.
 */
const EXAMPLE_SAMPLES: Sample[] = [
  { route: 'example.items', method: 'GET', path: '/v1/example/items?per_page=10' },
  { route: 'example.items', method: 'GET', path: '/v1/example/items?lat=51.1&lng=-0.9&radius_km=20' },
  { route: 'example.item', method: 'GET', path: '/v1/example/items/10' },
  { route: 'example.summary', method: 'GET', path: '/v1/example/summary' },
  { route: 'example.notes', method: 'GET', path: '/v1/example/notes' },
  { route: 'example.calculate', method: 'POST', path: '/v1/example/calculate', body: { amount: 30, colour: 'green', label: 'abc' } },
  { route: 'example.records', method: 'GET', path: '/v1/example/records?per_page=10' },
  { route: 'example.events', method: 'GET', path: '/v1/example/events' },
];
const SAMPLES = [...EXAMPLE_SAMPLES, ...ROUTE_SAMPLES];

describe('every route sample as a table at 80 columns', () => {
  it('every registered route with a local handler has a sample here', () => {
    expect(SAMPLES.map((x) => x.route)).toEqual(expect.arrayContaining(ROUTES.filter((r) => r.local).map((r) => r.id)));
  });

  for (const s of SAMPLES) {
    const route = ROUTES.find((r) => r.id === s.route)!;
    it(`${s.route}: no line over ${COLUMNS}; answer columns shown`, async () => {
      const args = ['api', s.method, s.path, ...(s.body !== undefined ? ['--data', JSON.stringify(s.body)] : [])];
      const { table, answer } = await both(fx, args);
      expect(widest(table.stdout), table.stdout).toBeLessThanOrEqual(COLUMNS);
      expect(widest(table.stderr), table.stderr).toBeLessThanOrEqual(COLUMNS);
      const records = (Array.isArray(answer.data) ? answer.data : route.records ? at(answer.data, route.records) : undefined) as Rec[] | undefined;
      if (!records?.length || !table.stdout.startsWith('┌')) return; // a domain's own layout (checked below)
      const header = table.stdout.split('\n')[1]!;
      const heads = header.split('│').map((c) => c.trim());
      // a domain's own table (food hygiene's `rating (date)`) declares its columns itself
      const paths = new Set(records.flatMap((r) => Object.keys(flat(r))).flatMap((p) => [p, last(p)]));
      if (!heads.filter((h) => h !== '').every((h) => paths.has(h))) return;
      const more = table.stdout.split('\n').slice(table.stdout.split('\n').findIndex((l) => l.startsWith('└')) + 1).join(' ');
      const keys = Object.keys(records[0]!).filter(isKeyColumn);
      const answerCols = [...keys, ...(route.measures ?? [])].filter((m) => records.some((r) => text(at(r, m)) !== ''));
      for (const m of answerCols) {
        expect(heads.includes(m) || heads.includes(last(m)), `${m} in ${header}`).toBe(true);
        expect(more).not.toMatch(new RegExp(`[:,] ${m.replace(/\./g, '\\.')}(,|$| )`));
        checkColumn(table.stdout, records, m);
      }
    });
  }
});

describe('counts in words', () => {
  it('a one-record answer says "1 record", not "1 records"', async () => {
    // the only title with 'number 7 with': item 7
    const { table, answer } = await both(fx, ['api', 'GET', '/v1/example/items?name=number%207%20with']);
    expect(answer.data as unknown[]).toHaveLength(1);
    expect(table.stdout).toMatch(/(^|\n|· )1 record · source: local/);
    // '5 with' and green (id % 3 = 1): items 25 and 55
    const two = await both(fx, ['api', 'GET', '/v1/example/items?name=5%20with&colour=green']);
    expect((two.answer.data as unknown[]).length).toBe(2);
    expect(two.table.stdout).toMatch(/(^|\n|· )2 records · source: local/);
  });
});
