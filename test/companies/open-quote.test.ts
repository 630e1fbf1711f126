/**
 * A quote left open in a BasicCompanyData CSV (read leniently: DuckDB takes the lines after it in as one
 * field): refused by name with the lines taken in, not one reject standing for them (sync/open-quote.ts).
 * Real sync (`sync companies --from`), real DuckDB, the REAL basic-sample.csv rows repeated.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { countOf, expectOpenQuoteRefused, fileWriter, openAt } from '../support/open-quote.js';
import { csvText, REAL_LINES } from './fixture.js';

const fileWith = fileWriter('companies-open-quote');
const NAME = 'BasicCompanyDataAsOneFile-2026-11-01.csv';
const WHAT = 'BasicCompanyData CSV';
const WHY = 'BasicCompanyData files have one company a line';

describe('companies: a quote left open is refused by name; the previous data answers', () => {
  // 40 copies of the 31 real rows, copy j's company numbers starting with j (10..49) so each is one company:
  // 1,240 rows, so the one reject the open quote made before was under the 0.1% reject threshold
  const rows = Array.from({ length: 40 }, (_, j) => REAL_LINES.map((l) => l.replace(/^("(?:[^"]|"")*",")(..)/, `$1${j + 10}`))).flat();
  const lines = csvText(rows).split(/(?<=\n)/);
  const env = isolatedEnv();
  const count = () => countOf(env, 'SELECT count(*)::INTEGER AS n FROM companies');

  it('in an early field (a structural reject), the last field (a row that passes): one line, the file, the lines taken in', async () => {
    expect(new Set(rows.map((l) => l.split('","')[1])).size).toBe(1240);
    expect((await runCli(['sync', 'companies', '--from', fileWith(NAME, lines.join(''))], { env })).code).toBe(0);
    expect(await count()).toBe(1240);
    // line 1,001's first address line (field 5): the quoted fields after it pair up with the wrong quotes
    // until the real names in doubled quotes ("""243 RUGBY ROAD …""") put them back in step 10 lines on
    // (before: 1,229 rows loaded, 1 rejected)
    const early = await runCli(['sync', 'companies', '--from', fileWith(NAME, openAt(lines, 1000, 5))], { env });
    expect(expectOpenQuoteRefused(early, 'companies', NAME, WHAT, WHY)).toBe(11);
    expect(await count()).toBe(1240);
    // the last field (ConfStmtLastMadeUpDate, a date read leniently): the row has all its fields and
    // passed with the next 10 lines in its date (before: 1,230 rows loaded, none rejected)
    const last = await runCli(['sync', 'companies', '--from', fileWith(NAME, openAt(lines, 1000, 55))], { env });
    expect(expectOpenQuoteRefused(last, 'companies', NAME, WHAT, WHY)).toBe(11);
    expect(await count()).toBe(1240);
    // the previous rows still answer, one of them by number
    expect(await countOf(env, "SELECT count(*)::INTEGER AS n FROM companies WHERE company_number = '10778855' AND company_name = '! LIMITED'")).toBe(1);
  }, 60_000);
});
