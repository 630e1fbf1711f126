/**
 * Issue 21 item 2 for MOT: `--from` files of another test year are ADDED to the years in the mirror
 * (`--replace` replaces). GENERATED format-true files (test/vehicles/mot-fixture.ts, the 2022/2023 pipe
 * layout); expected counts and aggregates computed with plain JS.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import { expectedPassRates, generateMot, itemDetailCsv, itemGroupCsv, itemsCsv, RESULT_LABEL, resultsCsv, type MotResult } from '../vehicles/mot-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const h = useUpstreamServer('pd-mot-add-');
const kept = (rs: MotResult[]) => rs.filter((x) => RESULT_LABEL[x.test_result]);

describe('sync mot --from another year', () => {
  it('adds the year to those there; --replace replaces them', async () => {
    const y23 = generateMot(2023, 300, 7);
    const y22 = generateMot(2022, 200, 9);
    const dir = tempDir('pd-mot-add-src-');
    const files: Record<string, string> = {
      'test_result_2023.csv': resultsCsv(y23.results, '2023'),
      'test_item_2023.csv': itemsCsv(y23.items, '2023'),
      'test_result_2022.csv': resultsCsv(y22.results, '2023'),
      'test_item_2022.csv': itemsCsv(y22.items, '2023'),
      'item_detail.csv': itemDetailCsv(),
      'item_group.csv': itemGroupCsv(),
    };
    for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
    const p = (...n: string[]) => n.map((x) => join(dir, x));
    const o = h.syncOptions();
    const first = await syncDataset('mot', { ...o, from: p('test_result_2023.csv', 'test_item_2023.csv', 'item_detail.csv', 'item_group.csv') });
    expect(first).toMatchObject({ status: 'synced', mode: 'full', rows_total: kept(y23.results).length });
    // 2022 without the lookups: added, the previous lookups describe its items
    const added = await syncDataset('mot', { ...o, from: p('test_result_2022.csv', 'test_item_2022.csv') });
    expect(added).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added', rows_loaded: kept(y22.results).length });
    expect(added.rows_total).toBe(kept(y22.results).length + kept(y23.results).length);
    expect(added.note).toMatch(/kept the years already there: 2023/);
    const path = added.path!;
    expect(await sqlOn(path, 'SELECT test_year::INTEGER AS y, tests::INTEGER AS t FROM mot_years ORDER BY 1')).toEqual([
      { y: 2022, t: kept(y22.results).length }, { y: 2023, t: kept(y23.results).length },
    ]);
    const pr = await sqlOn(path, 'SELECT test_year, make, model, fuel_type, first_use_year_band, vehicle_age_band, tests, passes FROM mot_pass_rates');
    const got = new Map(pr.map((r) => [[r.test_year, r.make, r.model, r.fuel_type, r.first_use_year_band, r.vehicle_age_band].join('|'), { tests: r.tests, passes: r.passes }]));
    expect(got).toEqual(expectedPassRates([...y22.results, ...y23.results]));
    const fy = await sqlOn(path, 'SELECT DISTINCT test_year::INTEGER AS y FROM mot_failures ORDER BY 1');
    expect(fy.map((r) => r.y)).toEqual([2022, 2023]);
    expect(await sqlOn(path, 'SELECT count(*)::INTEGER AS n FROM mot_item_detail')).toEqual([{ n: itemDetailCsv().trim().split('\n').length - 1 }]);
    // --replace: only the files given
    const rep = await syncDataset('mot', { ...o, from: p('test_result_2022.csv', 'test_item_2022.csv', 'item_detail.csv', 'item_group.csv'), replace: true });
    expect(rep).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: kept(y22.results).length });
    expect(await sqlOn(path, 'SELECT DISTINCT test_year::INTEGER AS y FROM mot_tests')).toEqual([{ y: 2022 }]);
  });
});
