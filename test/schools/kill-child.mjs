/**
 * Child process of kill.test.ts: a `sync schools --from FILE` on the built sources in dist/ (`npm test` builds
 * first) that stops at a framework hook ('loaded' or 'before-rename'), prints `AT <point>` and waits there so
 * the parent can SIGKILL it. argv: mirrorDir cacheDir point from...
 */
import { syncDataset } from '../../dist/src/sync-runner.js';

const [mirrorDir, cacheDir, point, ...from] = process.argv.slice(2);
await syncDataset('schools', {
  mirrorDir,
  cacheDir,
  env: {},
  from,
  // the 5-row graded file replaces the 40 inspections on purpose (the unit shrink check would refuse it)
  allowShrink: true,
  hooks: {
    at: async (p) => {
      if (p === point) {
        process.stdout.write(`AT ${p}\n`);
        // Wait for the SIGKILL with a timer pending: an unsettled promise alone leaves the event loop empty,
        // and node would exit (code 13) before the parent's kill lands.
        await new Promise(() => setInterval(() => undefined, 60_000));
      }
    },
  },
});
process.stdout.write('DONE\n');
