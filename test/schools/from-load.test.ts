/**
 * Schools loaded with `--from` (issue 37): the sync records the data's date and `mirror status` counts the
 * mirror's age from it, not from the day of the sync. A table's date is its file's: the register's extract
 * date (edubasealldata<YYYYMMDD>.csv) and the management information's "as at" date (in its published
 * name); with both known the older wins (the file is as old as its oldest table). Dates are read here from
 * the fixtures: the real Ofsted excerpt is "as at 28 Feb 2026" (its name), and the real GIAS excerpt's
 * newest LastChangedDate (14-01-2026) is the earliest its extract can be dated, so it is given that name.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { mirrorStatus } from '../../src/mirror/status.js';
import { DATASETS } from '../../src/registry.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup } from '../support/mirror-helper.js';
import { shrinkScratch } from '../support/unit-shrink.js';
import { GIAS_REAL, giasReal, iso, MI_REAL } from './fixture.js';

const { root, dirFor, opts } = shrinkScratch('pd-schools-from-');
afterAll(async () => {
  await closeAll();
  await cleanup([root]);
});

const NOW = new Date('2026-11-29T12:00:00Z');
// the data's date plus the 30 days schools' management information takes to come out (datasets.ts)
const out = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
const daysTo = (d: string) => Math.floor((NOW.getTime() - Date.parse(`${out(d)}T00:00:00Z`)) / 86_400_000);

// 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv' -> 2026-02-28
const [, dd, mon, yyyy] = /-(\d{1,2})-([A-Z][a-z]{2})-(\d{4})-/.exec(MI_REAL)!;
const MI_DATE = `${yyyy}-${String(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(mon!) + 1).padStart(2, '0')}-${dd!.padStart(2, '0')}`;
const MI_PUBLISHED_NAME = `Management_information_-_state-funded_schools_-_latest_inspections_as_at_${Number(dd)}_${mon}_${yyyy}.csv`;
const GIAS_DATE = giasReal().map((r) => iso(r.LastChangedDate)!).sort().pop()!;

/** Sync the given fixtures, copied under the given names, into a fresh mirror; its mirror status row. */
async function loadAs(files: Array<[from: string, name: string]>, syncedAt?: string) {
  const src = dirFor('src');
  for (const [from, name] of files) copyFileSync(from, join(src, name));
  const mirror = join(dirFor('mirror'), 'mirror');
  const report = await syncDataset('schools', opts(mirror, files.map(([, name]) => join(src, name)), syncedAt ? { now: () => new Date(syncedAt) } : {}));
  const [st] = await mirrorStatus({ env: {}, mirrorDir: mirror, cacheDir: join(root, 'cache'), now: () => NOW, datasets: DATASETS.filter((d) => d.name === 'schools') });
  return { report, st: st! };
}

describe("schools loaded with --from: the data's date", () => {
  it('the dates read from the fixtures', () => {
    expect(MI_DATE).toBe('2026-02-28');
    expect(GIAS_DATE).toBe('2026-01-14');
  });

  it("a register extracted before the management information: the register's date wins (the older)", async () => {
    const { report, st } = await loadAs([[GIAS_REAL, `edubasealldata${GIAS_DATE.replace(/-/g, '')}.csv`], [MI_REAL, MI_PUBLISHED_NAME]]);
    expect(report.as_of).toBe(GIAS_DATE);
    expect(st).toMatchObject({ as_of: GIAS_DATE, stale: true });
    expect(st.note).toMatch(new RegExp(`^stale: ${daysTo(GIAS_DATE)} days since ${out(GIAS_DATE)}, about when data of ${GIAS_DATE} came out \\(loaded from a local file\\)`));
  });

  it("a register extracted after the management information: the management information's date wins, not the newer name", async () => {
    const { report, st } = await loadAs([[GIAS_REAL, 'edubasealldata20260302.csv'], [MI_REAL, MI_PUBLISHED_NAME]]);
    expect(report.as_of).toBe(MI_DATE);
    expect(st).toMatchObject({ as_of: MI_DATE, published: '2026-03-02', stale: true });
    expect(st.note).toMatch(new RegExp(`^stale: ${daysTo(MI_DATE)} days since ${out(MI_DATE)}, about when data of ${MI_DATE} came out \\(loaded from a local file\\)`));
  });

  it("only the register's name states its date: that date", async () => {
    const { st } = await loadAs([[GIAS_REAL, `edubasealldata${GIAS_DATE.replace(/-/g, '')}.csv`], [MI_REAL, 'ofsted-latest.csv']]);
    expect(st).toMatchObject({ as_of: GIAS_DATE, stale: true });
    expect(st.note).toMatch(new RegExp(`^stale: ${daysTo(GIAS_DATE)} days since ${out(GIAS_DATE)}, about when data of ${GIAS_DATE} came out \\(loaded from a local file\\)`));
  });

  it('loaded before its date plus the lag: the age counts from the sync (it was out by then), never negative', async () => {
    // the register of 2026-01-14 loaded on 2026-01-20: 2026-02-13 (plus 30 days) is after the sync
    const { st } = await loadAs([[GIAS_REAL, `edubasealldata${GIAS_DATE.replace(/-/g, '')}.csv`], [MI_REAL, 'ofsted-latest.csv']], '2026-01-20T09:00:00Z');
    expect(st.note).toMatch(new RegExp(`^stale: ${Math.floor((NOW.getTime() - Date.parse('2026-01-20T00:00:00Z')) / 86_400_000)} days since the last sync, 2026-01-20 \\(loaded from a local file of data of ${GIAS_DATE}\\)`));
  });

  it('neither name states a date: no date is recorded, and the status says the age is only the sync\'s', async () => {
    const { report, st } = await loadAs([[GIAS_REAL, 'register.csv'], [MI_REAL, 'ofsted-latest.csv']]);
    expect(report.as_of).toBeUndefined();
    expect(st).toMatchObject({ as_of: null, published: null });
    expect(st.note).toMatch(/ days since the last sync \(loaded from a local file that states no date of its data\)/);
  });
});
