/**
 * crime: months a force never loaded are not counts of 0; one open end of the month range; the outcomes
 * note from what is loaded; a partial sync reported as the merge it is; any loaded force can be asked for;
 * --months agrees with sync. Mirrors are synced with --from from the real fixture files (lone member
 * CSVs, as the archive names them); every expected figure is counted here from the CSV files.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor } from '../support/mirror-helper.js';
import { errorOf, getRoute } from '../support/route.js';
import { runCli } from '../support/cli.js';
import { CRIME_FIXTURES, FILES, rowsOf } from './fixture.js';

const root = mkdtempSync(join(tmpdir(), 'pd-crime-months-'));
const city2401 = () => rowsOf(FILES.city2401new);
const city2505 = () => rowsOf(FILES.city2505);
const surrey2401 = () => rowsOf(FILES.surrey2401);
const met = () => rowsOf(FILES.met2401outcomes);

/** A folder holding fixture files under their archive member names. */
function folder(name: string, files: Record<string, string>): string {
  const dir = join(root, 'src', name);
  mkdirSync(dir, { recursive: true });
  for (const [as, f] of Object.entries(files)) copyFileSync(join(CRIME_FIXTURES, f), join(dir, as));
  return dir;
}
const sync = (mirror: string, from: string | string[], extra: Record<string, unknown> = {}) =>
  syncDataset('crime', { mirrorDir: mirror, cacheDir: join(root, 'cache'), env: {}, from, ...extra });

async function ok(mirror: string, path: string, query: Record<string, string>): Promise<SuccessEnvelope<any>> {
  const r = await getRoute(path, query, ctxFor(mirror));
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}

// mirror A: City 2024-01 and 2025-05, Surrey 2024-01, Met outcomes 2024-01 (no Met street file)
const mirrorA = join(root, 'a', 'mirror');
beforeAll(async () => {
  const dir = folder('a', {
    '2024-01-city-of-london-street.csv': FILES.city2401new,
    '2024-01-surrey-street.csv': FILES.surrey2401,
    '2024-01-metropolitan-outcomes.csv': FILES.met2401outcomes,
    '2025-05-city-of-london-street.csv': FILES.city2505,
  });
  await sync(mirrorA, dir);
}, 60_000);

describe('months a force never loaded are left out and named, not counted as 0', () => {
  it('statistics of a force over a range: only its loaded month, the others in meta.note', async () => {
    const e = await ok(mirrorA, '/v1/crime/statistics', { force: 'surrey', month_from: '2024-01', month_to: '2025-05' });
    expect(e.data.total).toBe(surrey2401().length);
    expect(e.data.by_month).toEqual([{ month: '2024-01', count: surrey2401().length }]);
    expect(String(e.meta.note)).toContain("No street file of force 'surrey' is loaded for 2024-02 to 2025-05 (16 of the 17 months asked)");
  });

  it('the street list of a force in a month it has not loaded (the default, newest month): empty with a note', async () => {
    const e = await ok(mirrorA, '/v1/crime/street', { force: 'surrey' });
    expect(e.meta.months).toEqual({ from: '2025-05', to: '2025-05' });
    expect(e.pagination!.total).toBe(0);
    expect(String(e.meta.note)).toContain("No street file of force 'surrey' is loaded for 2025-05 (the month asked)");
    expect(String(e.meta.note)).toContain('loaded for 2024-01');
  });

  it('a range between the months loaded: the figures are null (not 0) and the note says none is loaded', async () => {
    const e = await ok(mirrorA, '/v1/crime/statistics', { force: 'city-of-london', month_from: '2024-02', month_to: '2025-04' });
    expect(e.data.total).toBeNull();
    expect(e.data.by_month).toBeNull();
    expect(String(e.meta.note)).toContain('2024-02 to 2025-04 (all 15 months asked)');
  });

  it('a month loaded for the area with no crime in it is 0, with no note', async () => {
    // an LSOA of City rows in 2024-01 only (no Surrey row in it, no City row in 2025-05): City is loaded for both
    const later = new Set(city2505().map((r) => r['LSOA code']));
    const surrey = new Set(surrey2401().map((r) => r['LSOA code']));
    const lsoa = city2401().map((r) => r['LSOA code']!).find((c) => c && !later.has(c) && !surrey.has(c))!;
    expect(lsoa).toBeTruthy();
    const e = await ok(mirrorA, '/v1/crime/statistics', { lsoa, month_from: '2024-01', month_to: '2025-05' });
    const n = city2401().filter((r) => r['LSOA code'] === lsoa).length;
    expect(e.data.by_month).toEqual([{ month: '2024-01', count: n }, { month: '2025-05', count: 0 }]);
    expect(String(e.meta.note)).toContain('2024-02 to 2025-04');
    expect(String(e.meta.note)).not.toContain('2025-05');
  });

  it('a point whose forces are loaded for some months only: the month held for one of them is partly held', async () => {
    // Surrey rows lie in the City (as published in the 2024-01 file), Surrey is not loaded for 2025-05
    const lsoa = 'E01032739';
    expect(surrey2401().some((r) => r['LSOA code'] === lsoa)).toBe(true);
    const e = await ok(mirrorA, '/v1/crime/statistics', { lsoa, month_from: '2024-01', month_to: '2025-05' });
    expect(e.data.by_month.map((m: any) => m.month)).toEqual(['2024-01', '2025-05']);
    expect(String(e.meta.note)).toContain('2025-05 is held for only some forces with crimes in this area (surrey not loaded)');
  });
});

