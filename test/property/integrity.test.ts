/**
 * Issue 21 items 1 and 2 for property's own datasets (moved from test/sync/integrity.test.ts, which tests the
 * framework on the example datasets): hpi's publisher file after an older --from file; price-paid's yearly
 * file added by transaction id.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { createProgressReporter } from '../../sync/progress.js';
import { fixturesOf, sqlOn, tempDir } from '../support/mirror-helper.js';
import { fixture, readPpd } from './ppd-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-integrity-prop-');
const COMPLETE = readFileSync(fixture('pp-complete.csv'));
const complete = readPpd('pp-complete.csv');
/** Lines of a file as Buffers, each with its line end. */
const lines = (b: Buffer) => b.toString('latin1').split(/(?<=\n)/).map((l) => Buffer.from(l, 'latin1'));

describe('1. "up to date" against the files the current mirror was built from', () => {
  it('hpi: the publisher\'s file after --from an older file is loaded again', async () => {
    const SAMPLE = join(fixturesOf('property'), 'uk-hpi', 'UK-HPI-full-file-sample.csv');
    const PAGE = '/hpi/government/statistical-data-sets/uk-house-price-index-data-downloads-september-2026';
    up.server.set(PAGE, '<a href="/hpi/files/UK-HPI-full-file-2026-09.csv">Full file</a>', { contentType: 'text/html' });
    up.server.setFile('/hpi/files/UK-HPI-full-file-2026-09.csv', SAMPLE);
    const o = up.syncOptions('2026-11-21T10:00:00Z');
    const all = readFileSync(SAMPLE, 'utf8').trimEnd().split('\n');
    expect(await syncDataset('hpi', o)).toMatchObject({ status: 'synced', rows_total: all.length - 1 });
    // DERIVED from the real sample: its first 101 lines, as an older file given with --from
    const older = join(tempDir('pd-integrity-hpi-'), 'UK-HPI-full-file-2026-08.csv');
    writeFileSync(older, `${all.slice(0, 101).join('\n')}\n`);
    expect(await syncDataset('hpi', { ...o, from: older })).toMatchObject({ status: 'synced', rows_total: 100, action: 'replaced' });
    const r = await syncDataset('hpi', o);
    expect(r).toMatchObject({ status: 'synced', rows_total: all.length - 1 });
  });
});

describe('2. --from adds to a dataset that accumulates; --replace replaces', () => {
  it('price-paid: a yearly file is added to the data there (by transaction id); with --replace it replaces it', async () => {
    // DERIVED from the real excerpt: its first 100 lines as pp-complete.csv, the other 200 as pp-1995.csv
    const d = tempDir('pd-integrity-from-');
    const all = lines(COMPLETE);
    mkdirSync(join(d, 'a'));
    writeFileSync(join(d, 'a', 'pp-complete.csv'), Buffer.concat(all.slice(0, 100)));
    writeFileSync(join(d, 'a', 'pp-1995.csv'), Buffer.concat(all.slice(100)));
    const o = up.syncOptions();
    expect(await syncDataset('price-paid', { ...o, from: join(d, 'a', 'pp-complete.csv') })).toMatchObject({ rows_total: 100 });
    let line = '';
    const stream = { write: (t: string) => ((line += t), true), isTTY: false, columns: 120 } as unknown as NodeJS.WritableStream;
    const added = await syncDataset('price-paid', { ...o, from: join(d, 'a', 'pp-1995.csv'), progress: createProgressReporter({ stream }) });
    // the one-line summary says what happened to the data there
    expect(line).toMatch(/^price-paid: synced \(incremental update\) 200 rows loaded, .*; added to the data already there \(--replace replaces it instead\)\n$/m);
    expect(added).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added', rows_total: 300 });
    expect(added.note).toMatch(/added to the data already there/);
    const ids = new Set((await sqlOn(join(o.mirrorDir, 'price_paid.duckdb'), 'SELECT id::VARCHAR AS id FROM price_paid')).map((r) => r.id));
    expect(ids).toEqual(new Set(complete.map((r) => r.id)));
    const replaced = await syncDataset('price-paid', { ...o, from: join(d, 'a', 'pp-1995.csv'), replace: true });
    expect(replaced).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: 200 });
  });

});
