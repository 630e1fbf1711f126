/**
 * The price-paid table keeps its measure (issue 28; from test/cli/measures, whose shared form is now in
 * test/kit/ on the test-only example domain): a mirror synced from the real excerpt; the town with the
 * most sales is counted from the raw file with plain JS, the values looked for come from the same
 * command's JSON answer.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { isolatedEnv } from '../support/cli.js';
import { cleanup, tempDir } from '../support/mirror-helper.js';
import { measureTests } from '../support/output-checks.js';
import { fixture, readPpd } from './ppd-fixture.js';

const env = isolatedEnv({ NO_COLOR: '1' });
const root = env.PUBLICDATA_DATA_DIR!;
const dirs = [root];

beforeAll(async () => {
  const src = tempDir('pd-property-output-');
  dirs.push(src);
  await syncDataset('price-paid', { mirrorDir: join(root, 'mirror'), cacheDir: join(src, 'cache'), env: {}, from: fixture('pp-complete.csv'), now: () => new Date('2026-11-21T10:00:00Z') });
}, 120_000);
afterAll(async () => {
  await closeAll();
  cleanup(dirs);
});

// The town with the most sales in the fixture, counted here from the raw file.
const towns = new Map<string, number>();
for (const r of readPpd('pp-complete.csv')) towns.set(r.town, (towns.get(r.town) ?? 0) + 1);
const TOWN = [...towns].sort((a, b) => b[1] - a[1])[0]![0];

describe('the price-paid table keeps its measure; --wide fits the terminal', () => {
  measureTests([{ args: ['property', 'price-paid', 'search', '--town', TOWN], measure: 'address', value: (r) => String(r.address) }], () => env);
});
