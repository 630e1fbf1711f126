/**
 * mot sync from a local HTTP server, with GENERATED format-true files (test/vehicles/mot-fixture.ts): the
 * 2025 layout (zip64, stored monthly members, backslash-escaped quotes, 15 columns), the 2024 layout
 * (duplicate header rows inside the members, __MACOSX junk), the 2023 pipe layout as extracted members,
 * and a Deflate64 zip (clear error, previous data kept). Expected values are computed with plain JS.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { buildZip, patchMethod } from '../support/zip.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import {
  expectedFailures, expectedPassRates, generateMot, itemDetailCsv, itemGroupCsv, itemsCsv, resultsCsv, RESULT_LABEL, type MotResult,
} from '../vehicles/mot-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const h = useUpstreamServer('pd-mot-');

const y2025 = generateMot(2025, 1200, 5);
const y2024 = generateMot(2024, 600, 6);
const half = (xs: MotResult[], m: number) => xs.filter((x) => (Number(x.test_date.slice(5, 7)) <= 6) === (m === 1));

async function lookupZip(): Promise<Buffer> {
  return buildZip([
    { name: 'item_detail.csv', data: itemDetailCsv() },
    { name: 'item_group.csv', data: itemGroupCsv() },
    { name: 'mdr_fuel_types.csv', data: 'type_code|fuel_type\nPE|Petrol\n' },
  ]);
}
async function zip2025(kind: 'result' | 'item'): Promise<Buffer> {
  const dir = `dft_test_${kind}_extracts_2025`;
  const ids = (m: number) => new Set(half(y2025.results, m).map((x) => x.test_id));
  const part = (m: number) =>
    kind === 'result' ? resultsCsv(half(y2025.results, m), '2025') : itemsCsv(y2025.items.filter((i) => ids(m).has(i.test_id)), '2025');
  return buildZip(
    [
      { name: `${dir}/dft_test_${kind}_extract_202501.csv`, data: part(1), compress: false },
      { name: `${dir}/dft_test_${kind}_extract_202507.csv`, data: part(2), compress: false },
      { name: `__MACOSX/${dir}/._dft_test_${kind}_extract_202501.csv`, data: 'junk', compress: false },
    ],
    { zip64: true },
  );
}

async function serve(base: string): Promise<void> {
  h.server.set(`${base}/files/lookup.zip`, await lookupZip(), { contentType: 'application/zip' });
  h.server.set(`${base}/files/dft_test_result_extracts_2025.zip`, await zip2025('result'), { contentType: 'application/zip' });
  h.server.set(`${base}/files/dft_test_item_extracts_2025.zip`, await zip2025('item'), { contentType: 'application/zip' });
  h.server.set(
    `${base}/files/MOT+testing+data+results+(2024).zip`,
    await buildZip([
      { name: 'test_result_202401.csv', data: resultsCsv(y2024.results, '2024', 97) },
      { name: '__MACOSX/._test_result_202401.csv', data: 'junk' },
    ]),
    { contentType: 'application/zip' },
  );
  h.server.set(
    `${base}/files/MOT+Testing+data+failure+item+(2024).zip`,
    await buildZip([{ name: 'test_item_202401.csv', data: itemsCsv(y2024.items, '2024', 53) }]),
    { contentType: 'application/zip' },
  );
  const links = ['lookup.zip', 'dft_test_result_extracts_2025.zip', 'dft_test_item_extracts_2025.zip', 'MOT+testing+data+results+(2024).zip', 'MOT+Testing+data+failure+item+(2024).zip'];
  h.server.set(
    `${base}/mot-anonymised/`,
    `<html><body><ul>${links.map((l) => `<li><a href="${base}/files/${l}">${l}</a></li>`).join('')}</ul></body></html>`,
    { contentType: 'text/html' },
  );
}

const kept = (rs: MotResult[]) => rs.filter((x) => RESULT_LABEL[x.test_result]);

async function checkAggregates(path: string, results: MotResult[], items: typeof y2025.items): Promise<void> {
  const pr = await sqlOn(path, 'SELECT test_year, make, model, fuel_type, first_use_year_band, vehicle_age_band, tests, passes FROM mot_pass_rates');
  const got = new Map(pr.map((r) => [[r.test_year, r.make, r.model, r.fuel_type, r.first_use_year_band, r.vehicle_age_band].join('|'), { tests: r.tests, passes: r.passes }]));
  expect(got).toEqual(expectedPassRates(results));
  const fl = await sqlOn(path, 'SELECT test_year, make, model, rfr_type, defect_category, defect_description, dangerous, failures, affected_tests FROM mot_failures');
  const gotF = new Map(fl.map((r) => [[r.test_year, r.make, r.model, r.rfr_type, r.defect_category, r.defect_description, r.dangerous].join('|'), { failures: r.failures, affected_tests: r.affected_tests }]));
  const want = new Map([...expectedFailures(results, items)].map(([k, v]) => [k.replace(/\|null\|/g, '||'), { failures: v.failures, affected_tests: v.tests.size }]));
  expect(new Map([...gotF].map(([k, v]) => [k.replace(/\|null\|/g, '||'), v]))).toEqual(want);
}

describe('mot sync', () => {
  it('2025: discovers the newest year, reads stored zip64 members with backslash-escaped quotes, aggregates', async () => {
    await serve('/mot');
    const o = h.syncOptions();
    const r = await syncDataset('mot', { ...o, env: { PUBLICDATA_UPSTREAM_MOT: `${h.server.url}/mot` } });
    expect(r.files.map((f) => f.name)).toEqual(['lookup.zip', 'dft_test_result_extracts_2025.zip', 'dft_test_item_extracts_2025.zip']);
    const want = kept(y2025.results);
    expect(r.rows_loaded).toBe(want.length);
    expect(r.rows_rejected).toBe(0);
    const path = r.path!;
    // the escaped-quote models arrive whole, and the rows after them are not lost
    const q = await sqlOn(path, "SELECT model, count(*) AS n FROM mot_tests WHERE make = 'STREETZONE' GROUP BY model ORDER BY model");
    const wantQ = new Map<string, number>();
    for (const x of want.filter((x) => x.make === 'STREETZONE')) wantQ.set(x.model, (wantQ.get(x.model) ?? 0) + 1);
    expect(q).toEqual([...wantQ].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([model, n]) => ({ model, n })));
    expect([...wantQ.keys()]).toContain('STREETZONE 50 2T 12"');
    // one row in full: labels, unknown mileage and first use as null, no vehicle id
    const x = want.find((t) => t.test_mileage === '0' && t.first_use_date === '1971-01-01') ?? want.find((t) => t.test_mileage === '0')!;
    const [row] = await sqlOn(path, 'SELECT * FROM mot_tests WHERE test_id = ?', [x.test_id]);
    expect(row).toMatchObject({
      test_id: x.test_id, test_date: x.test_date, test_year: 2025, test_class: x.test_class_id, result: RESULT_LABEL[x.test_result],
      mileage: null, postcode_area: x.postcode_area, make: x.make, model: x.model,
    });
    expect(Object.keys(row!)).not.toContain('vehicle_id');
    const nulls = await sqlOn(path, "SELECT count(*) AS n FROM mot_tests WHERE first_use_date = DATE '1971-01-01' OR mileage = 0");
    expect(nulls[0]!.n).toBe(0);
    await checkAggregates(path, y2025.results, y2025.items);
  });

  it('2024 (--years): duplicate header rows inside members and __MACOSX junk are skipped', async () => {
    await serve('/mot24');
    const r = await syncDataset('mot', { ...h.syncOptions(), env: { PUBLICDATA_UPSTREAM_MOT: `${h.server.url}/mot24` }, years: { from: 2024, to: 2024 } });
    expect(r.files.map((f) => f.name)).toEqual(['lookup.zip', 'MOT+testing+data+results+(2024).zip', 'MOT+Testing+data+failure+item+(2024).zip']);
    expect(r.rows_loaded).toBe(kept(y2024.results).length);
    expect(r.rows_rejected).toBe(0);
    await checkAggregates(r.path!, y2024.results, y2024.items);
  });

  it('2023 pipe layout from extracted members given with --from', async () => {
    const y = generateMot(2023, 400, 7);
    const dir = tempDir('pd-mot-23-');
    const files = {
      'test_result_2023.csv': resultsCsv(y.results, '2023'),
      'test_item_2023.csv': itemsCsv(y.items, '2023'),
      'item_detail.csv': itemDetailCsv(),
      'item_group.csv': itemGroupCsv(),
    };
    for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
    const r = await syncDataset('mot', { ...h.syncOptions(), from: Object.keys(files).map((n) => join(dir, n)) });
    expect(r.rows_loaded).toBe(kept(y.results).length);
    await checkAggregates(r.path!, y.results, y.items);
  });

  it('the real excerpts: a 2020 comma extract and the 2023 pipe lookups load to the values they show', async () => {
    const fx = join(import.meta.dirname, '..', 'fixtures', 'vehicles', 'dvsa-mot');
    const dir = tempDir('pd-mot-real-');
    // the publisher's member name (the excerpt's file name says it is the head of that file)
    writeFileSync(join(dir, 'dft_test_result-from-2020-10-01_00-00-00-to-2021-01-01_00-00-00.csv'), readFileSync(join(fx, 'dft_test_result-from-2020-10-01-head.csv')));
    const r = await syncDataset('mot', {
      ...h.syncOptions(),
      from: [join(dir, 'dft_test_result-from-2020-10-01_00-00-00-to-2021-01-01_00-00-00.csv'), join(fx, 'item_detail.csv'), join(fx, 'item_group.csv')],
    });
    expect(r.rows_loaded).toBe(9);
    const rows = await sqlOn(r.path!, 'SELECT test_id, test_date, test_type, result, mileage, make, model, fuel_type, cylinder_capacity_cc, first_use_date FROM mot_tests ORDER BY test_id');
    expect(rows[0]).toEqual({
      test_id: 158039527, test_date: '2020-10-01', test_type: 'retest', result: 'passed', mileage: 93462, make: 'MERCEDES-BENZ', model: 'C',
      fuel_type: 'diesel', cylinder_capacity_cc: 2143, first_use_date: '2015-05-05',
    });
    expect(rows.find((x) => x.test_id === 584524387)).toMatchObject({ result: 'pass_with_rectification', mileage: 173053, model: 'CORSAVAN' });
    // pass rates: the 7 normal tests, one of them PRS (a pass)
    const pr = await sqlOn(r.path!, 'SELECT sum(tests) AS t, sum(passes) AS p FROM mot_pass_rates');
    expect(pr[0]).toEqual({ t: 7, p: 7 });
    const cat = await sqlOn(r.path!, 'SELECT defect_category FROM mot_defect_categories WHERE test_item_id = 3');
    expect(cat).toEqual([{ defect_category: 'Brakes' }]);
  });

  it('2005-2017 style gzip files (test_result_YYYY.txt.gz, pipe) are read as they are', async () => {
    const y = generateMot(2017, 300, 8);
    const dir = tempDir('pd-mot-17-');
    writeFileSync(join(dir, 'test_result_2017.txt.gz'), gzipSync(resultsCsv(y.results, '2023')));
    writeFileSync(join(dir, 'test_item_2017.txt.gz'), gzipSync(itemsCsv(y.items, '2023')));
    writeFileSync(join(dir, 'item_detail.csv'), itemDetailCsv());
    writeFileSync(join(dir, 'item_group.csv'), itemGroupCsv());
    const r = await syncDataset('mot', { ...h.syncOptions(), from: dir });
    expect(r.rows_loaded).toBe(kept(y.results).length);
    await checkAggregates(r.path!, y.results, y.items);
  });

  it('a Deflate64 zip fails with the unzip-and---from advice; the previous data keeps answering', async () => {
    await serve('/mot64');
    const o = { ...h.syncOptions(), env: { PUBLICDATA_UPSTREAM_MOT: `${h.server.url}/mot64` } };
    const first = await syncDataset('mot', o);
    h.server.set('/mot64/files/dft_test_result_extracts_2025.zip', patchMethod(await zip2025('result'), 9), { contentType: 'application/zip' });
    await expect(syncDataset('mot', { ...o, force: true })).rejects.toThrow(/Deflate64.*--from/s);
    const [n] = await sqlOn(first.path!, 'SELECT count(*) AS n FROM mot_tests');
    expect(n!.n).toBe(first.rows_loaded);
  });
});
