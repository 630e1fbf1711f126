/** `sync listed-buildings` and `sync conservation-areas` through the real framework against the local upstream server. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { runSync } from '../../sync/framework.js';
import { cleanup, ctxFor, FIXTURES, tempDir } from '../property/mirror-helper.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';

let server: UpstreamServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startUpstreamServer();
});
afterAll(async () => {
  await server.close();
  await cleanup(dirs);
});

describe('sync listed-buildings conservation-areas', () => {
  it('downloads both platform CSVs into their own files', async () => {
    server.setFile('/listed-buildings/dataset/listed-building.csv', join(FIXTURES, 'planning-data', 'listed-building.csv'));
    server.setFile('/conservation-areas/dataset/conservation-area.csv', join(FIXTURES, 'planning-data', 'conservation-area.csv'));
    const d = tempDir('pd-des-sync-');
    dirs.push(d);
    const o = { mirrorDir: join(d, 'mirror'), cacheDir: join(d, 'cache'), env: { PUBLICDATA_UPSTREAM_BASE: server.url }, backoffMs: 1, retries: 0 };
    const reports = await runSync(['listed-buildings', 'conservation-areas'], o);
    expect(reports.map((r) => [r.dataset, r.status, r.rows_loaded, r.as_of])).toEqual([
      ['listed-buildings', 'synced', 5, '2026-04-01'],
      ['conservation-areas', 'synced', 2, '2024-01-13'],
    ]);
    const lb = (await callLocal({ method: 'GET', path: '/v1/property/listed-buildings/31573653', query: {} }, ctxFor(o.mirrorDir))).envelope as any;
    expect(lb.data).toMatchObject({ entity_id: 31573653, name: 'LAMBETH PALACE', grade: 'I', latitude: 51.495641, longitude: -0.119843 });
    expect(lb.meta.as_of).toBe('2026-04-01');
    const ca = (await callLocal({ method: 'GET', path: '/v1/property/conservation-areas', query: { name: 'lambeth' } }, ctxFor(o.mirrorDir))).envelope as any;
    expect(ca.pagination.total).toBe(2);
  });
});
