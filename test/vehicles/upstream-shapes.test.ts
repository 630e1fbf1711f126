/**
 * Issue 21 item 7 (moved from test/sync/upstream-shapes.test.ts: the vehicles datasets' own files): the publishers' real file layouts. road-safety years before 2019 come from DfT's
 * `-1979-latest-published-year` files; a fixed URL that 404s says what to pass to --from; MOT 2024 (published
 * twice) takes results and items from one publication. (`--years` checking each dataset's own first year: sync-scope.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { motLinks } from '../../src/domains/vehicles/sync/mot.js';
import { ds } from '../support/datasets.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import { writeStats19Year } from './stats19-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-shapes-');
const lineCount = (f: string) => readFileSync(f, 'utf8').trimEnd().split('\n').length - 1;

describe('road-safety --years before 2019', () => {
  it('reads the 1979-latest-published-year files, filtered to the years asked for', async () => {
    // the 2021 fixture files served under the whole-history names (they hold 2021 rows only)
    const src = tempDir('pd-shapes-src-');
    writeStats19Year(src, 2021);
    for (const f of readdirSync(src)) {
      up.server.setFile(`/road-safety/${f.replace('-2021.csv', '-1979-latest-published-year.csv')}`, join(src, f));
    }
    const o = up.syncOptions('2026-11-21T10:00:00Z');
    const before = up.server.requests.length;
    const r = await syncDataset('road-safety', { ...o, years: { from: 2015, to: 2021 } });
    expect(up.server.requests.slice(before).map((q) => q.path).sort()).toEqual(
      ['casualty', 'collision', 'vehicle'].map((k) => `/road-safety/dft-road-casualty-statistics-${k}-1979-latest-published-year.csv`),
    );
    const files = readdirSync(src).map((f) => join(src, f));
    expect(r.rows_loaded).toBe(files.reduce((n, f) => n + lineCount(f), 0));
    // --years 2015-2020 of the same files (2021 rows only): nothing of 2015-2020, so nothing is loaded
    const o2 = up.syncOptions('2026-11-21T10:00:00Z');
    await expect(syncDataset('road-safety', { ...o2, years: { from: 2015, to: 2020 } })).rejects.toThrow(/no collision rows were loaded/);
    const y = await sqlOn(join(o.mirrorDir, 'road_safety.duckdb'), 'SELECT min(collision_year)::INTEGER AS lo, max(collision_year)::INTEGER AS hi FROM collisions');
    expect(y).toEqual([{ lo: 2021, hi: 2021 }]);
  });

  it('a fixed URL that is not there names the publisher page and --from', async () => {
    const o = up.syncOptions('2026-11-21T10:00:00Z');
    await expect(syncDataset('road-safety', { ...o, years: { from: 2024, to: 2024 } })).rejects.toThrow(
      new RegExp(`HTTP 404; the file is not at that address .*download it from ${ds('road-safety').sourceUrl.replace(/[.]/g, '\\.')} and run 'publicdata sync road-safety --from <the file>'`),
    );
  });
});

describe('MOT 2024, published twice', () => {
  it('results and items from the newer publication (the extracts), never one of each', () => {
    const base = 'https://example.test/mot/';
    const page = [
      'MOT+testing+data+results+(2024).zip', 'dft_test_result_extracts_2024.zip', 'dft_test_item_extracts_2024.zip',
      'MOT+Testing+data+failure+item+(2024).zip', 'dft_test_result_2023.zip', 'dft_test_item_2023.zip', 'lookup.zip',
    ].map((n) => `<a href="${n}">${n}</a>`).join('\n');
    const found = motLinks(page, base);
    expect(found.years.get(2024)).toEqual({ results: `${base}dft_test_result_extracts_2024.zip`, items: `${base}dft_test_item_extracts_2024.zip` });
    expect(found.years.get(2023)).toEqual({ results: `${base}dft_test_result_2023.zip`, items: `${base}dft_test_item_2023.zip` });
    // only the older publication listed: both from it
    const older = motLinks('<a href="MOT+Testing+data+failure+item+(2024).zip">i</a><a href="MOT+testing+data+results+(2024).zip">r</a>', base);
    expect(older.years.get(2024)).toEqual({ results: `${base}MOT+testing+data+results+(2024).zip`, items: `${base}MOT+Testing+data+failure+item+(2024).zip` });
  });

  it("every MOT answer's source_url is DVSA's current publication page", () => {
    expect(ds('mot').sourceUrl).toBe('https://open.data.dvsa.gov.uk/mot-anonymised/');
  });
});
