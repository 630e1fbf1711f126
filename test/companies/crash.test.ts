/**
 * Moved from test/e2e/crash.test.ts (issue 33): not a crash: a corrupt accounts member read in the worker
 * threads of the built CLI fails the accounts sync with its own report (exit 1); the previous data answers.
 */
import { execa } from 'execa';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, sqlOn, tempDir } from '../support/mirror-helper.js';
import { zipWithCorruptMember } from './accounts-zip.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { buildZip } from '../support/zip.js';
import { BIN } from '../support/e2e.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';

const dirs: string[] = [];
afterAll(() => cleanup(dirs));

describe('not a crash: a corrupt accounts member read in the worker threads', () => {
  it('fails the sync with its own report (exit 1), the previous data answers, no stage folder beside the --from file', async () => {
    const d = tempDir('pd-crash-acc-');
    dirs.push(d);
    const env = isolatedEnv({ CI: '1' }) as Record<string, string>;
    const good = join(d, 'Accounts_Bulk_Data-2026-11-02.zip');
    writeFileSync(good, await buildZip([{ name: memberName('07654321', '2026-06-30'), data: accountsDocument({ company: '07654321', name: 'GENERATED LTD', bsd: '2026-06-30', cur: { CurrentAssets: 5 } }) }]));
    expect((await runCli(['sync', 'accounts', '--from', good], { env })).code).toBe(0);
    const bad = join(d, 'Accounts_Bulk_Data-2026-11-03.zip');
    writeFileSync(bad, await zipWithCorruptMember(100, 2));
    const r = await execa('node', [BIN, 'sync', 'accounts', '--from', bad], {
      env: { ...env, PATH: process.env.PATH ?? '', NO_COLOR: '1', PUBLICDATA_SYNC_THREADS: '2' },
      extendEnv: false,
      reject: false,
    });
    const message = `accounts: load failed: Accounts_Bulk_Data-2026-11-03.zip: member ${memberName('90000002', '2026-03-31')} failed its CRC-32 check; the zip is corrupt, download it again; kept the previous data`;
    expect(r.stderr).toBe(`accounts: sync failed: ${message}`);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).data).toEqual([expect.objectContaining({ dataset: 'accounts', status: 'failed', error: message })]);
    const file = join(env.PUBLICDATA_DATA_DIR!, 'mirror', 'accounts.duckdb');
    expect(await sqlOn(file, 'SELECT company_number FROM accounts_filings')).toEqual([{ company_number: '07654321' }]);
    expect(readdirSync(d).sort()).toEqual(['Accounts_Bulk_Data-2026-11-02.zip', 'Accounts_Bulk_Data-2026-11-03.zip']);
  });
});
