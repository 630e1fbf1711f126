/**
 * Issue 37, tables at 80 columns, answer first: every route's sample (test/<domain>/samples.ts, on the
 * fixture mirror they sync) rendered as a table at 80 columns prints no line wider than 80, on stdout or
 * stderr (notes wrap at word boundaries), and keeps its answer columns (RouteSpec.measures; identifier
 * columns by isKeyColumn): each is in the header, not in the "more columns" line, and its cells are the
 * `--format json` answer's values, whole or cut with an ellipsis. Then the commands the issue names.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/registry.js';
import { isKeyColumn } from '../../src/output/view.js';
import { runCli } from '../support/cli.js';
import { ROUTE_SAMPLES, useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('tables-80-');
const COLUMNS = 80;

type Rec = Record<string, unknown>;
const at = (r: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Rec)[k] : undefined), r);
const text = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v));
const widest = (s: string) => Math.max(0, ...s.split('\n').map((l) => [...l].length));
const last = (c: string) => c.slice(c.lastIndexOf('.') + 1);
const flat = (o: Rec, prefix = '', out: Rec = {}): Rec => {
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flat(v as Rec, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
};

/** A shown cell is the value whole, or its beginning followed by an ellipsis. */
function sameOrCut(shown: string, want: string): void {
  if (shown.endsWith('…')) expect(want.startsWith(shown.slice(0, -1)), `${shown} is not a cut of ${want}`).toBe(true);
  else expect(shown).toBe(want);
}

async function both(args: string[]) {
  const table = await runCli([...args, '--source', 'local', '--format', 'table'], { env: fx.env(), tty: true, columns: COLUMNS });
  const json = await runCli([...args, '--source', 'local', '--format', 'json'], { env: fx.env() });
  expect([table.code, json.code, table.stderr.startsWith('error')]).toEqual([0, 0, false]);
  return { table, answer: JSON.parse(json.stdout) as { data: unknown } };
}

/**
 * The box table's column `name` (header cell `name` or its last dotted part): the non-empty cells in
 * order, which must be the records' non-empty values in order (a measure is one line a record).
 */
function checkColumn(stdout: string, records: Rec[], name: string): void {
  const lines = stdout.split('\n');
  const header = lines.find((l) => l.startsWith('│'))!;
  const cells = header.split('│').map((s) => s.trim());
  const col = cells.includes(name) ? cells.indexOf(name) : cells.indexOf(last(name));
  expect(col, `${name} shown in ${header}`).toBeGreaterThan(0);
  const tableEnd = lines.findIndex((l) => l.startsWith('└'));
  const shown = lines.slice(lines.indexOf(header) + 1, tableEnd).map((l) => l.split('│')[col]!.trim()).filter((s) => s !== '');
  const want = records.map((r) => text(at(r, name))).filter((s) => s !== '');
  expect(shown).toHaveLength(want.length);
  shown.forEach((s, i) => sameOrCut(s, want[i]!));
}

