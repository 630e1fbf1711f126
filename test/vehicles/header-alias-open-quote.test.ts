/**
 * A quote left open in a file of a header-alias reader (header-alias.ts), STATS19 or DfT road traffic (read
 * leniently: DuckDB takes the lines after it in as one field): refused by name with the lines taken in, not
 * rows silently missing (sync/open-quote.ts). Real syncs (`sync road-safety|road-traffic --from`), real
 * DuckDB, the REAL 2021 collision excerpt and the REAL regional file (1993-2021 release: BOM, CRLF) repeated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { fixturesOf } from '../support/mirror-helper.js';
import { countOf, expectOpenedRefused, fileWriter, repeated, type OpenQuoteCase } from '../support/open-quote.js';

const fileWith = fileWriter('header-alias-open-quote');
const env = isolatedEnv();

/** The real file `dir/name`, its header then `copies` copies of its rows, `renumber(row, j)` giving copy j's row. */
function copies(dir: string, name: string, n: number, renumber: (row: string, j: number) => string): string[] {
  const [header, ...rows] = repeated(readFileSync(join(fixturesOf('vehicles'), dir, name), 'utf8'), 1);
  return [header!, ...Array.from({ length: n }, (_, j) => rows.map((l) => renumber(l, j))).flat()];
}

/** The sync of `dataset` from a file `name` of the text given; `table`'s rows. */
const caseOf = (dataset: string, name: string, what: string, why: string, table: string): OpenQuoteCase => ({
  dataset, name, what, why,
  sync: (text) => runCli(['sync', dataset, '--from', fileWith(name, text)], { env }),
  count: () => countOf(env, `SELECT count(*)::INTEGER AS n FROM ${table}`),
});

describe('header-alias readers: a quote left open is refused by name; the previous data answers', () => {
  it('road-safety: in the date (a rejected row), the LSOA (a row that passes): one line, the file, the lines taken in', async () => {
    // 700 copies of the 30 real collisions (comma, unquoted), copy j's collision_index ending in j as three
    // digits (one row a collision): 21,001 lines, past DuckDB's sniffer sample (20,480 lines); the 200 lines
    // after the quote (~46 KB) fit in one field
    const NAME = 'dft-road-casualty-statistics-collision-2021.csv';
    const lines = copies('stats19', NAME, 700, (l, j) => l.replace(/^(\w+),/, `$1${String(j).padStart(3, '0')},`));
    expect(new Set(lines.map((l) => l.split(',')[0])).size).toBe(21_001);
    // line 20,801's date (field 12, required): the row takes in the 200 lines after it, its date does not
    // parse, one reject under the 1% threshold (before: 20,799 of 21,000 collisions loaded, 1 rejected);
    // its LSOA (field 40, text): the fields after it are blank, which they may be, so the row passed with a
    // 201-line LSOA (before: 20,800 collisions loaded, none rejected)
    const stats19 = caseOf('road-safety', NAME, 'STATS19 CSV', 'STATS19 files have one collision, vehicle or casualty a line', 'collisions');
    await expectOpenedRefused(stats19, lines, 21_000, [[20_800, 12], [20_800, 40]], 201);
    // the previous rows answer: the real first collision (Hartlepool, 7 July 2021), copy 0
    expect(await countOf(env, "SELECT count(*)::INTEGER AS n FROM collisions WHERE collision_index = '2021170H10581000' AND collision_date = DATE '2021-07-07' AND collision_time = '12:30:00' AND lsoa_of_accident_location = 'E01011992'")).toBe(1);
  }, 60_000);

  it('road-traffic: in the year (a rejected row), the region name (a row that passes): one line, the file, the lines taken in', async () => {
    // 70 copies of the 300 real rows (comma, unquoted, CRLF), copy j's region_id plus 100 j (identical rows
    // are one row in the table): 21,001 lines, past the sniffer sample; the 200 lines after the quote
    // (~21 KB) fit in one field
    const NAME = 'region_traffic_by_vehicle_type.csv';
    const lines = copies('dft-road-traffic', NAME, 70, (l, j) => l.replace(/^(\d+),(\d+),/, (_m, y: string, r: string) => `${y},${Number(r) + 100 * j},`));
    expect(lines).toHaveLength(21_001);
    // line 20,801's year (field 1, required): the row takes in the 200 lines after it, its year does not
    // parse, one reject under the 1% threshold (before: 20,799 of 21,000 rows loaded, 1 rejected); its
    // region name (field 3, required text): the numbers after it are blank, which they may be, so the row
    // passed with a 201-line name (before: 20,800 rows loaded, none rejected)
    const traffic = caseOf('road-traffic', NAME, 'DfT road traffic CSV', 'the road traffic files have one count point or area and year a line', 'regional_vehicle_type');
    await expectOpenedRefused(traffic, lines, 21_000, [[20_800, 1], [20_800, 3]], 201);
    // the previous rows answer: the real South West 1993 row, copy 0
    expect(await countOf(env, "SELECT count(*)::INTEGER AS n FROM regional_vehicle_type WHERE year = 1993 AND region_id = 1 AND region_name = 'South West' AND region_ons_code = 'E12000009' AND all_motor_vehicles = 23856559510")).toBe(1);
  }, 60_000);
});
