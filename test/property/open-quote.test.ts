/**
 * A quote left open in a price-paid CSV (read leniently: DuckDB takes the lines after it in as one field):
 * refused by name with the lines taken in, not one reject standing for them (sync/open-quote.ts). Real sync
 * (`sync price-paid --from`), real DuckDB, the REAL pp-complete.csv excerpt repeated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { countOf, fileWriter, openAt } from '../support/open-quote.js';
import { fixture } from './ppd-fixture.js';

const fileWith = fileWriter('ppd-open-quote');

describe('price-paid: a quote left open is refused by name; the previous data answers', () => {
  const real = readFileSync(fixture('pp-complete.csv'), 'utf8').split(/(?<=\n)/);
  // 3 copies of the real 300 rows (the ids repeat: the load takes every row)
  const big = [...real, ...real, ...real];
  const env = isolatedEnv();
  const count = () => countOf(env, 'SELECT count(*)::INTEGER AS n FROM price_paid');

  it("a CRLF file with one row short of a field: one reject, not refused as an open quote (DuckDB's csv_line of a CRLF file starts with a line break)", async () => {
    const short = [...big];
    short[400] = short[400]!.replace(/,"[^"]*"\n$/, '\n');
    expect(short[400]).not.toBe(big[400]);
    for (const eol of ['\n', '\r\n']) {
      const r = await runCli(['sync', 'price-paid', '--from', fileWith('pp-complete.csv', short.join('').replace(/\n/g, eol))], { env: isolatedEnv() });
      expect(r.code, `${JSON.stringify(eol)}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toContain('899 rows loaded, 1 rejected');
    }
  });

  it('in a middle field (a structural reject), the last field (a typed reject): one line, the file, the lines taken in', async () => {
    expect((await runCli(['sync', 'price-paid', '--from', fileWith('pp-complete.csv', big.join(''))], { env })).code).toBe(0);
    const held = await count();
    expect(held).toBe(900);
    const line = (name: string) =>
      `price-paid: sync failed: price-paid: load failed: ${name} is not a well-formed HM Land Registry price-paid CSV: a quoted field that is never closed takes in `;
    // the street (field 10) of line 801: the quoted fields after it pair up with the wrong quotes
    const street = await runCli(['sync', 'price-paid', '--from', fileWith('pp-complete.csv', openAt(big, 800, 10))], { env });
    expect(street.code, street.stderr).toBe(1);
    const out = street.stderr.trimEnd().split('\n');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^${line('pp-complete.csv')}\\d+ lines as one field \\(price-paid files have one transaction a line\\); download it again .*; kept the previous data$`));
    expect(Number(/takes in (\d+) lines/.exec(out[0]!)![1])).toBeGreaterThan(1);
    expect(await count()).toBe(held);
    // the record status (field 16, the last): the row has all its fields
    const last = await runCli(['sync', 'price-paid', '--from', fileWith('pp-complete.csv', openAt(big, 800, 16))], { env });
    expect(last.code, last.stderr).toBe(1);
    expect(last.stderr).toContain(line('pp-complete.csv'));
    expect(await count()).toBe(held);
    // a monthly update (line 501's street): its month is read first (price-paid-months.ts, three columns),
    // and that read meets the quote still open at the end of the file: DuckDB's error, named by line
    const upd = await runCli(['sync', 'price-paid', '--from', fileWith('pp-monthly-update-new-version.csv', openAt(big, 500, 10))], { env });
    expect(upd.code, upd.stderr).toBe(1);
    expect(upd.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(upd.stderr).toContain('pp-monthly-update-new-version.csv is not a well-formed CSV of the expected format: line 501 has a quoted field that is never closed');
    expect(await count()).toBe(held);
  }, 60_000);
});
