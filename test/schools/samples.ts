/**
 * The schools domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the generated GIAS rows and the real Ofsted MI excerpt (Leeds).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  unansweredExamples: {
    'schools show 100000': { code: 1, error: 'not_found', why: 'the fixture\'s GIAS register and Ofsted file do not hold URN 100000' },
  },
  routes: [
    { route: 'schools.search', method: 'GET', path: '/v1/schools?local_authority=Leeds&per_page=5' },
    { route: 'schools.detail', method: 'GET', path: '/v1/schools/107848' },
    { route: 'schools.inspections.statistics', method: 'GET', path: '/v1/schools/inspections/statistics?local_authority=383' },
  ],
  datasets: ['schools'],
  build: async ({ mirror, cacheDir }) => {
    // The generated GIAS rows of the real Leeds MI excerpt's schools, and the real MI rows (test/fixtures/schools).
    await syncDataset('schools', {
      mirrorDir: mirror, cacheDir, env: {},
      from: ['GENERATED-gias-leeds-rows.csv', 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'].map((f) => join(__dirname, '..', 'fixtures', 'schools', f)),
    });
  },
  lake: {
    datasets: ['schools'],
    check: async (lake) => {
      // one row per data line of the GIAS and MI files (lines counted, header off)
      const lines = (f: string) => readFileSync(join(__dirname, '..', 'fixtures', 'schools', f), 'latin1').split(/\r?\n/).filter((l) => l.trim() !== '').length - 1;
      const schools = await lake.rows('schools', 'schools');
      expect(schools.length).toBe(lines('GENERATED-gias-leeds-rows.csv'));
      const inspections = await lake.rows('schools', 'inspections');
      expect(inspections.length).toBe(lines('ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'));
      // both declared stored in urn order (the loads' ORDER BY urn): each single file ascends numerically
      for (const rows of [schools, inspections]) {
        const urns = rows.map((r) => Number(r.urn));
        expect(urns).toEqual([...urns].sort((a, b) => a - b));
      }
    },
  },
  wide: async ({ call, allPages }) => {
    const schools = await allPages('schools.search', '/v1/schools?status=open');
    for (const s of schools) await call('schools.detail', `/v1/schools/${s.urn}`);
    await call('schools.search', '/v1/schools?lat=53.8&lng=-1.55&radius_km=20');
    await call('schools.inspections.statistics', '/v1/schools/inspections/statistics');
    expect(schools.length).toBe(41); // the fixture's 41 Leeds schools
  },
};
