/**
 * Issue 37 (moved from test/sync/unit-shrink.test.ts: the crime force-month unit): a short but well-formed file must not replace its
 * unit without a word; a drop beyond 10% fails the sync and keeps the previous data, unless --allow-shrink.
 * Every expected count is read here from the fixture files, not by the sync.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { runCli } from '../support/cli.js';
import { CRIME_FIXTURES, FILES, rowsOf } from './fixture.js';
import { sqlOn } from '../support/mirror-helper.js';
import { firstLines, shrinkScratch } from '../support/unit-shrink.js';

const { root, dirFor, opts } = shrinkScratch();

describe('crime: a force-month file replaces its unit only if it is not far shorter', () => {
  const street = readFileSync(join(CRIME_FIXTURES, FILES.surrey2401), 'latin1');
  const all = rowsOf(FILES.surrey2401).length;

  it('a street CSV with only its header, or cut at a line end, is refused (exit non-zero) and the force-month keeps its rows', async () => {
    const mirror = join(dirFor('crime'), 'mirror');
    const first = dirFor('crime-src');
    copyFileSync(join(CRIME_FIXTURES, FILES.surrey2401), join(first, '2024-01-surrey-street.csv'));
    copyFileSync(join(CRIME_FIXTURES, FILES.city2401new), join(first, '2024-01-city-of-london-street.csv'));
    await syncDataset('crime', opts(mirror, first));
    const held = async () => (await sqlOn(join(mirror, 'crime.duckdb'), "SELECT count(*)::INTEGER AS n FROM street WHERE force = 'surrey' AND month = '2024-01'"))[0]!.n;
    expect(await held()).toBe(all);

    const header = dirFor('crime-header');
    writeFileSync(join(header, '2024-01-surrey-street.csv'), firstLines(street, 1), 'latin1');
    await expect(syncDataset('crime', opts(mirror, header))).rejects.toThrow(
      `2024-01-surrey-street.csv: force-month surrey 2024-01 street would go from ${all} rows to 0 (100.0% fewer)`,
    );
    expect(await held()).toBe(all);

    const cut = dirFor('crime-cut');
    const half = Math.floor(all / 2);
    writeFileSync(join(cut, '2024-01-surrey-street.csv'), firstLines(street, half + 1), 'latin1');
    const env = { PUBLICDATA_DATA_DIR: join(mirror, '..'), PUBLICDATA_CACHE_DIR: join(root, 'cache'), PUBLICDATA_CONFIG_DIR: join(root, 'config') };
    const r = await runCli(['sync', 'crime', '--from', cut], { env });
    expect(r.code, r.stderr + r.stdout).not.toBe(0);
    expect(r.stderr).toContain(`force-month surrey 2024-01 street would go from ${all} rows to ${half}`);
    expect(r.stderr).toContain('--allow-shrink');
    expect(await held()).toBe(all);

    // --allow-shrink: the publisher really did remove them
    await syncDataset('crime', opts(mirror, cut, { allowShrink: true }));
    expect(await held()).toBe(half);
  }, 60_000);
});

