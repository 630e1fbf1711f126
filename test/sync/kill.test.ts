/**
 * A sync child process killed with SIGKILL at several points leaves the last good data answering
 * queries, and the next sync cleans the stale temp files and succeeds. The dataset is the example domain's
 * `example-records` (invented, test/fixtures/example/): the child runs on the built dist/, which never holds
 * the example domain, so its sync module is bundled against dist/ (example-domain/bundle.ts) and handed to
 * the child's sync runner through an injected loader (kill-child.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import { bundleExampleSync } from '../support/example-domain/bundle.js';
import { applyRecordsUpdate, bigRecords, readRecords } from '../support/example-domain/records-gen.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const REPO = join(import.meta.dirname, '..', '..');
const upstream = useUpstreamServer('pd-kill-');
const FIX = join(REPO, 'test', 'fixtures', 'example');
const fixture = (name: string) => join(FIX, name);
const complete = readRecords(readFileSync(fixture('records-complete.csv'), 'utf8'));
const UPDATE = fixture('records-update.csv');
let moduleFile = '';

async function count(mirrorDir: string): Promise<number> {
  return (await sqlOn(join(mirrorDir, 'example_records.duckdb'), 'SELECT count(*) AS n FROM records'))[0]!.n as number;
}

function runChild(args: string[]): { child: ChildProcess; reached: Promise<string> } {
  const child = spawn(process.execPath, [join(REPO, 'test', 'sync', 'kill-child.mjs'), moduleFile, ...args], {
    env: { ...process.env, PUBLICDATA_UPSTREAM_BASE: upstream.server.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const reached = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /AT (\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before the kill point: ${stdout} ${stderr}`)));
  });
  return { child, reached };
}

const killed = (c: ChildProcess) => new Promise<void>((resolve) => {
  if (c.exitCode !== null || c.signalCode !== null) return resolve();
  c.once('exit', () => resolve());
  c.kill('SIGKILL');
});


describe('SIGKILL during a sync keeps the last good data', () => {
  /** The last good data: a full load of the 300 records, synced once and copied for each case. */
  let good: ReturnType<typeof upstream.syncOptions>;
  beforeAll(async () => {
    moduleFile = await bundleExampleSync(tempDir('pd-kill-module-'));
    good = upstream.syncOptions();
    upstream.server.setFile('/example-records/records-complete.csv', fixture('records-complete.csv'));
    await syncDataset('example-records', good);
  });

  const cases: Array<{ point: string; big?: boolean; update?: boolean }> = [
    { point: 'download' },
    { point: 'load', big: true },
    { point: 'loaded' },
    { point: 'before-rename' },
    // the update's copy of the live file is made during the download: killed there, with the copy made or half made
    { point: 'downloaded', update: true },
    { point: 'loaded', update: true },
    { point: 'before-rename', update: true },
  ];
  for (const c of cases) {
    it(`killed at ${c.point}${c.big ? ' (mid-load of a large file)' : ''}${c.update ? ' of a monthly update' : ''}`, async () => {
      const server = upstream.server;
      const { mirrorDir, cacheDir, env } = upstream.syncOptions();
      server.setFile('/example-records/records-complete.csv', fixture('records-complete.csv'));
      // the last good data: a full load of the 300 records
      cpSync(good.mirrorDir, mirrorDir, { recursive: true });
      cpSync(good.cacheDir, cacheDir, { recursive: true });
      expect(await count(mirrorDir)).toBe(300);

      if (c.big) server.set('/example-records/records-complete.csv', bigRecords(600_000));
      if (c.point === 'download') server.set('/example-records/records-complete.csv', bigRecords(20_000), { fault: { bytesPerSecond: 200_000 } });
      const args = [mirrorDir, cacheDir, c.point, ...(c.update ? [UPDATE] : [])];
      const { child, reached } = runChild(args);
      expect(await reached).toBe(c.point);
      if (c.big) await new Promise((r) => setTimeout(r, 400));
      await killed(child);
      expect(child.signalCode).toBe('SIGKILL');

      // The live file still answers with the last good data.
      expect(await count(mirrorDir)).toBe(300);
      const left = readdirSync(mirrorDir);
      expect(left).toContain('example_records.duckdb');
      if (c.point === 'download') {
        // killed mid-download: a partial .part file is left in the cache
        expect(readdirSync(join(cacheDir, 'example-records')).some((f) => f.endsWith('.part'))).toBe(true);
      } else if (c.point !== 'downloaded') {
        // killed mid-sync: the dead process's new file is still there (the next sync removes it)
        expect(left.some((f) => f.startsWith(`example_records.duckdb.new-${child.pid}`))).toBe(true);
      }

      // The next sync removes the dead process's temp files and succeeds.
      server.setFile('/example-records/records-complete.csv', fixture('records-complete.csv'));
      const r = await syncDataset('example-records', {
        mirrorDir, cacheDir, env,
        ...(c.update ? { from: UPDATE } : { force: true }),
      });
      expect(r.status).toBe('synced');
      expect(readdirSync(mirrorDir).sort()).toEqual(['example_records.duckdb']);
      expect(await count(mirrorDir)).toBe(c.update ? applyRecordsUpdate(complete, readFileSync(UPDATE, 'utf8')).length : 300);
    }, 60_000);
  }
});
