/**
 * A schools sync killed (SIGKILL) after its load and just before the rename leaves the last good data
 * answering; the next sync removes the dead process's file and succeeds. The child runs on dist/ (built first).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, ctxFor, tempDir } from '../support/mirror-helper.js';
import { getRoute } from '../support/route.js';
import { GIAS_GENERATED, MI_GRADED_GENERATED, MI_REAL } from './fixture.js';

const REPO = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => cleanup(dirs));

async function framework(mirror: string, urn: number): Promise<unknown> {
  const r = await getRoute(`/v1/schools/${urn}`, {}, ctxFor(mirror));
  await closeAll();
  return (r.envelope as any).data?.latest_inspection?.framework;
}

describe.skipIf(!existsSync(join(REPO, 'dist', 'src', 'domains', 'schools', 'sync', 'index.js')))('SIGKILL during a schools sync', () => {
  let mirror: string;
  let cache: string;
  beforeAll(async () => {
    const d = tempDir('pd-schools-kill-');
    dirs.push(d);
    mirror = join(d, 'mirror');
    cache = join(d, 'cache');
    await syncDataset('schools', { mirrorDir: mirror, cacheDir: cache, env: {}, from: [GIAS_GENERATED, MI_REAL] });
    await closeAll();
  }, 60_000);

  for (const point of ['loaded', 'before-rename']) {
    it(`killed at ${point}`, async () => {
      expect(await framework(mirror, 107848)).toBe('report_card');
      const child = spawn(process.execPath, [join(REPO, 'test', 'schools', 'kill-child.mjs'), mirror, cache, point, MI_GRADED_GENERATED], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.includes(`AT ${point}`)) resolve();
        });
        child.on('exit', (code) => reject(new Error(`child exited ${code} before ${point}: ${out}`)));
      });
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
      expect(child.signalCode).toBe('SIGKILL');
      // the last good data (the report-card file) still answers
      expect(await framework(mirror, 107848)).toBe('report_card');
      expect(readdirSync(mirror).some((f) => f.startsWith(`schools.duckdb.new-${child.pid}`))).toBe(true);
    }, 60_000);
  }

  it('the next sync cleans up and succeeds', async () => {
    const r = await syncDataset('schools', { mirrorDir: mirror, cacheDir: cache, env: {}, from: [MI_GRADED_GENERATED], allowShrink: true });
    expect(r.status).toBe('synced');
    expect(readdirSync(mirror).sort()).toEqual(['schools.duckdb']);
    await closeAll();
    // 107848 is not in the graded file: no inspection now
    expect(await framework(mirror, 107848)).toBeUndefined();
  }, 60_000);
});