describe('one open end of the month range', () => {
  it('an open end that would put the range backwards is 400 naming the end given; in order it is filled', async () => {
    const to = errorOf(await getRoute('/v1/crime/statistics', { force: 'city-of-london', month_to: '2023-06' }, ctxFor(mirrorA)));
    expect(to).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(to.message).toContain("'month_to' (2023-06) is before the first month loaded (2024-01)");
    const from = errorOf(await getRoute('/v1/crime/street', { force: 'city-of-london', month_from: '2026-01' }, ctxFor(mirrorA)));
    expect(from).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(from.message).toContain("'month_from' (2026-01) is after the last month loaded (2025-05)");
    const e = await ok(mirrorA, '/v1/crime/statistics', { force: 'city-of-london', month_to: '2024-06' });
    expect(e.data.months).toEqual({ from: '2024-01', to: '2024-06' });
    expect(e.data.total).toBe(city2401().length);
  });
});

describe('outcomes of a crime known only from outcome rows: the note says what is loaded', () => {
  it('no street file of the outcome rows\' force is loaded', async () => {
    const id = met()[0]!['Crime ID']!;
    const e = await ok(mirrorA, `/v1/crime/outcomes/${id}`, {});
    expect(e.data.month).toBeNull();
    expect(String(e.meta.note)).toContain('no street file of metropolitan (the force of the outcome rows) is loaded');
    expect(String(e.meta.note)).not.toContain('a month the mirror does not hold');
  });

  it("the force's street files are loaded for other months", async () => {
    // GENERATED: a copy of the real 2024-01 City street file under a Metropolitan member name (an
    // outcomes file is loaded only with its month's street files)
    const mirror = join(root, 'm', 'mirror');
    await sync(mirror, folder('m', { '2024-01-metropolitan-street.csv': FILES.city2401new, '2024-01-metropolitan-outcomes.csv': FILES.met2401outcomes }));
    const inStreet = new Set(city2401().map((r) => r['Crime ID']));
    const id = met().map((r) => r['Crime ID']!).find((x) => !inStreet.has(x))!;
    const first = met().filter((r) => r['Crime ID'] === id).map((r) => r.Month!).sort()[0]!;
    const e = await ok(mirror, `/v1/crime/outcomes/${id}`, {});
    expect(String(e.meta.note)).toContain(`the street files of metropolitan (the force of the outcome rows) are loaded for 2024-01, and none has this Crime ID`);
    expect(String(e.meta.note)).toContain(`not loaded, up to ${first} (its first outcome's month)`);
  });
});

