/**
 * Issue 37 (moved from test/sync/unit-shrink.test.ts: the crime force-month unit): a short but well-formed file must not replace its
 * unit without a word; a drop beyond 10% fails the sync and keeps the previous data, unless --allow-shrink.
 * Every expected count is read here from the fixture files, not by the sync.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDuckDB, query } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { runCli } from '../support/cli.js';
import { CRIME_FIXTURES, FILES, rowsOf } from './fixture.js';

const root = mkdtempSync(join(tmpdir(), 'pd-unit-shrink-'));
let n = 0;
const dirFor = (name: string): string => {
  const d = join(root, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};
const opts = (mirror: string, from: string | string[], extra: Record<string, unknown> = {}) => ({ mirrorDir: mirror, cacheDir: join(root, 'cache'), env: {}, from, ...extra });

/** Rows of a query on a mirror file, opened read-only and closed again (the next sync replaces the file). */
async function count(file: string, sql: string): Promise<Array<Record<string, any>>> {
  const duck = await loadDuckDB();
  const inst = await duck.DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    return await query(conn, sql);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

/** The first `k` lines of a CSV's text (header included), each ending in its line end: a cut that falls on a line end. */
function firstLines(text: string, k: number): string {
  const lines = text.split(/(?<=\n)/);
  return lines.slice(0, k).join('');
}

describe('crime: a force-month file replaces its unit only if it is not far shorter', () => {
  const street = readFileSync(join(CRIME_FIXTURES, FILES.surrey2401), 'latin1');
  const all = rowsOf(FILES.surrey2401).length;

  it('a street CSV with only its header, or cut at a line end, is refused (exit non-zero) and the force-month keeps its rows', async () => {
    const mirror = join(dirFor('crime'), 'mirror');
    const first = dirFor('crime-src');
    copyFileSync(join(CRIME_FIXTURES, FILES.surrey2401), join(first, '2024-01-surrey-street.csv'));
    copyFileSync(join(CRIME_FIXTURES, FILES.city2401new), join(first, '2024-01-city-of-london-street.csv'));
    await syncDataset('crime', opts(mirror, first));
    const held = async () => (await count(join(mirror, 'crime.duckdb'), "SELECT count(*)::INTEGER AS n FROM street WHERE force = 'surrey' AND month = '2024-01'"))[0]!.n;
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

