/**
 * Issue 37 (moved from test/sync/unit-shrink.test.ts: the schools register and Ofsted units): a short but well-formed file must not replace its
 * unit without a word; a drop beyond 10% fails the sync and keeps the previous data, unless --allow-shrink.
 * Every expected count is read here from the fixture files, not by the sync.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { GIAS_GENERATED, MI_REAL } from './fixture.js';
import { sqlOn } from '../support/mirror-helper.js';
import { firstLines, shrinkScratch } from '../support/unit-shrink.js';

const { dirFor, opts } = shrinkScratch();

describe('schools: the register and the Ofsted file are units, whatever the file is called', () => {
  const gias = readFileSync(GIAS_GENERATED, 'latin1');
  const mi = readFileSync(MI_REAL, 'utf8');

  it('a GIAS file of a newer date with 3 of 7 schools is refused, and an Ofsted file cut at a line end; the previous data answers', async () => {
    const src = dirFor('schools-src');
    const seven = join(src, 'edubasealldata20260101.csv');
    writeFileSync(seven, firstLines(gias, 8), 'latin1');
    const mirror = join(dirFor('schools'), 'mirror');
    await syncDataset('schools', opts(mirror, [seven, MI_REAL]));
    const file = join(mirror, 'schools.duckdb');
    const counts = async () => (await sqlOn(file, 'SELECT (SELECT count(*) FROM schools)::INTEGER AS s, (SELECT count(*) FROM inspections)::INTEGER AS i'))[0];
    const miRows = mi.split(/\r?\n/).filter((l) => l.trim() !== '').length - 1;
    expect(await counts()).toEqual({ s: 7, i: miRows });

    const three = join(dirFor('schools-newer'), 'edubasealldata20260301.csv');
    writeFileSync(three, firstLines(gias, 4), 'latin1');
    await expect(syncDataset('schools', opts(mirror, three))).rejects.toThrow('edubasealldata20260301.csv: table register would go from 7 rows to 3 (57.1% fewer)');
    expect(await counts()).toEqual({ s: 7, i: miRows });

    const half = Math.floor(miRows / 2);
    const miCut = join(dirFor('schools-mi'), 'Management_information_-_state-funded_schools_-_latest_inspections_as_at_31_Mar_2026.csv');
    writeFileSync(miCut, firstLines(mi, half + 1));
    await expect(syncDataset('schools', opts(mirror, miCut))).rejects.toThrow(`table inspections would go from ${miRows} rows to ${half}`);
    expect(await counts()).toEqual({ s: 7, i: miRows });
  }, 60_000);
});

