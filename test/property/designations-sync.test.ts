/** `sync listed-buildings` and `sync conservation-areas` through the real framework against the local upstream server. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { runSync } from '../../src/sync-runner.js';
import { ctxFor, fixturesOf } from '../support/mirror-helper.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const FIXTURES = fixturesOf('property');

const up = useUpstreamServer('pd-des-sync-');

describe('sync listed-buildings conservation-areas', () => {
  it('downloads both platform CSVs into their own files', async () => {
    up.server.setFile('/listed-buildings/dataset/listed-building.csv', join(FIXTURES, 'planning-data', 'listed-building.csv'));
    up.server.setFile('/conservation-areas/dataset/conservation-area.csv', join(FIXTURES, 'planning-data', 'conservation-area.csv'));
    const o = up.syncOptions();
    const reports = await runSync(['listed-buildings', 'conservation-areas'], o);
    expect(reports.map((r) => [r.dataset, r.status, r.rows_loaded, r.as_of])).toEqual([
      ['listed-buildings', 'synced', 5, '2026-04-01'],
      ['conservation-areas', 'synced', 2, '2024-01-13'],
    ]);
    const lb = (await getRoute('/v1/property/listed-buildings/31573653', {}, ctxFor(o.mirrorDir))).envelope as any;
    expect(lb.data).toMatchObject({ entity_id: 31573653, name: 'LAMBETH PALACE', grade: 'I', latitude: 51.495641, longitude: -0.119843 });
    expect(lb.meta.as_of).toBe('2026-04-01');
    const ca = (await getRoute('/v1/property/conservation-areas', { name: 'lambeth' }, ctxFor(o.mirrorDir))).envelope as any;
    expect(ca.pagination.total).toBe(2);
  });
});
