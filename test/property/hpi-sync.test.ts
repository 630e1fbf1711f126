/** `sync hpi` through the real framework against the local upstream server: discovery, load, swap, handler. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor, fixturesOf, sqlOn } from '../support/mirror-helper.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const FIXTURES = fixturesOf('property');

const SAMPLE = join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv');
const LAST_MONTH = readFileSync(SAMPLE, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.slice(0, 10).split('/').reverse().join('-'))
  .sort()
  .pop()!;
const PAGE = '/hpi/government/statistical-data-sets/uk-house-price-index-data-downloads-september-2026';
const up = useUpstreamServer('pd-hpi-sync-');

const opts = () => up.syncOptions('2026-11-21T10:00:00Z');

describe('sync hpi', () => {
  it('finds the newest full file on the latest monthly download page and loads it', async () => {
    // november and october 2026 pages do not exist yet (404); september's lists two files
    up.server.set(
      PAGE,
      `<html><body><a href="${up.server.url}/hpi/files/UK-HPI-full-file-2026-08.csv?utm_source=x">August</a>
       <a href="/hpi/files/UK-HPI-full-file-2026-09.csv?utm_medium=GOV.UK&amp;utm_source=datadownload">Full file</a></body></html>`,
      { contentType: 'text/html' },
    );
    up.server.setFile('/hpi/files/UK-HPI-full-file-2026-09.csv', SAMPLE);
    const o = opts();
    const r = await syncDataset('hpi', o);
    expect(r).toMatchObject({ dataset: 'hpi', status: 'synced', mode: 'full', rows_loaded: 300, rows_rejected: 0, rows_total: 300, as_of: LAST_MONTH });
    expect(r.files[0]).toMatchObject({ name: 'UK-HPI-full-file-2026-09.csv' });
    const paths = up.server.requests.map((q) => q.path);
    expect(paths).toContain('/hpi/government/statistical-data-sets/uk-house-price-index-data-downloads-november-2026');
    expect(paths).toContain('/hpi/files/UK-HPI-full-file-2026-09.csv');
    expect(paths).not.toContain('/hpi/files/UK-HPI-full-file-2026-08.csv');

    const env = (await getRoute('/v1/property/hpi', { region: 'London' }, ctxFor(o.mirrorDir))).envelope as any;
    expect(LAST_MONTH).toBe('2025-02-01');
    expect(env.meta.as_of).toBe(LAST_MONTH);
    expect(env.data.map((x: any) => x.date)).toEqual(['2004-12-01']);

    // a broken re-publication is refused and the old data stays
    up.server.set('/hpi/files/UK-HPI-full-file-2026-09.csv', 'Date,Region\n01/01/2020,x\n');
    await expect(syncDataset('hpi', o)).rejects.toThrow(/header/);
    const n = await sqlOn(join(o.mirrorDir, 'hpi.duckdb'), 'SELECT count(*)::INTEGER AS n FROM hpi');
    expect(n[0]!.n).toBe(300);
  });

  it('--from a local file skips discovery', async () => {
    const o = opts();
    const r = await syncDataset('hpi', { ...o, from: SAMPLE });
    expect(r.rows_loaded).toBe(readFileSync(SAMPLE, 'utf8').trim().split('\n').length - 1);
  });

  it('fails clearly when no download page lists a full file', async () => {
    up.server.remove(PAGE);
    const o = opts();
    await expect(syncDataset('hpi', o)).rejects.toThrow(/--from/);
  });
});
