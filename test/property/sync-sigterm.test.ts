/**
 * A sync stopped by SIGTERM or SIGINT says so in one line (issue 37: "a SIGTERM'd sync prints nothing"):
 * which dataset stopped and that the mirror keeps the data it had; it exits 143/130 as a signalled
 * process would, and leaves no lock behind. The built binary, against a local upstream serving slowly.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { indexPage } from '../support/upstream-server.js';
import { bigFile } from './ppd-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const REPO = join(import.meta.dirname, '..', '..');
const up = useUpstreamServer('pd-sigterm-');

beforeEach(() => {
  up.server.set('/price-paid/', indexPage({ 'Complete file': 'pp-complete.csv' }, '2026-10-28'), { contentType: 'text/html' });
  // slow enough that the download is under way when the signal comes
  up.server.set('/price-paid/pp-complete.csv', bigFile(50_000), { fault: { bytesPerSecond: 100_000 } });
});

for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  describe(signal, () => {
    it(`during the download: one line naming the dataset, exit ${code}, no lock left`, async () => {
      const data = mkdtempSync(join(tmpdir(), 'pd-sigterm-data-'));
      const mirrorDir = join(data, 'mirror');
      const cacheDir = join(data, 'cache');
      const child = spawn(process.execPath, [join(REPO, 'bin', 'publicdata.cjs'), 'sync', 'price-paid'], {
        env: { ...process.env, PUBLICDATA_UPSTREAM_BASE: up.server.url, PUBLICDATA_DATA_DIR: data, PUBLICDATA_CACHE_DIR: cacheDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      // the download has begun once its .part file exists
      const part = join(cacheDir, 'price-paid', 'pp-complete.csv.part');
      for (let i = 0; i < 400 && !existsSync(part); i++) await new Promise((r) => setTimeout(r, 25));
      expect(existsSync(part)).toBe(true);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toContain(`publicdata sync price-paid: stopped by ${signal}; the mirror keeps the data it had before this sync`);
      expect(existsSync(mirrorDir) ? readdirSync(mirrorDir).filter((f) => f.endsWith('.sync-lock')) : []).toEqual([]);
    });
  });
}