describe('every route sample as a table at 80 columns', () => {
  for (const s of ROUTE_SAMPLES) {
    const route = ROUTES.find((r) => r.id === s.route)!;
    it(`${s.route}: no line over ${COLUMNS}; answer columns shown`, async () => {
      const args = ['api', s.method, s.path, ...(s.body !== undefined ? ['--data', JSON.stringify(s.body)] : [])];
      const { table, answer } = await both(args);
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

describe('the commands issue 37 names, at 80 columns', () => {
  it('crime street: the 64-character id shortened (said under the table), month and category whole', async () => {
    const { table, answer } = await both(['crime', 'street', '--force', 'city-of-london', '--month', '2025-05', '--per-page', '5']);
    const recs = answer.data as Rec[];
    expect(recs.some((r) => String(r.crime_id ?? '').length === 64)).toBe(true);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    for (const c of ['month', 'category', 'crime_id']) checkColumn(table.stdout, recs, c);
    expect(table.stdout).not.toMatch(/│ 20… │/);
    expect(table.stdout).toContain('crime_id shortened (--wide or --format json for the full value)');
    // --wide: the whole id
    const wide = await runCli(['crime', 'street', '--force', 'city-of-london', '--month', '2025-05', '--per-page', '5', '--wide', '--source', 'local'], { env: fx.env(), tty: true, columns: COLUMNS });
    expect(wide.stdout).toContain(String(recs.find((r) => r.crime_id)!.crime_id));
    expect(widest(wide.stdout)).toBeLessThanOrEqual(COLUMNS);
  });

  it('schools show 107848 (the README example) fits, every value there', async () => {
    const { table, answer } = await both(['schools', 'show', '107848']);
    expect(widest(table.stdout), table.stdout).toBeLessThanOrEqual(COLUMNS);
    const d = answer.data as Rec;
    for (const k of ['name', 'postcode'] as const) expect(table.stdout).toContain(String(d[k]));
    expect(table.stdout).toContain(String(at(d, 'latest_inspection.start_date')));
  });

  it('schools list: name, inspection date and outcome shown', async () => {
    const { table, answer } = await both(['schools', '--authority', 'Leeds', '--per-page', '10']);
    const recs = answer.data as Rec[];
    expect(recs.filter((r) => at(r, 'latest_inspection.start_date')).length).toBeGreaterThan(0);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    for (const c of ['name', 'latest_inspection.start_date', 'latest_inspection.overall_effectiveness']) checkColumn(table.stdout, recs, c);
  });

  it('earnings regions: within the width, name and median first, the rest named', async () => {
    const { table, answer } = await both(['earnings', 'regions', '--basis', 'residence', '--population', 'all']);
    expect(widest(table.stdout), table.stdout).toBeLessThanOrEqual(COLUMNS);
    const recs = answer.data as Array<{ geography: { name: string }; median: number }>;
    expect(recs.length).toBeGreaterThan(1);
    for (const r of recs) {
      const line = table.stdout.split('\n').find((l) => l.startsWith(`${r.geography.name}  `))!;
      expect(line, r.geography.name).toBeDefined();
      expect(line).toContain(`£${r.median.toLocaleString('en-GB')}`);
    }
  });

  it('earnings rank --chart: within the width', async () => {
    const { table, answer } = await both(['earnings', 'rank', '28000', '--chart']);
    const tty = await runCli(['earnings', 'rank', '28000', '--chart', '--source', 'local'], { env: fx.env(), tty: true, columns: COLUMNS });
    expect(widest(tty.stdout), tty.stdout).toBeLessThanOrEqual(COLUMNS);
    expect(tty.stdout).toContain('◀ this amount');
    expect(tty.stdout).toMatch(/█/);
    expect((answer.data as { amount: number }).amount).toBe(28000);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
  });

  it('energy rates: each row labelled by its fuel, meter and payment method', async () => {
    const { table, answer } = await both(['energy', 'rates']);
    const recs = answer.data as Rec[];
    expect(new Set(recs.map((r) => r.fuel)).size).toBeGreaterThan(1);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    for (const c of ['fuel', 'payment_method', 'meter', 'unit_rate', 'standing_charge']) checkColumn(table.stdout, recs, c);
  });

  it('energy periods: the typical bill shown', async () => {
    const { table, answer } = await both(['energy', 'periods', '--per-page', '5']);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    checkColumn(table.stdout, answer.data as Rec[], 'typical_annual_bill.direct_debit');
    // the note under it wraps at word boundaries: its words, in order, none broken
    const note = (answer as { meta?: { note?: string } }).meta?.note;
    if (note) {
      expect(widest(table.stderr)).toBeLessThanOrEqual(COLUMNS);
      expect(table.stderr.replace(/^note /, '').replace(/\n +/g, ' ').trim()).toBe(note);
    }
  });
});

describe('counts in words', () => {
  it('a one-record answer says "1 record", not "1 records"', async () => {
    const { table, answer } = await both(['api', 'GET', '/v1/energy/price-cap/rates?period=2025-10&fuel=gas']);
    expect(answer.data as unknown[]).toHaveLength(1);
    expect(table.stdout).toMatch(/(^|\n)1 record · source: local/);
    const two = await both(['api', 'GET', '/v1/energy/price-cap/rates?period=2025-10']);
    expect((two.answer.data as unknown[]).length).toBe(2);
    expect(two.table.stdout).toMatch(/(^|\n)2 records · source: local/);
  });
});
