/**
 * Vehicles tables keep their measure (issue 28; from test/cli/measures, whose shared form is now in
 * test/kit/ on the test-only example domain): through the in-process CLI over mirrors synced from the
 * generated fixtures of test/vehicles; the values looked for come from the same command's JSON answer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { isolatedEnv } from '../support/cli.js';
import { cleanup, tempDir } from '../support/mirror-helper.js';
import { measureTests } from '../support/output-checks.js';
import { generateMot, itemDetailCsv, itemGroupCsv, itemsCsv, resultsCsv } from './mot-fixture.js';
import { generateVeh, vehCsv } from './veh-fixture.js';

const env = isolatedEnv({ NO_COLOR: '1' });
const root = env.PUBLICDATA_DATA_DIR!;
const mirrorDir = join(root, 'mirror');
const dirs = [root];

beforeAll(async () => {
  const src = tempDir('pd-vehicles-output-');
  dirs.push(src);
  mkdirSync(mirrorDir, { recursive: true });
  const cacheDir = join(src, 'cache');
  writeFileSync(join(src, 'df_VEH0120_GB.csv'), vehCsv(generateVeh('licensing', 'GB', 400, 21)));
  writeFileSync(join(src, 'df_VEH0120_UK.csv'), vehCsv(generateVeh('licensing', 'UK', 200, 22)));
  writeFileSync(join(src, 'df_VEH0160_GB.csv'), vehCsv(generateVeh('registrations', 'GB', 200, 23)));
  writeFileSync(join(src, 'df_VEH0160_UK.csv'), vehCsv(generateVeh('registrations', 'UK', 120, 24)));
  await syncDataset('vehicle-licensing', { mirrorDir, cacheDir, env: {}, from: src });
  const y = generateMot(2025, 3000, 9);
  const mot: Record<string, string> = {
    'dft_test_result_extract_202501.csv': resultsCsv(y.results, '2025'),
    'dft_test_item_extract_202501.csv': itemsCsv(y.items, '2025'),
    'item_detail.csv': itemDetailCsv(),
    'item_group.csv': itemGroupCsv(),
  };
  for (const [n, t] of Object.entries(mot)) writeFileSync(join(src, n), t);
  await syncDataset('mot', { mirrorDir, cacheDir, env: {}, from: Object.keys(mot).map((n) => join(src, n)) });
}, 120_000);
afterAll(async () => {
  await closeAll();
  cleanup(dirs);
});

describe('vehicles tables keep their measure; --wide fits the terminal', () => {
  measureTests([
    { args: ['vehicles', 'licensing', '--make', 'TESLA'], measure: 'count', value: (r) => String(r.count) },
    { args: ['vehicles', 'mot-pass-rates', '--make', 'FORD'], measure: 'statistics.pass_rate', value: (r) => String((r.statistics as Record<string, unknown>).pass_rate) },
  ], () => env);
});
