/**
 * A quote left open in a DVSA MOT results or items file (read leniently: DuckDB takes the lines after it in
 * as one field): refused by name with the lines taken in, not rows or items silently missing
 * (sync/open-quote.ts). Real sync (`sync mot --from`), real DuckDB, the REAL dvsa-mot excerpts repeated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { fixturesOf } from '../support/mirror-helper.js';
import { countOf, fileWriter, openBefore, refusedKeeping, repeated, syncedAnswering, type OpenQuoteCase } from '../support/open-quote.js';

const fileWith = fileWriter('mot-open-quote');
const WHAT = 'DVSA MOT file';
const WHY = 'the MOT files have one test or item a line';
const real = (name: string) => readFileSync(join(fixturesOf('vehicles'), 'dvsa-mot', name), 'utf8');

describe('mot: a quote left open is refused by name; the previous data answers', () => {
  it('in a results file: in test_id (a rejected row), in make (a row that passes): one line, the file, the lines taken in', async () => {
    // 2,300 copies of the 9 real rows of the 2020 release (comma, unquoted): 20,701 lines, past DuckDB's
    // sniffer sample (20,480 lines); the 200 lines after the quote (~17 KB) fit in one field
    const NAME = 'dft_test_result-from-2020-10-01-head.csv';
    const lines = repeated(real(NAME), 2300);
    const env = isolatedEnv();
    const mot: OpenQuoteCase = {
      dataset: 'mot', name: NAME, what: WHAT, why: WHY,
      sync: (text) => runCli(['sync', 'mot', '--from', fileWith(NAME, text)], { env }),
      count: () => countOf(env, 'SELECT count(*)::INTEGER AS n FROM mot_tests'),
    };
    expect(lines).toHaveLength(20_701);
    await syncedAnswering(mot, lines.join(''), 20_700);
    // line 20,501's test_id: the row takes in the 200 lines after it and is one reject, "invalid test_id",
    // under the 0.1% threshold (before: 20,499 of 20,700 tests loaded, 1 rejected)
    expect(await refusedKeeping(mot, openBefore(lines, 20_500, 1), 20_700)).toBe(201);
    // its make: test_id and test_date parse, so the row passed with a 201-line make (before: 20,500 tests
    // loaded, none rejected)
    expect(await refusedKeeping(mot, openBefore(lines, 20_500, 9), 20_700)).toBe(201);
    // the previous rows answer: the real first row, once a copy
    expect(await countOf(env, "SELECT count(*)::INTEGER AS n FROM mot_tests WHERE test_id = 840415303 AND make = 'FORD' AND model = 'TRANSIT' AND mileage = 36788 AND test_date = DATE '2020-10-01'")).toBe(2300);
  }, 60_000);

  it('in an items file (no row check: the items taken in were dropped with no reject): one line, the file, the lines taken in', async () => {
    // the real 2023 sample lines (pipe): 3 results, the lookups, and 4,100 copies of the 5 real items with
    // their test_id re-keyed onto the 3 real results in turn (the sample's items and results share no test):
    // 20,501 lines
    const results = real('test_result.csv');
    const ids = results.split('\n').slice(1).filter(Boolean).map((l) => l.split('|')[0]!);
    const [header, ...items] = repeated(real('test_item.csv'), 4100);
    const lines = [header!, ...items.map((l, i) => l.replace(/^\d+\|/, `${ids[i % 3]}|`))];
    expect(lines).toHaveLength(20_501);
    const env = isolatedEnv();
    const fixed = ['test_result.csv', 'item_detail.csv', 'item_group.csv'].flatMap((n) => ['--from', fileWith(n, real(n))]);
    const mot: OpenQuoteCase = {
      dataset: 'mot', name: 'test_item.csv', what: WHAT, why: WHY,
      sync: (text) => runCli(['sync', 'mot', ...fixed, '--from', fileWith('test_item.csv', text)], { env }),
      count: () => countOf(env, 'SELECT sum(items)::INTEGER AS n FROM mot_years'),
    };
    await syncedAnswering(mot, lines.join(''), 20_500);
    // line 20,301's rfr_id: the row takes in the 200 lines after it (before: 20,300 of 20,500 items counted,
    // no reject, the sync succeeded)
    expect(await refusedKeeping(mot, openBefore(lines, 20_300, 2, '|'), 20_500)).toBe(201);
    // the previous failures answer: the advisories (A) keyed onto the first real test, the Toyota Prius +
    // (2,733: counted from the lines here)
    const advisories = lines.slice(1).filter((l) => l.startsWith(`${ids[0]}|`) && l.split('|')[2] === 'A').length;
    expect(advisories).toBe(2733);
    expect(await countOf(env, "SELECT sum(failures)::INTEGER AS n FROM mot_failures WHERE make = 'TOYOTA' AND model = 'PRIUS +' AND rfr_type = 'advisory'")).toBe(advisories);
  }, 60_000);
});
