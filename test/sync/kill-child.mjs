/**
 * Child process for the SIGKILL tests (kill.test.ts): plain JS on the built sources in dist/ (`npm test`
 * builds first), so the test need not compile a copy of its own.
 * argv: mirrorDir cacheDir point [from]
 * point: 'download' (first progress event of the download), 'load' (the load phase started),
 *        'loaded' | 'before-rename' (framework hooks). At the point it prints `AT <point>` and,
 *        for hooks, waits forever so the parent can SIGKILL it there.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { syncDataset } from '../../dist/src/sync-runner.js';

const [mirrorDir, cacheDir, point, from] = process.argv.slice(2);
const part = join(cacheDir, 'price-paid', 'pp-complete.csv.part');
const partSize = () => (existsSync(part) ? statSync(part).size : 0);
let announced = false;
const announce = (p) => {
  if (announced) return;
  announced = true;
  process.stdout.write(`AT ${p}\n`);
};

await syncDataset('price-paid', {
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
