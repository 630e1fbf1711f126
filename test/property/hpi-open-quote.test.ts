/**
 * A quote left open in a UK HPI full file (read leniently: DuckDB takes the lines after it in as one
 * field): refused by name with the lines taken in, not one reject (or none) standing for them
 * (sync/open-quote.ts). Real sync (`sync hpi --from`), real DuckDB, the REAL UK-HPI excerpt repeated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { fixturesOf } from '../support/mirror-helper.js';
import { countOf, expectOpenQuoteRefused, fileWriter, openBefore, repeated } from '../support/open-quote.js';

const fileWith = fileWriter('hpi-open-quote');
const NAME = 'UK-HPI-full-file-2026-09.csv';
const WHAT = 'UK HPI CSV';
const WHY = 'UK HPI files have one area and month a line';

describe('hpi: a quote left open is refused by name; the previous data answers', () => {
  // 70 copies of the real 300 rows: 21,001 lines, past DuckDB's sniffer sample (20,480 lines), so the
  // reader, not the sniffer, meets the quote; the 200 lines after it (~52 KB) fit in one field
  const lines = repeated(readFileSync(join(fixturesOf('property'), 'uk-hpi', 'UK-HPI-full-file-sample.csv'), 'utf8'), 70);
  const env = isolatedEnv();
  const count = () => countOf(env, 'SELECT count(*)::INTEGER AS n FROM hpi');
  const sync = (text: string) => runCli(['sync', 'hpi', '--from', fileWith(NAME, text)], { env });

  it('in the region name (a row short of fields), the area code (a row that passes): one line, the file, the lines taken in', async () => {
    expect(lines).toHaveLength(21_001);
    expect((await sync(lines.join(''))).code).toBe(0);
    expect(await count()).toBe(21_000);
    // line 20,801's RegionName: its row takes in the 200 lines after it (before: 20,799 rows loaded, the
    // row padded with NULLs and rejected for its missing area code, "1 rejected")
    expect(expectOpenQuoteRefused(await sync(openBefore(lines, 20_800, 2)), 'hpi', NAME, WHAT, WHY)).toBe(201);
    expect(await count()).toBe(21_000);
    // its AreaCode: the row keeps its date and region, its numbers are NULL (blank is allowed), so it passed
    // with a 201-line area code (before: 20,800 rows loaded, none rejected)
    expect(expectOpenQuoteRefused(await sync(openBefore(lines, 20_800, 3)), 'hpi', NAME, WHAT, WHY)).toBe(201);
    expect(await count()).toBe(21_000);
    // the previous rows answer: the real Wokingham October 2002 row, once a copy
    expect(await countOf(env, "SELECT count(*)::INTEGER AS n FROM hpi WHERE region_name = 'Wokingham' AND region_code = 'E06000041' AND date = DATE '2002-10-01' AND average_price = 213363")).toBe(70);
  }, 60_000);
});
