/**
 * Test support for `mirror export`: one mirror holding every dataset that has a fixture builder today
 * (the same builders the domain tests use: real excerpts, or generated format-true files), and two
 * independent readers of an exported lake: DuckDB (cold, a new in-memory instance, hive_partitioning)
 * and hyparquet (pure JS, ZSTD through hyparquet-compressors) with the partition values taken from the paths.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { syncDataset } from '../../sync/framework.js';
import { buildTwoMonths, chFixture, GENERATED_LINES, REAL_LINES } from '../companies/fixture.js';
import { buildDataset, FIXTURES } from '../property/mirror-helper.js';
import { buildOds } from '../property/ods-fixture.js';
import { generateMot, itemDetailCsv, itemGroupCsv, itemsCsv, resultsCsv } from '../vehicles/mot-fixture.js';
import { writeStats19Year } from '../vehicles/stats19-fixture.js';
import { REAL, writeAadfZip, writeRoadTypeFile } from '../vehicles/traffic-fixture.js';
import { generateVeh, vehCsv } from '../vehicles/veh-fixture.js';
import { archive, bytesOf, FILES, month2401 } from '../crime/fixture.js';
// @ts-expect-error plain ESM generator shared with the bench
import { generateLevelsWorkbook } from '../../bench/lib/energy-workbook.mjs';

/** Datasets built by buildAll (every dataset with a fixture builder in test/ today). */
export const BUILT = [
  'price-paid', 'hpi', 'council-tax', 'listed-buildings', 'conservation-areas', 'bank-holidays',
  'companies', 'psc', 'accounts', 'vehicle-licensing', 'mot', 'road-safety', 'road-traffic',
  'crime', 'food-hygiene', 'schools', 'energy-price-cap', 'earnings',
] as const;

const sync = (name: string, mirror: string, src: string, from: string | string[], extra: Record<string, unknown> = {}) =>
  syncDataset(name as never, { mirrorDir: mirror, cacheDir: join(src, 'cache'), env: {}, from, ...extra });

/** Build every dataset into `<dir>/mirror` through the real sync framework; returns the mirror directory. */
export async function buildAll(dir: string): Promise<string> {
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  // companies first: its helper makes <dir>/mirror itself (two monthly syncs, one company departs)
  const mirror = await buildTwoMonths(dir, [...REAL_LINES, ...GENERATED_LINES]);
  await buildDataset('price-paid', join(FIXTURES, 'land-registry-ppd', 'pp-complete.csv'), mirror);
  await buildDataset('hpi', join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv'), mirror);
  const ods = join(src, 'Tables_1-9_2026-27.ods');
  writeFileSync(ods, buildOds());
  await buildDataset('council-tax', ods, mirror);
  await buildDataset('listed-buildings', join(FIXTURES, 'planning-data', 'listed-building.csv'), mirror);
  await buildDataset('conservation-areas', join(FIXTURES, 'planning-data', 'conservation-area.csv'), mirror);
  await buildDataset('bank-holidays', join(FIXTURES, 'bank-holidays', 'bank-holidays.json'), mirror);
  const psc = join(src, 'persons-with-significant-control-snapshot-2026-11-20.txt');
  writeFileSync(psc, readFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), 'utf8'));
  await buildDataset('psc', psc, mirror);
  await sync('accounts', mirror, src, join(FIXTURES, 'companies-house', 'accounts', 'Accounts_Bulk_Data-2023-03-02.zip'));
  const veh = join(src, 'veh');
  mkdirSync(veh);
  for (const [name, table, geo, rows, seed] of [
    ['df_VEH0120_GB.csv', 'licensing', 'GB', 300, 21], ['df_VEH0120_UK.csv', 'licensing', 'UK', 150, 22],
    ['df_VEH0160_GB.csv', 'registrations', 'GB', 150, 23], ['df_VEH0160_UK.csv', 'registrations', 'UK', 90, 24],
  ] as const) writeFileSync(join(veh, name), vehCsv(generateVeh(table, geo, rows, seed)));
  await sync('vehicle-licensing', mirror, src, veh);
  const mot = join(src, 'mot');
  mkdirSync(mot);
  const y24 = generateMot(2024, 800, 3);
  const y25 = generateMot(2025, 1200, 9);
  const motFiles: Record<string, string> = {
    'dft_test_result_extract_202401.csv': resultsCsv(y24.results, '2024'),
    'dft_test_item_extract_202401.csv': itemsCsv(y24.items, '2024'),
    'dft_test_result_extract_202501.csv': resultsCsv(y25.results, '2025'),
    'dft_test_item_extract_202501.csv': itemsCsv(y25.items, '2025'),
    'item_detail.csv': itemDetailCsv(),
    'item_group.csv': itemGroupCsv(),
  };
  for (const [n, t] of Object.entries(motFiles)) writeFileSync(join(mot, n), t);
  await sync('mot', mirror, src, Object.keys(motFiles).map((n) => join(mot, n)));
  const rs = join(src, 'stats19');
  mkdirSync(rs);
  writeStats19Year(rs, 2021);
  writeStats19Year(rs, 2022);
  await sync('road-safety', mirror, src, rs, { years: { from: 2021, to: 2022 } });
  const rt = join(src, 'traffic');
  mkdirSync(rt);
  await writeAadfZip(join(rt, 'dft_traffic_counts_aadf.zip'));
  writeRoadTypeFile(join(rt, 'region_traffic_by_road_type.csv'), [2019, 2020]);
  await sync('road-traffic', mirror, src, [join(rt, 'dft_traffic_counts_aadf.zip'), REAL.regional2025, join(rt, 'region_traffic_by_road_type.csv'), REAL.localAuthority]);
  await buildNewDomains(mirror, src);
  return mirror;
}

