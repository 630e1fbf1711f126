/**
 * Child process of kill.test.ts: a `sync schools --from FILE` on the built sources in dist/ (`npm test` builds
 * first) that stops at a framework hook ('loaded' or 'before-rename'), prints `AT <point>` and waits there so
 * the parent can SIGKILL it. argv: mirrorDir cacheDir point from...
 */
import { syncDataset } from '../../dist/sync/framework.js';

const [mirrorDir, cacheDir, point, ...from] = process.argv.slice(2);
await syncDataset('schools', {
  mirrorDir,
  cacheDir,
  env: {},
  from,
  hooks: {
    at: async (p) => {
      if (p === point) {
        process.stdout.write(`AT ${p}\n`);
        await new Promise(() => undefined);
      }
    },
  },
});
process.stdout.write('DONE\n');
