/** sync, mirror and sql commands in process, on the real price-paid and HPI excerpts. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/registry.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';

const FIX = join(__dirname, '..', 'fixtures', 'property');
const PP = join(FIX, 'land-registry-ppd', 'pp-complete.csv');
const env = isolatedEnv({ CI: '1' });

/** Independent parse of the headerless price-paid CSV. */
function ppRows(): string[][] {
  return readFileSync(PP, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.slice(1, -1).split('","'));
}

beforeAll(async () => {
  const r = await runCli(['sync', 'price-paid', '--from', PP], { env });
  expect(r.code).toBe(0);
}, 120_000);

describe('mirror commands', () => {
  it('sync reports a full load of every row', async () => {
    const st = json(await runCli(['mirror', 'status', 'price-paid', '--format', 'json'], { env }));
    // stale: a fixture of old transactions loaded with --from is as old as its data, not as its sync
    expect(st.data[0]).toMatchObject({ dataset: 'price-paid', present: true, rows: ppRows().length, stale: true });
  });

  it('answers price-paid search from the mirror, with provenance', async () => {
    const rows = ppRows().filter((r) => r[3] === 'NE4 9DN');
    const r = json(await runCli(['property', 'price-paid', 'search', '--postcode', 'NE4 9DN'], { env }));
    expect(r.data.pagination).toEqual({ page: 1, per_page: 25, total: rows.length });
    expect(r.data.transactions.map((t: { price: number }) => t.price).sort()).toEqual(rows.map((x) => Number(x[1])).sort());
    expect(r.meta).toMatchObject({ source: 'HM Land Registry', licence: 'Open Government Licence v3.0' });
    expect(r.meta.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('at 80 columns the search table keeps every id whole (what price-paid show needs)', async () => {
    const ids = json(await runCli(['property', 'price-paid', 'search', '--postcode', 'NE4 9DN'], { env })).data.transactions.map((t: { id: string }) => t.id);
    expect(ids.length).toBeGreaterThan(0);
    const t = await runCli(['property', 'price-paid', 'search', '--postcode', 'NE4 9DN'], { env: { ...env, NO_COLOR: '1' }, tty: true, columns: 80 });
    for (const id of ids) expect(t.stdout).toContain(id);
    expect(Math.max(...t.stdout.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(t.stdout).toMatch(/more columns? \(--wide or --format json\)/);
  });

  it('sql runs read-only over attached datasets, numbers as JSON numbers', async () => {
    const total = ppRows().reduce((s, r) => s + Number(r[1]), 0);
    const r = json(await runCli(['sql', 'SELECT count(*) AS n, sum(price) AS total FROM price_paid.price_paid'], { env }));
    expect(r.data).toEqual([{ n: ppRows().length, total }]);
    const w = await runCli(['sql', 'DELETE FROM price_paid.price_paid'], { env });
    expect(w.code).toBe(2);
    expect(json(w).error.code).toBe('invalid_parameter');
  });

  it('mirror path and export to Hive-style Parquet', async () => {
    const p = await runCli(['mirror', 'path', 'price-paid'], { env });
    expect(existsSync(p.stdout.trim())).toBe(true);
    const out = join(env.PUBLICDATA_DATA_DIR!, 'export');
    const r = await runCli(['mirror', 'export', '--format', 'parquet', '--out', out, 'price-paid'], { env });
    expect(r.code).toBe(0);
    const files = json(r).data as Array<{ table: string; rows: number; path: string }>;
    const main = files.find((f) => f.table === 'price_paid')!;
    expect(main.rows).toBe(ppRows().length);
    expect(existsSync(main.path)).toBe(true);
    const bad = await runCli(['mirror', 'export', '--format', 'xml', '--out', out], { env });
    expect(bad.code).toBe(2);
    // --fields works on the export report too (issue 10 item 8).
    const picked = json(await runCli(['mirror', 'export', '--format', 'csv', '--out', `${out}-csv`, 'price-paid', '--fields', 'table,rows'], { env }));
    expect(picked.data.find((f: { table: string }) => f.table === 'price_paid')).toEqual({ table: 'price_paid', rows: ppRows().length });
    // the catalogue beside the data; not a terminal: one summary line on stderr
    for (const f of ['manifest.json', 'ddl/spark.sql', 'ddl/trino.sql', 'ddl/bigquery.json', 'ddl/duckdb.sql']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(r.stderr).toMatch(/^exported 1 dataset\(s\), 2 tables, [\d,]+ rows, \d+ partitions \(\d+ written, 0 unchanged\), .* to .*\n$/);
    // --since the same directory with nothing synced since: nothing written
    const again = json(await runCli(['mirror', 'export', '--out', out, '--since', out, 'price-paid'], { env }));
    expect(again.data.map((t: { written: number }) => t.written)).toEqual([0, 0]);
    const noManifest = await runCli(['mirror', 'export', '--out', out, '--since', join(out, 'price-paid'), 'price-paid'], { env });
    expect(noManifest.code).toBe(2);
    expect(json(noManifest).error.message).toMatch(/--since .* has no manifest\.json/);
  });

  it('sync reports through the same renderers: --fields and csv', async () => {
    const r = await runCli(['sync', 'price-paid', '--from', PP, '--fields', 'dataset,status', '--format', 'csv'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^dataset,status\r\nprice-paid,\w+\r\n$/);
  });

  it('a dataset never synced names the sync command that would serve it', async () => {
    const r = await runCli(['property', 'council-tax', '--band', 'D'], { env });
    expect(r.code).toBe(1);
    const e = json(r).error;
    expect(e.code).toBe('dataset_not_synced');
    expect(e.message).toContain('publicdata sync council-tax');
  });

  it('rejects unknown datasets and bad --format values as usage errors', async () => {
    expect((await runCli(['sync', 'nope'], { env })).code).toBe(2);
    expect((await runCli(['sync'], { env })).code).toBe(2);
    expect((await runCli(['calendar', 'regions', '--format', 'yaml'], { env })).code).toBe(2);
  });

  it("a dataset's own narrowing options come from its catalogue entry (DatasetInfo.syncLists) and are checked item by item", async () => {
    const help = (await runCli(['sync', '--help'], { env })).stdout;
    const lists = DATASETS.flatMap((d) => (d.syncLists ?? []).map((o) => ({ d, o })));
    expect(lists.length).toBeGreaterThan(0);
    for (const { o } of lists) expect(help).toContain(`--${o.name} <${o.placeholder}>`);
    // A list with one good-looking item and one no pattern accepts ('!' is in no item pattern).
    for (const [args, shape] of lists.map(({ d, o }) => [['sync', d.name, `--${o.name}`, `x,!`], o.example] as const)) {
      expect(new RegExp(`^(?:${lists.find((l) => l.o.example === shape)!.o.item})$`).test('!')).toBe(false);
      const r = await runCli([...args, '--format', 'json'], { env });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'usage_error' });
      expect(JSON.parse(r.stdout).error.message).toContain(shape);
    }
  });
});
