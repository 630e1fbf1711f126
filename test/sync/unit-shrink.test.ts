/**
 * Issue 37: a short but well-formed file must not replace its unit without a word. Each unit a file
 * replaces (here an example-events day; a crime force-month, the schools register, the Ofsted file and an FSA
 * authority in those domains' unit-shrink.test.ts) is compared with
 * what the live file held, whatever the file is called; a drop beyond 10% fails the sync (exit non-zero)
 * and keeps the previous data, unless --allow-shrink.
 * Every expected count is read here from the fixture files (a plain line split or a regex), not by the sync.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { shrinkAdvice } from '../../sync/integrity.js';
import { runCli } from '../support/cli.js';
import { readRecords, recordsCsv } from '../support/example-domain/records-gen.js';
import { sqlOn } from '../support/mirror-helper.js';
import { firstLines, shrinkScratch } from '../support/unit-shrink.js';

const { root, dirFor, opts } = shrinkScratch();

describe('example-events: a day file replaces its day only if it is not far shorter', () => {
  // INVENTED days: 2026-11-01 holds records 1..40, 2026-11-02 records 41..70 (records-gen.ts; their dates are
  // not the file's day: the unit is the file's, the rows are rewritten onto it below)
  const dayFile = (day: string, from: number, to: number) =>
    recordsCsv(from, to).split('\n').map((l, k) => (k === 0 || l === '' ? l : l.replace(/,\d{4}-\d{2}-\d{2},/, `,${day},`))).join('\n');
  const one = dayFile('2026-11-01', 1, 40);
  const two = dayFile('2026-11-02', 41, 70);

  it('a day file with only its header, or cut at a line end, is refused (exit non-zero) and the day keeps its rows; --allow-shrink takes it', async () => {
    const all = readRecords(one).length;
    expect(all).toBe(40);
    const mirror = join(dirFor('events'), 'mirror');
    const first = dirFor('events-src');
    writeFileSync(join(first, 'events-2026-11-01.csv'), one);
    writeFileSync(join(first, 'events-2026-11-02.csv'), two);
    await syncDataset('example-events', opts(mirror, first));
    const held = async (day: string) => (await sqlOn(join(mirror, 'example_events.duckdb'), `SELECT count(*)::INTEGER AS n FROM records WHERE recorded_on = DATE '${day}'`))[0]!.n;
    expect(await held('2026-11-01')).toBe(all);

    const header = dirFor('events-header');
    writeFileSync(join(header, 'events-2026-11-01.csv'), firstLines(one, 1));
    await expect(syncDataset('example-events', opts(mirror, header))).rejects.toThrow(
      `events-2026-11-01.csv: day 2026-11-01 would go from ${all} rows to 0 (100.0% fewer)`,
    );
    expect(await held('2026-11-01')).toBe(all);

    const cut = dirFor('events-cut');
    const half = Math.floor(all / 2);
    writeFileSync(join(cut, 'events-2026-11-01.csv'), firstLines(one, half + 1));
    const env = { PUBLICDATA_DATA_DIR: join(mirror, '..'), PUBLICDATA_CACHE_DIR: join(root, 'cache'), PUBLICDATA_CONFIG_DIR: join(root, 'config') };
    const r = await runCli(['sync', 'example-events', '--from', cut], { env });
    expect(r.code, r.stderr + r.stdout).not.toBe(0);
    expect(r.stderr).toContain(`day 2026-11-01 would go from ${all} rows to ${half}`);
    expect(r.stderr).toContain('--allow-shrink');
    expect(await held('2026-11-01')).toBe(all);
    // the other day, in no file given, is untouched
    expect(await held('2026-11-02')).toBe(readRecords(two).length);

    // --allow-shrink: the publisher really did remove them
    await syncDataset('example-events', opts(mirror, cut, { allowShrink: true }));
    expect(await held('2026-11-01')).toBe(half);
    expect(await held('2026-11-02')).toBe(30);
  }, 60_000);
});

describe('the whole-table shrink error', () => {
  it('names the files rejected whole and does not advise --allow-shrink for them; without any, it does', () => {
    const reason = 'the new load has 57 rows, 51.3% fewer than the 117 of the previous load of the same file(s) (more than the 10% allowed)';
    const bad = shrinkAdvice(reason, ['FHRS314en-GB.xml']);
    expect(bad).toBe(`${reason}; 1 file(s) were rejected: FHRS314en-GB.xml: give them whole again (or leave them out): --allow-shrink would delete what they held`);
    expect(bad).not.toContain('run again with --allow-shrink');
    expect(shrinkAdvice(reason, [])).toBe(`${reason}; if the publisher really removed them, run again with --allow-shrink`);
  });
});

describe('sync --help on --allow-shrink', () => {
  it('says the per-unit check, whatever the file is called, not only a reload of the same file(s)', async () => {
    const r = await runCli(['sync', '--help']);
    expect(r.code).toBe(0);
    const line = /--allow-shrink\s+(.*?)\s+--limit-rate/s.exec(r.stdout)![1]!.replace(/\s+/g, ' ');
    expect(line).toBe(
      'accept more than 10% fewer rows than the mirror held: in a unit a file replaces (a force-month, a register, an authority, an edition), whatever the file is called, or in a full reload of the same file(s)',
    );
  });
});
