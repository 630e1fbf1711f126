/**
 * `mirror export` of every dataset with a fixture builder: the lake read back cold by DuckDB (a new
 * instance, hive_partitioning) and by hyparquet (pure JS) gives the mirror's row counts, per-partition
 * counts, sums of every numeric column and distinct keys; every partition is one ZSTD file; files keep
 * their declared order. The mirror side is computed with SQL over the dataset file; the hyparquet side in
 * JS from the decoded rows; neither reads the manifest's counts.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetInfo } from '../../src/mirror/catalog.js';
import { DATASETS } from '../../src/registry.js';
import { exportMirror, type ExportedTable } from '../../src/mirror/export.js';
import type { Manifest, ManifestTable } from '../../src/mirror/export-manifest.js';
import { cleanup, sqlOn } from '../property/mirror-helper.js';
import { BUILT, buildAll, coldDuck, hyparquetRows, parquetFiles } from './export-helper.js';
import { FILES, rowsOf } from '../crime/fixture.js';

const FIXTURE_DIR = join(__dirname, '..', 'fixtures');

/** The registry's datasets by name. */
const INFO: Record<string, DatasetInfo> = Object.fromEntries(DATASETS.map((d) => [d.name, d]));

let root = '';
let mirror = '';
let lake = '';
let report: ExportedTable[] = [];
let manifest: Manifest;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-lake-'));
  mirror = await buildAll(root);
  lake = join(root, 'lake');
  report = await exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir: lake, mirrorDir: mirror });
  manifest = JSON.parse(readFileSync(join(lake, 'manifest.json'), 'utf8')) as Manifest;
}, 240_000);
afterAll(() => cleanup([root]));

const NUMERIC = /^(BIGINT|INTEGER|SMALLINT|TINYINT|DOUBLE|FLOAT|DECIMAL)/;
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Count, numeric sums and distinct first-column values of a relation, by SQL. */
function aggregateSql(from: string, t: ManifestTable): string {
  const nums = t.columns.filter((c) => NUMERIC.test(c.type));
  const key = t.sort_columns[0] ?? t.columns[0]!.name;
  return `SELECT count(*)::BIGINT AS n, count(DISTINCT ${q(key)})::BIGINT AS keys${nums.map((c, i) => `, sum(${q(c.name)})::DOUBLE AS s${i}`).join('')} FROM ${from}`;
}

/** The declared rows of a table in the mirror (the dataset's export declaration, or the table itself). */
function mirrorRows(dataset: string, table: string): string {
  const spec = INFO[dataset]!.export?.tables.find((x) => x.name === table);
  return `(${spec?.select ?? `SELECT * FROM ${q(table)}`})`;
}

function jsAggregates(rows: Array<Record<string, unknown>>, t: ManifestTable): Record<string, number> {
  const key = t.sort_columns[0] ?? t.columns[0]!.name;
  const out: Record<string, number> = { n: rows.length, keys: new Set(rows.map((r) => r[key]).filter((v) => v !== null && v !== undefined).map((v) => (v instanceof Date ? v.toISOString() : String(v)))).size };
  t.columns.filter((c) => NUMERIC.test(c.type)).forEach((c, i) => {
    out[`s${i}`] = rows.reduce((s, r) => (r[c.name] === null || r[c.name] === undefined ? s : s + Number(r[c.name])), 0);
  });
  return out;
}

