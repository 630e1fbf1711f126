/**
 * Moved from test/e2e/crash.test.ts (issue 33; the built binary holds only the real domains, so a sync run
 * through it is a domain's): the last-resort handler: a crash nobody catches (an exception from an event
 * handler, a rejected promise nobody awaits) during a price-paid sync of the built CLI ends in one
 * `internal_error` line and exit 1, and leaves what a killed sync leaves: the last good data answering, no
 * lock, temp files the next sync removes.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, sqlOn, tempDir } from '../support/mirror-helper.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { BIN } from '../support/e2e.js';
import { bigFile, fixture, readPpd } from './ppd-fixture.js';

const PRELOAD = join(__dirname, '..', 'support', 'crash-preload.cjs');
const dirs: string[] = [];
let big: string;
const small = readPpd('pp-complete.csv').length;

beforeAll(() => {
  const d = tempDir('pd-crash-');
  dirs.push(d);
  big = join(d, 'pp-complete.csv');
  writeFileSync(big, bigFile(5_000)); // a load that takes long enough to be crashed in
});
afterAll(() => cleanup(dirs));

async function syncedMirror(): Promise<{ env: Record<string, string>; mirror: string }> {
  const env = isolatedEnv({ CI: '1' }) as Record<string, string>;
  const r = await runCli(['sync', 'price-paid', '--from', fixture('pp-complete.csv')], { env });
  expect(r.code).toBe(0);
  const mirror = join(env.PUBLICDATA_DATA_DIR!, 'mirror');
  mkdirSync(mirror, { recursive: true });
  return { env, mirror };
}

const count = async (mirror: string) => (await sqlOn(join(mirror, 'price_paid.duckdb'), 'SELECT count(*) AS n FROM price_paid'))[0]!.n;

describe('a crash during sync', () => {
  for (const mode of ['throw', 'reject'] as const) {
    it(`${mode === 'throw' ? 'an uncaught exception' : 'an unhandled rejection'}: one internal_error line, exit 1, the last good data still answers`, async () => {
      const { env, mirror } = await syncedMirror();
      const r = await execa('node', ['--require', PRELOAD, BIN, 'sync', 'price-paid', '--from', big, '--force'], {
        env: { ...env, PATH: process.env.PATH ?? '', NO_COLOR: '1', PD_CRASH: mode, PD_CRASH_DIR: mirror },
        extendEnv: false,
        reject: false,
      });
      const what = mode === 'throw' ? 'injected crash during the load' : 'injected rejection during the load';
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(`error internal_error: sync price-paid: ${what} (this is a bug in publicdata; set PUBLICDATA_DEBUG=1 for details)`);
      expect(r.stdout).toBe('');
      // as after a SIGKILL: the live file is the previous one, the lock is gone
      expect(existsSync(join(mirror, 'price_paid.duckdb.sync-lock'))).toBe(false);
      expect(await count(mirror)).toBe(small);
      const stale = readdirSync(mirror).filter((n) => /\.new-\d+/.test(n));
      // the next sync removes the dead process's temp files and loads
      const again = await runCli(['sync', 'price-paid', '--from', big, '--force', '--verbose'], { env });
      expect(again.code).toBe(0);
      expect(await count(mirror)).toBe(5_000);
      for (const n of stale) expect(existsSync(join(mirror, n))).toBe(false);
    });
  }

  it('PUBLICDATA_DEBUG=1 adds the stack', async () => {
    const { env, mirror } = await syncedMirror();
    const r = await execa('node', ['--require', PRELOAD, BIN, 'sync', 'price-paid', '--from', big, '--force'], {
      env: { ...env, PATH: process.env.PATH ?? '', NO_COLOR: '1', PD_CRASH: 'throw', PD_CRASH_DIR: mirror, PUBLICDATA_DEBUG: '1' },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('error internal_error: sync price-paid: injected crash during the load (this is a bug in publicdata; set PUBLICDATA_DEBUG=1 for details)');
    expect(lines[1]).toBe('Error: injected crash during the load');
    expect(lines.slice(2).some((l) => l.includes('crash-preload.cjs'))).toBe(true);
  });
});
