/**
 * Earnings loaded with `--from` (issue 37): the sync records the data's date, the reference period of the
 * edition loaded (ASHE is April of its year), and `mirror status` counts the mirror's age from it, not from
 * the day of the sync: the REAL Table 8.7a 2020 loaded today is years old. The year is read here from the
 * fixture's title cell with SheetJS (and checked against its file name), not from the sync.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { mirrorStatus } from '../../src/mirror/status.js';
import { DATASETS } from '../../src/registry.js';
import { syncDataset } from '../../src/sync-runner.js';
import type { SyncReport } from '../../sync/types.js';
import { json, runCli } from '../support/cli.js';
import { cleanup, tempDir } from '../support/mirror-helper.js';
import { REAL, REAL_NAME } from './helpers.js';

// "Table 8.7a   Annual pay - Gross (£) - For all employee jobsa: United Kingdom, 2020" (All sheet, A1)
const title = String(XLSX.read(readFileSync(REAL), { type: 'buffer' }).Sheets.All!.A1.v);
const YEAR = /, (\d{4})\s*$/.exec(title)![1]!;

let dir: string;
let report: SyncReport;
beforeAll(async () => {
  dir = tempDir('pd-earnings-from-');
  report = await syncDataset('earnings', { env: {}, mirrorDir: join(dir, 'data', 'mirror'), cacheDir: join(dir, 'cache'), from: REAL });
});
afterAll(async () => {
  await closeAll();
  await cleanup([dir]);
});

describe('earnings loaded with --from', () => {
  it("records the edition's reference period (April of its year) as the data's date, the month the answers' meta.as_of name", async () => {
    expect(title).toMatch(/^Table 8\.7a\s+Annual pay - Gross/);
    expect(REAL_NAME.endsWith(`Gross ${YEAR}.xls`)).toBe(true);
    expect(YEAR).toBe('2020');
    expect(report.as_of).toBe(`${YEAR}-04-01`);
    const env = { PUBLICDATA_DATA_DIR: join(dir, 'data'), PUBLICDATA_CACHE_DIR: join(dir, 'cache'), PUBLICDATA_CONFIG_DIR: join(dir, 'config') };
    const r = await runCli(['earnings', 'regions', 'K02000001', '--basis', 'residence', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).meta.as_of).toBe(`${YEAR}-04`);
  });

  it("counts the age in mirror status from when that edition comes out (April + 214 days: 1 November), not from the sync", async () => {
    const status = async (iso: string) => {
      const [st] = await mirrorStatus({
        env: {}, mirrorDir: join(dir, 'data', 'mirror'), cacheDir: join(dir, 'cache'), now: () => new Date(iso), datasets: DATASETS.filter((d) => d.name === 'earnings'),
      });
      return st!;
    };
    // ASHE 2020 came out in November 2020; ASHE 2021 in the autumn of 2021: in August 2021 the 2020 edition
    // is still the newest (counted from April it would be 501 days old, stale)
    const out = `${YEAR}-11-01`;
    const days = (iso: string) => Math.floor((Date.parse(iso) - Date.parse(`${out}T00:00:00Z`)) / 86_400_000);
    const august = await status(`${YEAR + 1}-08-15T12:00:00Z`);
    expect(august).toMatchObject({ as_of: `${YEAR}-04-01`, published: null, stale: false });
    expect(august.note).toBe(`fresh: ${days(`${YEAR + 1}-08-15T12:00:00Z`)} days since ${out}, about when data of ${YEAR}-04-01 came out (loaded from a local file) (updated yearly)`);
    const late = await status('2026-11-29T12:00:00Z');
    expect(late.stale).toBe(true);
    expect(late.note).toMatch(new RegExp(`^stale: ${days('2026-11-29T12:00:00Z')} days since ${out}, about when data of ${YEAR}-04-01 came out \\(loaded from a local file\\) \\(updated yearly\\)`));
  });
});
