/**
 * Issue 21 item 2 for the accounts dataset (moved from test/sync/integrity.test.ts, which tests the framework
 * on the example datasets): --from a zip after a --days sync keeps the daily zips and adds it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { fixturesOf, sqlOn } from '../support/mirror-helper.js';
import { buildZip } from '../support/zip.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-integrity-acc-');

describe('2. --from adds to a dataset that accumulates; --replace replaces', () => {
  it('accounts: --from a zip after a --days sync keeps the daily zips and adds it', async () => {
    const DIR = join(fixturesOf('companies'), 'accounts');
    const member = 'Prod223_3517_00193009_20230331.html';
    const daily = await buildZip([{ name: member, data: readFileSync(join(DIR, member)) }]);
    up.server.set('/accounts/en_accountsdata.html', '<a href="Accounts_Bulk_Data-2026-11-02.zip">Accounts_Bulk_Data-2026-11-02.zip</a> (1Kb)', { contentType: 'text/html' });
    up.server.set('/accounts/Accounts_Bulk_Data-2026-11-02.zip', daily, { contentType: 'application/zip' });
    const o = up.syncOptions('2026-11-21T12:00:00Z');
    expect(await syncDataset('accounts', { ...o, days: 30 })).toMatchObject({ status: 'synced', rows_total: 1 });
    const zipNames = async () => (await sqlOn(join(o.mirrorDir, 'accounts.duckdb'), 'SELECT name FROM accounts_zips ORDER BY 1')).map((r) => r.name);
    // the real subset zip: 9 filings, one of them (00193009) not the daily's company
    const subset = join(DIR, 'Accounts_Bulk_Data-2023-03-02.zip');
    const r = await syncDataset('accounts', { ...o, from: subset });
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental', action: 'added' });
    expect(await zipNames()).toEqual(['Accounts_Bulk_Data-2023-03-02.zip', 'Accounts_Bulk_Data-2026-11-02.zip']);
    expect(r.rows_total).toBe(10);
    // 1. the 30-day sync again finds its daily zip still in the mirror: up to date, honestly
    expect(await syncDataset('accounts', { ...o, days: 30 })).toMatchObject({ status: 'up_to_date' });
    const rep = await syncDataset('accounts', { ...o, from: subset, replace: true });
    expect(rep).toMatchObject({ status: 'synced', mode: 'full', action: 'replaced', rows_total: 9 });
    expect(await zipNames()).toEqual(['Accounts_Bulk_Data-2023-03-02.zip']);
    // 1. the daily zip, loaded once before, is loaded again: the mirror no longer holds it
    const back = await syncDataset('accounts', { ...o, days: 30 });
    expect(back).toMatchObject({ status: 'synced', mode: 'incremental' });
    expect(await zipNames()).toEqual(['Accounts_Bulk_Data-2023-03-02.zip', 'Accounts_Bulk_Data-2026-11-02.zip']);
  });
});