function close(a: Record<string, unknown>, b: Record<string, unknown>): void {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const k of Object.keys(a)) {
    const [x, y] = [Number(a[k] ?? 0), Number(b[k] ?? 0)];
    expect(Math.abs(x - y), `${k}: ${x} vs ${y}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(x)));
  }
}

describe('mirror export: every dataset, read back by two readers', () => {
  it('the manifest lists every built dataset with its declared tables and sync_log', () => {
    expect(Object.keys(manifest.datasets).sort()).toEqual([...BUILT].sort());
    for (const name of BUILT) {
      const declared = INFO[name]!.export!.tables.map((t) => t.name);
      expect(manifest.datasets[name]!.tables.map((t) => t.name)).toEqual([...declared, 'sync_log']);
      expect(manifest.datasets[name]).toMatchObject({ source: INFO[name]!.publisher, licence: INFO[name]!.licence });
    }
    // the tables a reader needs: licensing with make/model/fuel, accounts with periods, MOT with failures and pass rates
    const cols = (d: string, t: string) => manifest.datasets[d]!.tables.find((x) => x.name === t)!.columns.map((c) => c.name);
    expect(cols('vehicle-licensing', 'licensing')).toEqual(expect.arrayContaining(['make', 'model', 'fuel', 'quarter', 'count']));
    expect(cols('accounts', 'accounts_periods')).toEqual(expect.arrayContaining(['filing_id', 'period_end']));
    expect(cols('mot', 'mot_failures')).toEqual(expect.arrayContaining(['make', 'model', 'failures']));
    expect(cols('mot', 'mot_pass_rates')).toEqual(expect.arrayContaining(['tests', 'passes']));
  });

  it.each(BUILT)('%s: counts, per-partition counts, sums and distinct keys agree (mirror, DuckDB cold, hyparquet)', async (name) => {
    const file = join(mirror, INFO[name]!.file);
    for (const t of manifest.datasets[name]!.tables) {
      const dir = join(lake, t.path);
      const parts = t.partition_columns;
      const mirrorAgg = (await sqlOn(file, aggregateSql(`${mirrorRows(name, t.name)} s`, t)))[0]!;
      const glob = `'${dir}/${'*/'.repeat(parts.length)}*.parquet'`;
      const lakeFrom = `read_parquet(${glob}${parts.length ? ', hive_partitioning = true' : ''})`;
      const duckAgg = (await coldDuck(aggregateSql(lakeFrom, t)))[0]!;
      const rows = await hyparquetRows(dir);
      close(duckAgg, mirrorAgg);
      close(jsAggregates(rows, t), mirrorAgg);
      expect(Number(mirrorAgg.n), `${name}/${t.name} rows`).toBe(report.find((r) => r.dataset === name && r.table === t.name)!.rows);
      if (!parts.length) continue;
      // per-partition counts: the mirror grouped by the declared expression, DuckDB by the hive column, JS by path
      const exprs = parts.map((p) => `(${p.expr})::VARCHAR`).join(` || '/' || `);
      const m = await sqlOn(file, `SELECT ${exprs} AS k, count(*)::BIGINT AS n FROM ${mirrorRows(name, t.name)} s GROUP BY 1 ORDER BY 1`);
      const d = await coldDuck<{ k: string; n: string }>(
        `SELECT ${parts.map((p) => `${q(p.name)}::VARCHAR`).join(` || '/' || `)} AS k, count(*) AS n FROM ${lakeFrom} GROUP BY 1 ORDER BY 1`,
      );
      const js = new Map<string, number>();
      for (const r of rows) {
        const k = parts.map((p) => String(r[p.name])).join('/');
        js.set(k, (js.get(k) ?? 0) + 1);
      }
      const mm = m.map((r) => [String(r.k), Number(r.n)]);
      expect(mm.length).toBeGreaterThan(0);
      expect(d.map((r) => [r.k, Number(r.n)])).toEqual(mm);
      expect([...js.entries()].sort()).toEqual(mm);
    }
  });

  it.each(BUILT)('%s: every row of every table equals the mirror row (DuckDB, both directions)', async (name) => {
    const file = join(mirror, INFO[name]!.file);
    for (const t of manifest.datasets[name]!.tables) {
      const parts = t.partition_columns;
      const cols = [...t.columns, ...parts];
      const lakeFrom = `read_parquet('${join(lake, t.path)}/${'*/'.repeat(parts.length)}*.parquet'${parts.length ? `, hive_partitioning = true, hive_types = {${parts.map((p) => `'${p.name}': ${p.type}`).join(', ')}}` : ''})`;
      const mirrorSel = `SELECT ${[...t.columns.map((c) => `CAST(s.${q(c.name)} AS ${c.type}) AS ${q(c.name)}`), ...parts.map((p) => `(${p.expr}) AS ${q(p.name)}`)].join(', ')} FROM ${mirrorRows(name, t.name)} s`;
      const list = cols.map((c) => q(c.name)).join(', ');
      // USE m: the declarations name the mirror's tables unqualified
      const [both] = await coldDuck<{ a: string; b: string }>(
        `SELECT (SELECT count(*) FROM (SELECT ${list} FROM ${lakeFrom} EXCEPT ALL SELECT ${list} FROM (${mirrorSel}))) AS a,
                (SELECT count(*) FROM (SELECT ${list} FROM (${mirrorSel}) EXCEPT ALL SELECT ${list} FROM ${lakeFrom})) AS b`,
        [`ATTACH '${file}' AS m (READ_ONLY)`, 'USE m'],
      );
      expect([Number(both!.a), Number(both!.b)], `${name}/${t.name}`).toEqual([0, 0]);
    }
  });

  it('no file per tiny partition: one ZSTD file per partition, in declared order', async () => {
    for (const name of BUILT) {
      for (const t of manifest.datasets[name]!.tables) {
        const files = parquetFiles(join(lake, t.path));
        const byDir = new Map<string, number>();
        for (const f of files) byDir.set(JSON.stringify(f.values), (byDir.get(JSON.stringify(f.values)) ?? 0) + 1);
        expect([...byDir.values()].every((n) => n === 1), `${name}/${t.name}`).toBe(true);
        expect(files.length).toBe(Math.max(1, t.partitions.length));
        for (const f of files) {
          const meta = await parquetMetadataAsync(await asyncBufferFromFile(f.file));
          const codecs = new Set(meta.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec)));
          expect([...codecs], f.file).toEqual(['ZSTD']);
        }
      }
    }
    // order: price paid by postcode within each year, MOT tests by make then model within each year
    for (const [d, t, cols] of [
      ['price-paid', 'price_paid', ['postcode']], ['mot', 'mot_tests', ['make', 'model']], ['vehicle-licensing', 'licensing', ['make']],
      ['crime', 'street', ['lsoa_code']], ['crime', 'outcomes', ['crime_id']], ['energy-price-cap', 'rates', ['period_id', 'region_code', 'fuel', 'payment_method', 'meter']],
    ] as const) {
      for (const f of parquetFiles(join(lake, manifest.datasets[d]!.tables.find((x) => x.name === t)!.path))) {
        const rows = await hyparquetRows(join(f.file, '..'));
        const keys = rows.map((r) => cols.map((c) => (r[c] === null || r[c] === undefined ? '\uffff' : String(r[c]))));
        const sorted = [...keys].sort((a, b) => (a.join('\u0000') < b.join('\u0000') ? -1 : a.join('\u0000') > b.join('\u0000') ? 1 : 0));
        expect(keys, f.file).toEqual(sorted);
      }
    }
  });

  it('the five later domains hold their fixture files\' rows, counted from the files (hyparquet)', async () => {
    const lakeRows = (d: string, t: string) => hyparquetRows(join(lake, manifest.datasets[d]!.tables.find((x) => x.name === t)!.path));
    // crime: street partitioned by month, one directory a month; the rows of each month's real files
    const street = await lakeRows('crime', 'street');
    const perMonth = new Map<string, number>();
    for (const r of street) perMonth.set(String(r.month), (perMonth.get(String(r.month)) ?? 0) + 1);
    expect([...perMonth.entries()].sort()).toEqual([
      ['2024-01', rowsOf(FILES.city2401new).length + rowsOf(FILES.surrey2401).length],
      ['2025-05', rowsOf(FILES.city2505).length],
    ]);
    expect(parquetFiles(join(lake, 'crime', 'street')).map((f) => f.values)).toEqual([{ month: '2024-01' }, { month: '2025-05' }]);
    const met = rowsOf(FILES.met2401outcomes);
    const outcomes = await lakeRows('crime', 'outcomes');
    expect(outcomes.length).toBe(met.length);
    expect(new Set(outcomes.map((r) => r.crime_id))).toEqual(new Set(met.map((r) => r['Crime ID'])));
    // loads: one row per month and force of the files given (the 2024-01 archive's three forces, then the lone 2025-05 file)
    const loads = (await lakeRows('crime', 'loads')).map((r) => `${String(r.month)} ${String(r.force)}`).sort();
    expect(loads).toEqual(['2024-01 city-of-london', '2024-01 metropolitan', '2024-01 surrey', '2025-05 city-of-london']);
    // food hygiene: one row per <FHRSID> of the four real FSA files (no establishment is in two of them)
    const xml = readdirSync(join(FIXTURE_DIR, 'food-hygiene')).filter((f) => f.endsWith('.xml'));
    const fhrs = xml.flatMap((f) => [...readFileSync(join(FIXTURE_DIR, 'food-hygiene', f), 'utf8').matchAll(/<FHRSID>(\d+)<\/FHRSID>/g)].map((m) => m[1]!));
    const est = await lakeRows('food-hygiene', 'establishments');
    expect(est.map((r) => String(r.fhrs_id)).sort()).toEqual([...fhrs].sort());
    expect((await lakeRows('food-hygiene', 'authorities')).map((r) => r.code).sort()).toEqual(xml.map((f) => /^FHRS(\d+)/.exec(f)![1]).sort());
    // schools: one row per data line of the GIAS and MI files (lines counted, header off)
    const lines = (f: string) => readFileSync(join(FIXTURE_DIR, 'schools', f), 'latin1').split(/\r?\n/).filter((l) => l.trim() !== '').length - 1;
    expect((await lakeRows('schools', 'schools')).length).toBe(lines('GENERATED-gias-leeds-rows.csv'));
    const inspections = await lakeRows('schools', 'inspections');
    expect(inspections.length).toBe(lines('ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'));
    // both declared stored in urn order (the loads' ORDER BY urn): each single file ascends numerically
    for (const rows of [await lakeRows('schools', 'schools'), inspections]) {
      const urns = rows.map((r) => Number(r.urn));
      expect(urns).toEqual([...urns].sort((a, b) => a - b));
    }
    // energy: the generated model's 6 periods x 14 regions x 9 fuel/meter/payment combinations (nil and benchmark levels)
    expect((await lakeRows('energy-price-cap', 'periods')).length).toBe(6);
    expect((await lakeRows('energy-price-cap', 'rates')).length).toBe(6 * 14 * 9);
    expect((await lakeRows('energy-price-cap', 'levels')).length).toBe(6 * 14 * 9 * 2);
    // earnings: one source row (Table 8, annual gross, 2020) and every row from that file
    const src = await lakeRows('earnings', 'earnings_sources');
    expect(src.map((r) => [r.ons_table, r.measure, Number(r.year)])).toEqual([['8', 'annual_gross', 2020]]);
    const earn = await lakeRows('earnings', 'earnings');
    expect(earn.length).toBe(Number(src[0]!.rows));
    expect(new Set(earn.map((r) => Number(r.year)))).toEqual(new Set([2020]));
  });
});