describe('a partial sync reports what it loaded', () => {
  it('three street files, then one: rows_loaded is the one file\'s rows, reported as an update that kept the rest', async () => {
    const mirror = join(root, 'p', 'mirror');
    const three = await sync(mirror, folder('three', {
      '2024-01-city-of-london-street.csv': FILES.city2401new,
      '2024-01-surrey-street.csv': FILES.surrey2401,
      '2025-05-city-of-london-street.csv': FILES.city2505,
    }));
    const all = city2401().length + surrey2401().length + city2505().length;
    expect(three).toMatchObject({ status: 'synced', mode: 'full', rows_loaded: all, rows_total: all });
    expect(three.action).toBeUndefined();
    const one = await sync(mirror, folder('one', { '2024-01-city-of-london-street.csv': FILES.city2401new }));
    const kept = surrey2401().length + city2505().length;
    expect(one).toMatchObject({ status: 'synced', mode: 'incremental', rows_loaded: city2401().length, rows_total: all, action: 'updated' });
    expect(one.note).toBe(
      `applied as an update to the data already there; merged: ${city2401().length} rows loaded for 2024-01 of city-of-london; ` +
        `${kept} rows of the other months and forces already there kept`,
    );
    // the whole data set again replaces everything it carries: a full load of all the rows
    const again = await sync(mirror, folder('three', {}), { force: true });
    expect(again).toMatchObject({ mode: 'full', rows_loaded: all, rows_total: all, action: 'replaced' });
  });
});

describe('every force listed by `crime forces` can be asked for', () => {
  it('a member with a slug outside data/crime/forces.json is loaded, listed and answered', async () => {
    const mirror = join(root, 's', 'mirror');
    // GENERATED: a copy of the real 2024-01 Surrey street file under a police-scotland member name
    await sync(mirror, folder('s', { '2024-01-police-scotland-street.csv': FILES.surrey2401 }));
    const f = await ok(mirror, '/v1/crime/forces', {});
    expect(f.data.map((x: any) => x.force)).toEqual(['police-scotland']);
    const e = await ok(mirror, '/v1/crime/street', { force: 'police-scotland', month: '2024-01' });
    expect(e.pagination!.total).toBe(surrey2401().length);
    const other = await ok(mirror, '/v1/crime/street', { force: 'kent', month: '2024-01' });
    expect(other.pagination!.total).toBe(0);
    expect(String(other.meta.note)).toContain("No street file of force 'kent' is loaded (forces loaded: police-scotland)");
  });
});

describe('crime --months agrees with sync --months (1 to 240)', () => {
  it('240 is taken, 241 refused', async () => {
    const env = { PUBLICDATA_DATA_DIR: dirname(mirrorA), PUBLICDATA_CACHE_DIR: join(root, 'cache'), PUBLICDATA_CONFIG_DIR: join(root, 'config') };
    const r = await runCli(['crime', 'stats', '--force', 'city-of-london', '--months', '240', '--source', 'local', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout).data;
    expect(d.months).toEqual({ from: '2005-06', to: '2025-05' });
    expect(d.total).toBe(city2401().length + city2505().length);
    const bad = await runCli(['crime', 'stats', '--force', 'city-of-london', '--months', '241', '--source', 'local'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('from 1 to 240');
  });

  it('the not-synced message reads as a size', async () => {
    const e = errorOf(await getRoute('/v1/crime/forces', {}, ctxFor(join(root, 'none', 'mirror'))));
    expect(e.code).toBe('dataset_not_synced');
    expect(e.message).toContain('to download it (about 1.7 GB: the whole rolling archive of 36 months, of which the newest 12 are loaded)');
  });
});

describe('a file synced before force_months existed', () => {
  it('answers the months held from the street table itself', async () => {
    // a copy of mirror A without the table (files written by a sync before it was added)
    const old = join(root, 'old', 'mirror');
    mkdirSync(old, { recursive: true });
    copyFileSync(join(mirrorA, 'crime.duckdb'), join(old, 'crime.duckdb'));
    const db = await DuckDBInstance.create(join(old, 'crime.duckdb'));
    const c = await db.connect();
    await c.run('DROP TABLE force_months');
    await c.run('CHECKPOINT');
    c.closeSync();
    db.closeSync();
    const e = await ok(old, '/v1/crime/statistics', { force: 'surrey', month_from: '2024-01', month_to: '2025-05' });
    expect(e.data.total).toBe(surrey2401().length);
    expect(e.data.by_month).toEqual([{ month: '2024-01', count: surrey2401().length }]);
    expect(String(e.meta.note)).toContain("No street file of force 'surrey' is loaded for 2024-02 to 2025-05 (16 of the 17 months asked)");
  });
});
