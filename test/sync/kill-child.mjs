/**
 * Child process for the SIGKILL tests (kill.test.ts): plain JS on the built sources in dist/ (`npm test`
 * builds first). dist/ never holds the test-only example domain: its sync module comes bundled (the test
 * bundles test/support/example-domain/sync.ts against dist/, bundle.ts) and is handed to the sync runner
 * through an injected loader (src/sync-runner.ts createSyncRunner), as the registry hands a real dataset's.
 * argv: moduleFile mirrorDir cacheDir point [from]
 * point: 'download' (first progress event of the download), 'load' (the load phase started),
 *        'loaded' | 'before-rename' | 'downloaded' (framework hooks). At the point it prints `AT <point>`
 *        and, for hooks, waits forever so the parent can SIGKILL it there.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSyncRunner } from '../../dist/src/sync-runner.js';

const [moduleFile, mirrorDir, cacheDir, point, from] = process.argv.slice(2);
const runner = createSyncRunner({ 'example-records': async () => (await import(pathToFileURL(moduleFile).href)).recordsModule });
const part = join(cacheDir, 'example-records', 'records-complete.csv.part');
const partSize = () => (existsSync(part) ? statSync(part).size : 0);
let announced = false;
const announce = (p) => {
  if (announced) return;
  announced = true;
  process.stdout.write(`AT ${p}\n`);
};

await runner.syncDataset('example-records', {
  mirrorDir,
  cacheDir,
  env: { PUBLICDATA_UPSTREAM_BASE: process.env.PUBLICDATA_UPSTREAM_BASE },
  ...(from ? { from } : {}),
  force: !from,
  backoffMs: 10,
  progress: (e) => {
    // (the .part file is opened asynchronously: announce once bytes have reached the disk)
    if (point === 'download' && e.type === 'download' && partSize() > 0) announce('download');
    if (point === 'load' && e.type === 'phase' && e.phase === 'load') announce('load');
  },
  hooks: {
    at: async (p) => {
      if (p === point) {
        announce(p);
        // Wait for the SIGKILL with a timer pending: an unsettled promise alone leaves the event loop empty,
        // and node would exit (code 13) before the parent's kill lands.
        await new Promise(() => setInterval(() => undefined, 60_000));
      }
    },
  },
});
process.stdout.write('DONE\n');
