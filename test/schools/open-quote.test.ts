/**
 * A quote left open in an Ofsted management-information CSV (read leniently: DuckDB takes the lines after it
 * in as one field): refused by name with the lines taken in, not rows silently missing (sync/open-quote.ts).
 * Real sync (`sync schools --from`), real DuckDB, the REAL GIAS excerpt and the REAL Ofsted excerpt repeated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { countOf, expectOpenQuoteRefused, fileWriter, openBefore, repeated } from '../support/open-quote.js';
import { GIAS_REAL, MI_REAL } from './fixture.js';

const fileWith = fileWriter('schools-open-quote');
const NAME = 'ofsted-mi-latest-inspections-as_at_28_Feb_2026.csv';
const WHAT = 'Ofsted management-information CSV';
const WHY = 'the management information has one school a line';

describe('schools: a quote left open in the management information is refused by name; the previous data answers', () => {
  // 520 copies of the 40 real rows, copy j's URNs plus j million (one row a URN): 20,801 lines, past DuckDB's
  // sniffer sample (20,480 lines), so the reader, not the sniffer, meets the quote
  const [header, ...rows] = repeated(readFileSync(MI_REAL, 'latin1'), 1);
  const lines = [header!, ...Array.from({ length: 520 }, (_, j) => rows.map((l) => l.replace(/^([^,]*),(\d+),/, (_m, w: string, u: string) => `${w},${Number(u) + j * 1_000_000},`))).flat()];
  const gias = fileWith('edubasealldata20260114.csv', readFileSync(GIAS_REAL, 'latin1'));
  const env = isolatedEnv();
  const count = () => countOf(env, 'SELECT count(*)::INTEGER AS n FROM inspections');
  const sync = (text: string) => runCli(['sync', 'schools', '--from', gias, '--from', fileWith(NAME, text)], { env });

  it('in the postcode: one line, the file, the lines taken in', async () => {
    // the previous data: the real files as they are
    const ok = await sync(readFileSync(MI_REAL, 'latin1'));
    expect(ok.code, ok.stderr).toBe(0);
    expect(await count()).toBe(40);
    expect(lines).toHaveLength(20_801);
    // line 20,601's postcode (field 17): every real row quotes its Ofsted region ("North East, Yorkshire and
    // the Humber", field 13), so the quote runs to the next line's and takes that line in: a row with a
    // 2-line field that passed its checks, the next school gone (before: 20,799 of 20,800 inspections
    // loaded, none rejected). A quote opened before the region's (the school name) closes there: one bad
    // row, a reject, no line taken in.
    expect(expectOpenQuoteRefused(await sync(openBefore(lines, 20_600, 17)), 'schools', NAME, WHAT, WHY)).toBe(2);
    expect(await count()).toBe(40);
    expect(await countOf(env, "SELECT count(*)::INTEGER AS n FROM inspections WHERE urn = 107809 AND mi_school_name = 'Guiseley Primary School' AND mi_postcode = 'LS20 9DA'")).toBe(1);
  }, 60_000);
});
