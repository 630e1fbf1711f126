/** sync, mirror and sql commands in process, on the example domain's invented records (test/fixtures/example). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/registry.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { readRecords } from '../support/example-domain/records-gen.js';

const FIX = join(__dirname, '..', 'fixtures', 'example');
const COMPLETE = join(FIX, 'records-complete.csv');
const env = isolatedEnv({ CI: '1' });

/** Independent parse of the records CSV (a line split). */
const rows = () => readRecords(readFileSync(COMPLETE, 'utf8'));

beforeAll(async () => {
  const r = await runCli(['sync', 'example-records', '--from', COMPLETE], { env });
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe('mirror commands', () => {
  it('sync reports a full load of every row', async () => {
    const st = json(await runCli(['mirror', 'status', 'example-records', '--format', 'json'], { env }));
    // stale: records of years ago loaded with --from are as old as their data, not as their sync (issue 37)
    expect(st.data[0]).toMatchObject({ dataset: 'example-records', present: true, rows: rows().length, stale: true, as_of: rows().at(-1)!.recorded_on });
    expect(st.data[0].note).toMatch(/^stale: \d+ days since the data's date, \d{4}-\d{2}-\d{2} \(loaded from a local file\)/);
  });

  it('answers the records route from the mirror, with provenance', async () => {
    const red2024 = rows().filter((r) => r.colour === 'red' && r.recorded_on.startsWith('2024'));
    const r = json(await runCli(['example', 'records', '--colour', 'red', '--year', '2024', '--per-page', '100', '--format', 'json'], { env }));
    expect(r.pagination).toMatchObject({ page: 1, per_page: 100, total: red2024.length });
    expect(r.data.map((t: { id: number }) => t.id)).toEqual(red2024.map((x) => x.id));
    expect(r.data.map((t: { title: string }) => t.title)).toEqual(red2024.map((x) => x.title));
    expect(r.meta).toMatchObject({ source: 'Example Publisher (invented for tests)', licence: 'Invented test data (no licence needed)' });
    // as_of: the newest day of the records (the fixture's last line)
    expect(r.meta.as_of).toBe(rows().at(-1)!.recorded_on);
  });

  it('at 80 columns the table keeps every id whole', async () => {
    const ids = rows().filter((r) => r.colour === 'blue').slice(0, 25).map((r) => String(r.id));
    const t = await runCli(['example', 'records', '--colour', 'blue'], { env: { ...env, NO_COLOR: '1' }, tty: true, columns: 80 });
    for (const id of ids) expect(t.stdout).toMatch(new RegExp(`(^|\\D)${id}(\\D|$)`, 'm'));
    expect(Math.max(...t.stdout.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(80);
    // the example items are too wide for 80 columns: the table says what it left out
    const wide = await runCli(['example', 'items'], { env: { ...env, NO_COLOR: '1' }, tty: true, columns: 80 });
    expect(Math.max(...wide.stdout.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(wide.stdout).toMatch(/more columns? \(--wide or --format json\)/);
  });

  it('sql runs read-only over attached datasets, numbers as JSON numbers', async () => {
    const total = rows().reduce((s, r) => s + r.count, 0);
    const r = json(await runCli(['sql', 'SELECT count(*) AS n, sum(count) AS total FROM example_records.records'], { env }));
    expect(r.data).toEqual([{ n: rows().length, total }]);
    const w = await runCli(['sql', 'DELETE FROM example_records.records'], { env });
    expect(w.code).toBe(2);
    expect(json(w).error.code).toBe('invalid_parameter');
  });

  it('mirror path and export to Hive-style Parquet', async () => {
    const p = await runCli(['mirror', 'path', 'example-records'], { env });
    expect(existsSync(p.stdout.trim())).toBe(true);
    const out = join(env.PUBLICDATA_DATA_DIR!, 'export');
    const r = await runCli(['mirror', 'export', '--format', 'parquet', '--out', out, 'example-records'], { env });
    expect(r.code, r.stderr).toBe(0);
    const files = json(r).data as Array<{ table: string; rows: number; path: string }>;
    const main = files.find((f) => f.table === 'records')!;
    expect(main.rows).toBe(rows().length);
    expect(existsSync(main.path)).toBe(true);
    const bad = await runCli(['mirror', 'export', '--format', 'xml', '--out', out], { env });
    expect(bad.code).toBe(2);
    // --fields works on the export report too (issue 10 item 8).
    const picked = json(await runCli(['mirror', 'export', '--format', 'csv', '--out', `${out}-csv`, 'example-records', '--fields', 'table,rows'], { env }));
    expect(picked.data.find((f: { table: string }) => f.table === 'records')).toEqual({ table: 'records', rows: rows().length });
    // with every dataset its sync_log goes too (one row: the one sync so far)
    expect(files.map((f) => [f.table, f.rows])).toEqual([['records', rows().length], ['sync_log', 1]]);
    // the catalogue beside the data; not a terminal: one summary line on stderr; records' years 2023 and 2024
    // are 2 partitions, sync_log one directory
    for (const f of ['manifest.json', 'ddl/spark.sql', 'ddl/trino.sql', 'ddl/bigquery.json', 'ddl/duckdb.sql']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(new Set(rows().map((x) => x.recorded_on.slice(0, 4)))).toEqual(new Set(['2023', '2024']));
    expect(r.stderr).toMatch(/^exported 1 dataset\(s\), 2 tables, 301 rows, 3 partitions \(3 written, 0 unchanged\), .* to .*\n$/);
    // --since the same directory with nothing synced since: nothing written
    const again = json(await runCli(['mirror', 'export', '--out', out, '--since', out, 'example-records'], { env }));
    expect(again.data.map((t: { written: number }) => t.written)).toEqual([0, 0]);
    const noManifest = await runCli(['mirror', 'export', '--out', out, '--since', join(out, 'example-records'), 'example-records'], { env });
    expect(noManifest.code).toBe(2);
    expect(json(noManifest).error.message).toMatch(/--since .* has no manifest\.json/);
  });

  it('sync reports through the same renderers: --fields and csv', async () => {
    const r = await runCli(['sync', 'example-records', '--from', COMPLETE, '--fields', 'dataset,status', '--format', 'csv'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^dataset,status\r\nexample-records,\w+\r\n$/);
  });

  it('a dataset never synced names the sync command that would serve it', async () => {
    const r = await runCli(['example', 'events'], { env });
    expect(r.code).toBe(1);
    const e = json(r).error;
    expect(e.code).toBe('dataset_not_synced');
    expect(e.message).toContain('publicdata sync example-events');
  });

  it('rejects unknown datasets and bad --format values as usage errors', async () => {
    expect((await runCli(['sync', 'nope'], { env })).code).toBe(2);
    expect((await runCli(['sync'], { env })).code).toBe(2);
    expect((await runCli(['example', 'items', '--format', 'yaml'], { env })).code).toBe(2);
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
