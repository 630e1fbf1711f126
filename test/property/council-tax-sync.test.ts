/** `sync council-tax` through the real framework against the local upstream server. */
import { describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { getRoute } from '../support/route.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor } from '../support/mirror-helper.js';
import { buildOds } from '../property/ods-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-ct-sync-');

describe('sync council-tax', () => {
  it('finds Tables_1-9 on the year page and loads Table 9', async () => {
    up.server.set(
      '/council-tax/government/statistics/council-tax-levels-set-by-local-authorities-in-england-2026-to-2027',
      '<html><a href="/council-tax/media/69de1fa63e81003ae0422508/Band_D_2026-27.ods">Band D</a>' +
        '<a href="/council-tax/media/69de1fa63e81003ae0422508/Tables_1-9_2026-27.ods">Tables 1 to 9</a></html>',
      { contentType: 'text/html' },
    );
    up.server.set('/council-tax/media/69de1fa63e81003ae0422508/Tables_1-9_2026-27.ods', Buffer.from(buildOds()), {
      contentType: 'application/vnd.oasis.opendocument.spreadsheet',
    });
    const o = up.syncOptions('2026-11-21T10:00:00Z');
    const r = await syncDataset('council-tax', o);
    expect(r).toMatchObject({ status: 'synced', rows_loaded: 40, rows_rejected: 0, rows_total: 40, as_of: '2026-04-01' });
    expect(r.files[0]!.name).toBe('Tables_1-9_2026-27.ods');
    const env = (await getRoute('/v1/property/council-tax', { authority_name: 'bristol', band: 'h' }, ctxFor(o.mirrorDir))).envelope as any;
    expect(env.data).toEqual([{ authority_code: 'E06000023', authority_name: 'Bristol', financial_year: '2026-27', band: 'H', amount: 5427.36 }]);
    expect(env.meta).toMatchObject({ source: 'Ministry of Housing, Communities and Local Government', as_of: '2026-04-01' });

    // not an ODS: refused, old data kept
    up.server.set('/council-tax/media/69de1fa63e81003ae0422508/Tables_1-9_2026-27.ods', 'not a zip');
    await expect(syncDataset('council-tax', o)).rejects.toThrow(/OpenDocument/);
    const again = (await getRoute('/v1/property/council-tax', {}, ctxFor(o.mirrorDir))).envelope as any;
    expect(again.pagination.total).toBe(40);
  });
});
