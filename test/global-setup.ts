/**
 * Before any test file: build dist/ when its inputs changed (`scripts/build.mjs --if-changed`, a hash of
 * the sources: ~0.2 s when nothing changed). Tests that run the built CLI or spawn children on dist/
 * (the SIGKILL tests, e2e) then never exercise a stale build, also under a bare `npx vitest run FILE`.
 * Once, here, so parallel test files never build at the same time.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  const root = join(__dirname, '..');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-changed'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`test setup: the build failed (exit ${r.status})`);
}
