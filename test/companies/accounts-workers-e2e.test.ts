/**
 * The built CLI extracts accounts in worker threads: the bundle (dist/cli/main.cjs) finds its bundled
 * worker (dist/cli/companies-extract-worker.cjs). Before the worker was bundled the CLI found no worker file beside
 * the bundle and extracted every member on its main thread, whatever PUBLICDATA_SYNC_THREADS said.
 */
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, sqlOn, tempDir } from '../support/mirror-helper.js';
import { isolatedEnv } from '../support/cli.js';
import { buildZip } from '../support/zip.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';

const BIN = join(__dirname, '..', '..', 'bin', 'publicdata.cjs');
const dirs: string[] = [];
afterAll(() => cleanup(dirs));

describe('sync accounts with the built CLI', () => {
  // A V8 flag on node's command line (here the young generation's size) is refused in a worker's execArgv
  // (ERR_WORKER_INVALID_EXEC_ARGV): the workers must start without it, not fail the sync.
  // Without PUBLICDATA_SYNC_THREADS a 70-member zip gets one worker (one per 500 documents, workerCount).
  it.each([
    [[] as string[], '2', '2 worker threads'],
    [['--max-semi-space-size=16'], '2', '2 worker threads'],
    [[] as string[], undefined, '1 worker thread'],
  ])('extracts in worker threads and loads what they staged (node %j, PUBLICDATA_SYNC_THREADS %s)', async (nodeArgs, threads, used) => {
    const d = tempDir('pd-acc-workers-');
    dirs.push(d);
    const env = isolatedEnv() as Record<string, string>; // not CI: CI makes a sync quiet
    const zip = join(d, 'Accounts_Bulk_Data-2026-11-02.zip');
    // 70 members: more than two 32-member batches, so both workers get some
    const companies = Array.from({ length: 70 }, (_, i) => String(7_000_000 + i).padStart(8, '0'));
    writeFileSync(zip, await buildZip(companies.map((c, i) => ({
      name: memberName(c, '2026-06-30'),
      data: accountsDocument({ company: c, name: `GENERATED ${i} LTD`, bsd: '2026-06-30', cur: { CurrentAssets: 1000 + i } }),
    }))));
    const r = await execa('node', [...nodeArgs, BIN, 'sync', 'accounts', '--from', zip, '--verbose'], {
      env: { ...env, PATH: process.env.PATH ?? '', NO_COLOR: '1', ...(threads ? { PUBLICDATA_SYNC_THREADS: threads } : {}) },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`accounts: extracting Accounts_Bulk_Data-2026-11-02.zip (${used})`);
    const file = join(env.PUBLICDATA_DATA_DIR!, 'mirror', 'accounts.duckdb');
    const rows = await sqlOn(file, "SELECT count(*)::INTEGER AS n, sum(current_assets)::VARCHAR AS s FROM accounts_periods WHERE is_current");
    // 1000 + 1001 + ... + 1069
    expect(rows).toEqual([{ n: 70, s: String(70 * 1000 + (69 * 70) / 2) + '.00' }]);
  });
});
