/**
 * A killed sync's scratch files do not stay in the cache for ever (issue 37, "Leftovers"): the framework
 * empties the dataset's scratch folder (<cache>/<dataset>/extract, where earnings stages its CSVs and zip
 * members are extracted) before a load and after it, success or failure, under the dataset's lock.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { indexPage } from '../support/upstream-server.js';
import { fixture } from './ppd-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-scratch-');

beforeEach(() => {
  up.server.set('/price-paid/', indexPage({ 'Complete file': 'pp-complete.csv', 'Monthly update': 'pp-monthly-update-new-version.csv' }, '2026-10-28'), { contentType: 'text/html' });
  up.server.set('/price-paid/pp-complete.csv', readFileSync(fixture('pp-complete.csv')));
  up.server.setFile('/price-paid/pp-monthly-update-new-version.csv', fixture('pp-monthly-update-new-version.csv'));
});

describe('scratch folder', () => {
  it('what a killed sync left (a stage-* folder) is gone after the next sync, and the sync leaves nothing there', async () => {
    const o = up.syncOptions();
    const scratch = join(o.cacheDir, 'price-paid', 'extract');
    mkdirSync(join(scratch, 'stage-AbC123'), { recursive: true });
    writeFileSync(join(scratch, 'stage-AbC123', '1-8-gross-2024.csv'), 'left by a killed sync\n');
    expect(await syncDataset('price-paid', o)).toMatchObject({ status: 'synced', rows_total: 300 });
    expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([]);
  });
});
