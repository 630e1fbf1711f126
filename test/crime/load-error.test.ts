/**
 * Issue 37: a crime street CSV that DuckDB cannot read (a quote never closed) fails the sync in one line that
 * names the file, the line when DuckDB knows it, and the fix; not DuckDB's 20-line sniffer dump. The previous
 * force-month keeps answering. Real sync (the CLI's `sync crime --from`), real DuckDB, the real Surrey file.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { expectOneLineNaming, withUnterminatedQuote } from '../support/malformed-csv.js';
import { bytesOf, FILES, rowsOf } from './fixture.js';

const root = mkdtempSync(join(tmpdir(), 'pd-crime-load-error-'));
let n = 0;
/** A folder holding `text` as 2024-01-surrey-street.csv (the name the crime sync reads as Surrey, January 2024). */
function folderWith(text: string): string {
  const dir = join(root, `src-${++n}`);
  mkdirSync(dir);
  writeFileSync(join(dir, '2024-01-surrey-street.csv'), text, 'utf8');
  return dir;
}

describe('crime: a malformed street CSV is one line naming the file; the previous data answers', () => {
  const street = bytesOf(FILES.surrey2401).toString('utf8');
  const held = rowsOf(FILES.surrey2401).length;
  const env = isolatedEnv();
  const count = async () => {
    const r = await runCli(['sql', "SELECT count(*)::INTEGER AS n FROM street WHERE force = 'surrey' AND month = '2024-01'", '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { data: Array<{ n: number }> }).data[0]!.n;
  };

  it('a quote left open near the top (DuckDB\'s sniffer fails): one line, the file and the fix', async () => {
    expect((await runCli(['sync', 'crime', '--from', folderWith(street)], { env })).code).toBe(0);
    expect(await count()).toBe(held);

    const bad = folderWith(withUnterminatedQuote(street, 3));
    const r = await runCli(['sync', 'crime', '--from', bad], { env });
    const line = expectOneLineNaming(r, 'crime', join(bad, '2024-01-surrey-street.csv'));
    expect(line).toContain('the expected 12 columns');
    expect(await count()).toBe(held);
  }, 60_000);

  it('a quote left open past the sniffer\'s sample: the line DuckDB names', async () => {
    // 400 copies of the real rows: 39,600 lines, more than DuckDB's sniffer samples (20,480), so the reader
    // meets the bad line and says which (the header is line 1, the bad line line 30,001); the 2.4 MB after it
    // are more than a CSV line may hold (max_line_size), so the open quote cannot take them in as one field
    const [header, ...rows] = street.split(/(?<=\n)/);
    const big = header + Array.from({ length: 400 }, () => rows.join('')).join('');
    const r = await runCli(['sync', 'crime', '--from', folderWith(withUnterminatedQuote(big, 30_000))], { env });
    const line = expectOneLineNaming(r, 'crime', '2024-01-surrey-street.csv');
    expect(line).toContain('line 30001 has a quoted field that is never closed');
    expect(await count()).toBe(held);
  }, 60_000);

  it('a CRLF file with one byte that is not UTF-8: one reject, not refused as an open quote', async () => {
    // the real Surrey file is CRLF; DuckDB's csv_line of a structural reject in it starts with the line break before
    expect(street.includes('\r\n')).toBe(true);
    const bytes = Buffer.from(street, 'utf8');
    bytes[bytes.indexOf('On or near', street.split('\n').slice(0, 10).join('\n').length)] = 0xff;
    const dir = folderWith(street);
    writeFileSync(join(dir, '2024-01-surrey-street.csv'), bytes);
    const r = await runCli(['sync', 'crime', '--from', dir], { env: isolatedEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(` ${held - 1} rows loaded, 1 rejected`);
  }, 60_000);

  it('a quote left open near the end (past the sniffer, under max_line_size: the reader takes the rest in as one field): refused by name, not one reject', async () => {
    // 300 copies of the real rows (29,700 lines, past the sniffer's 20,480); the open quote 200 lines from
    // the end takes in those 200 lines (~50 KB, under max_line_size): before, "1 rejected" stood for them
    const [header, ...rows] = street.split(/(?<=\n)/);
    const big = (header + Array.from({ length: 300 }, () => rows.join('')).join('')).split(/(?<=\n)/);
    const r = await runCli(['sync', 'crime', '--from', folderWith(withUnterminatedQuote(big.join(''), big.length - 200))], { env });
    expect(r.code, r.stderr).toBe(1);
    const out = r.stderr.trimEnd().split('\n');
    expect(out).toHaveLength(1);
    // the inserted line and the 200 after it, one field
    expect(out[0]).toBe(
      "crime: sync failed: crime: load failed: 2024-01-surrey-street.csv is not a well-formed police.uk CSV: a quoted field that is never closed takes in 201 lines as one field (police.uk files have no field over several lines); download it again (or check it is the publisher's file, whole and unedited) and run the sync again; kept the previous data",
    );
    expect(await count()).toBe(held);
    // the quote opened in the last column (Context) of a real row: that row would pass its checks
    const i = big.length - 200;
    const ctx = [...big.slice(0, i - 1), big[i - 1]!.replace(/(\r?\n)$/, '"$1'), ...big.slice(i)].join('');
    const r2 = await runCli(['sync', 'crime', '--from', folderWith(ctx)], { env });
    expect(r2.code, r2.stderr).toBe(1);
    expect(r2.stderr).toContain('a quoted field that is never closed takes in 201 lines as one field');
    expect(await count()).toBe(held);
    // a quote opened in the Location of one row and closed by a later row's quoted Location: the row it
    // makes passes every other check (before: "29,900 rows loaded, 0 rejected", one Location of 21,576
    // characters standing for 100 rows)
    const loc = (l: string, v: string) => l.replace(',On or near Amen Court,', `,${v},`);
    for (const k of [i, i + 100]) expect(loc(big[k]!, 'x')).not.toBe(big[k]);
    const closed = [...big.slice(0, i), loc(big[i]!, '"On or near Amen Court'), ...big.slice(i + 1, i + 100), loc(big[i + 100]!, '"On or near Amen Court, x"'), ...big.slice(i + 101)].join('');
    const r3 = await runCli(['sync', 'crime', '--from', folderWith(closed)], { env });
    expect(r3.code, r3.stderr).toBe(1);
    expect(r3.stderr).toContain('a quoted field that is never closed takes in 101 lines as one field');
    expect(await count()).toBe(held);
  }, 60_000);
});
