/**
 * Issue 37: a GIAS register file that DuckDB cannot read (a quote never closed) fails the sync in one line that
 * names the file given (not the UTF-8 copy the load reads) and the fix; not DuckDB's 22-line sniffer dump. The
 * previous register keeps answering. Real sync (the CLI's `sync schools --from`), real DuckDB, the real GIAS
 * excerpt and Ofsted file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { expectOneLineNaming, withUnterminatedQuote } from '../support/malformed-csv.js';
import { GIAS_REAL, MI_REAL, parseCsv } from './fixture.js';

describe('schools: a malformed GIAS file is one line naming the file; the previous data answers', () => {
  it('a quote left open: one line naming the file given, with or without the Ofsted file beside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pd-schools-load-error-'));
    const gias = readFileSync(GIAS_REAL, 'latin1');
    const urns = parseCsv(gias).map((r) => Number(r.URN)).sort((a, b) => a - b);
    const env = isolatedEnv();
    const held = async () => {
      const r = await runCli(['sql', 'SELECT urn FROM schools ORDER BY urn', '--format', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { data: Array<{ urn: number }> }).data.map((x) => Number(x.urn));
    };
    const good = join(root, 'edubasealldata20260114.csv');
    writeFileSync(good, gias, 'latin1');
    expect((await runCli(['sync', 'schools', '--from', good, '--from', MI_REAL], { env })).code).toBe(0);
    expect(urns).toEqual([100000, 100004]);
    expect(await held()).toEqual(urns);

    // ASCII, so the load reads the file given itself
    const bad = join(root, 'edubasealldata20260201.csv');
    writeFileSync(bad, withUnterminatedQuote(gias, 2), 'latin1');
    const alone = await runCli(['sync', 'schools', '--from', bad], { env });
    expect(expectOneLineNaming(alone, 'schools', bad)).toContain('the expected 135 columns');
    expect(await held()).toEqual(urns);

    // with the Ofsted file given too, and a Windows-1252 byte (é) in the bad line, so the load reads a UTF-8
    // copy of it in its scratch folder: the line still names the GIAS file given, and only it
    const latin = join(root, 'edubasealldata20260301.csv');
    writeFileSync(latin, withUnterminatedQuote(gias, 2).replace('unterminated quote', 'unterminated caf\u00e9'), 'latin1');
    expect(readFileSync(latin).includes(0xe9)).toBe(true);
    const both = expectOneLineNaming(await runCli(['sync', 'schools', '--from', latin, '--from', MI_REAL], { env }), 'schools', latin);
    expect(both).not.toContain('ofsted-mi');
    expect(both).not.toContain('extract');
    expect(await held()).toEqual(urns);
  }, 60_000);
});
