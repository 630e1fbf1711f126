/**
 * Issue 28: a terminal table keeps the measure its route exists for (RouteSpec.measures) at 80 and 100
 * columns, and `--wide` never prints a line wider than the terminal (a record view instead). Run through
 * the in-process CLI over mirrors synced from the same fixtures as test/vehicles and test/mirror; the
 * values looked for come from the same command's `--format json` answer, and for price-paid from the
 * fixture file read with plain JS.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, tempDir } from '../property/mirror-helper.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { fixture, readPpd } from '../sync/ppd-fixture.js';
import { generateMot, itemDetailCsv, itemGroupCsv, itemsCsv, resultsCsv } from '../vehicles/mot-fixture.js';
import { generateVeh, vehCsv } from '../vehicles/veh-fixture.js';

const env = isolatedEnv({ NO_COLOR: '1' });
const root = env.PUBLICDATA_DATA_DIR!;
const mirrorDir = join(root, 'mirror');
const dirs = [root];

beforeAll(async () => {
  const src = tempDir('pd-measures-');
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
  await syncDataset('price-paid', { mirrorDir, cacheDir, env: {}, from: fixture('pp-complete.csv'), now: () => new Date('2026-11-21T10:00:00Z') });
}, 120_000);
afterAll(async () => {
  await closeAll();
  cleanup(dirs);
});

const lines = (s: string) => s.split('\n');
const widest = (s: string) => Math.max(...lines(s).map((l) => [...l].length));
type Rec = Record<string, unknown>;

async function records(args: string[]): Promise<Rec[]> {
  const r = await runCli([...args, '--format', 'json', '--source', 'local'], { env });
  expect(r.stderr).toBe('');
  const data = JSON.parse(r.stdout).data as Rec[] | { transactions: Rec[] };
  return Array.isArray(data) ? data : data.transactions;
}

// The town with the most sales in the fixture, counted here from the raw file.
const towns = new Map<string, number>();
for (const r of readPpd('pp-complete.csv')) towns.set(r.town, (towns.get(r.town) ?? 0) + 1);
const TOWN = [...towns].sort((a, b) => b[1] - a[1])[0]![0];

const CASES: Array<{ args: string[]; measure: string; value: (r: Rec) => string }> = [
  { args: ['vehicles', 'licensing', '--make', 'TESLA'], measure: 'count', value: (r) => String(r.count) },
  { args: ['vehicles', 'mot-pass-rates', '--make', 'FORD'], measure: 'statistics.pass_rate', value: (r) => String((r.statistics as Rec).pass_rate) },
  { args: ['property', 'price-paid', 'search', '--town', TOWN], measure: 'address', value: (r) => String(r.address) },
  // Not synced: Ofgem's shipped GB-average figures.
  { args: ['energy', 'rates'], measure: 'standing_charge', value: (r) => String(r.standing_charge) },
];

describe('a table keeps the measure its route exists for', () => {
  for (const c of CASES) {
    for (const columns of [80, 100]) {
      it(`${c.args.slice(0, 3).join(' ')}: ${c.measure} at ${columns} columns`, async () => {
        const recs = await records(c.args);
        expect(recs.length).toBeGreaterThan(1);
        const r = await runCli([...c.args, '--source', 'local'], { env, tty: true, columns });
        expect(r.code).toBe(0);
        expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
        const header = lines(r.stdout).find((l) => l.includes('│'))!;
        const cells = header.split('│').map((s) => s.trim());
        expect(cells).toContain(c.measure);
        const col = cells.indexOf(c.measure);
        // One line a record (the measure is cut, not wrapped): row i's measure cell is record i's value,
        // whole, or its beginning followed by an ellipsis.
        const body = lines(r.stdout).filter((l) => l.startsWith('│') && l !== header);
        const shown = body.map((l) => l.split('│')[col]!.trim());
        expect(shown.length).toBeGreaterThanOrEqual(recs.length);
        recs.forEach((rec, i) => {
          const want = c.value(rec);
          const got = shown[i]!;
          if (got.endsWith('…')) expect(want.startsWith(got.slice(0, -1))).toBe(true);
          else expect(got).toBe(want);
        });
      });
    }
  }
});

describe('--wide fits the terminal', () => {
  for (const c of CASES) {
    for (const columns of [80, 100]) {
      it(`${c.args.slice(0, 3).join(' ')} --wide at ${columns} columns: a record view, no line wider`, async () => {
        const recs = await records(c.args);
        const r = await runCli([...c.args, '--wide', '--source', 'local'], { env, tty: true, columns });
        expect(r.code).toBe(0);
        expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
        // Every record's every field is there: as many `measure:` lines as records.
        const label = new RegExp(`^${c.measure.replace('.', '\\.')}:`, 'm');
        expect(lines(r.stdout).filter((l) => label.test(l))).toHaveLength(recs.length);
      });
    }
  }
});