const TEST_FIXTURES = join(__dirname, '..', 'fixtures');

/** The five later domains, from the fixtures their own tests use (test/fixtures/<domain>/). */
async function buildNewDomains(mirror: string, src: string): Promise<void> {
  // Crime: the real 2024-01 City and Surrey street files and Met outcomes in an archive (zip built here),
  // then the real 2025-05 City street file as a lone member CSV: two months, so two `month` partitions.
  const cr = join(src, 'crime');
  mkdirSync(cr);
  writeFileSync(join(cr, 'latest.zip'), await archive(month2401('new')));
  await sync('crime', mirror, src, join(cr, 'latest.zip'));
  writeFileSync(join(cr, '2025-05-city-of-london-street.csv'), bytesOf(FILES.city2505));
  await sync('crime', mirror, src, join(cr, '2025-05-city-of-london-street.csv'));
  // Food hygiene: the four real FSA files; schools: the generated GIAS rows of the real Leeds MI schools and the real MI rows.
  await sync('food-hygiene', mirror, src, join(TEST_FIXTURES, 'food-hygiene'));
  await sync('schools', mirror, src, ['GENERATED-gias-leeds-rows.csv', 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'].map((f) => join(TEST_FIXTURES, 'schools', f)));
  // Energy: a GENERATED format-true levels-model workbook (bench/lib/energy-workbook.mjs), as test/energy uses.
  const wb = join(src, 'energy-price-cap-levels-pre-levelised-rates-model.xlsx');
  writeFileSync(wb, (generateLevelsWorkbook() as { buffer: Buffer }).buffer);
  await sync('energy-price-cap', mirror, src, wb);
  // Earnings: the real ONS ASHE Table 8.7a 2020 workbook.
  await sync('earnings', mirror, src, join(TEST_FIXTURES, 'earnings', 'Home Geography Table 8.7a   Annual pay - Gross 2020.xls'));
}

/** Every .parquet file under a table directory with the Hive values of its path. */
export function parquetFiles(tableDir: string): Array<{ file: string; values: Record<string, string> }> {
  const out: Array<{ file: string; values: Record<string, string> }> = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      if (n.startsWith('.') || n.startsWith('_')) continue; // hidden, as Spark, Hive and Trino skip them
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.parquet')) {
        const segs = relative(tableDir, d).split(sep).filter(Boolean);
        out.push({ file: p, values: Object.fromEntries(segs.map((s) => [s.slice(0, s.indexOf('=')), decodeURIComponent(s.slice(s.indexOf('=') + 1))])) });
      }
    }
  };
  walk(tableDir);
  return out;
}

/** All rows of a lake table read by hyparquet (no DuckDB), partition values added from the paths (as text). */
export async function hyparquetRows(tableDir: string): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const { file, values } of parquetFiles(tableDir)) {
    const data = (await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors })) as Array<Record<string, unknown>>;
    for (const r of data) rows.push({ ...r, ...values });
  }
  return rows;
}

/** Run SQL on a fresh in-memory DuckDB (a cold reader: nothing cached from the export). */
export async function coldDuck<T = Record<string, unknown>>(sql: string, setup: string[] = []): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    for (const s of setup) await c.run(s);
    return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}
