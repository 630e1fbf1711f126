/**
 * Child process for the SIGKILL tests of `mirror export` (export-swap.test.ts): plain JS on the built
 * sources in dist/ (`npm test` builds first), like test/sync/kill-child.mjs.
 * argv: mirrorDir outDir step table
 * Runs `exportMirror` of example-records into outDir with `--since outDir` and the small test layout (files of
 * one 4-row row group, so a partition is several files); at the first swap step `step` of `table`
 * (`<dataset>/<table>`) it prints `AT <step>` and waits forever so the parent can SIGKILL it there.
 * dist/ never holds the test-only example domain: its catalogue entry (DatasetInfo, plain data) comes as
 * JSON in PUBLICDATA_TEST_CATALOGUE, the catalogue exportMirror is handed as the CLI hands it the registry's.
 */
import { exportMirror } from '../../dist/src/mirror/export.js';
import { LAYOUT } from '../../dist/src/mirror/export-table.js';

const [mirrorDir, outDir, step, table] = process.argv.slice(2);
Object.assign(LAYOUT, { targetFileBytes: 1, rowGroupRows: 4 });
const catalogue = JSON.parse(process.env.PUBLICDATA_TEST_CATALOGUE);
await exportMirror({
  catalogue, env: {}, format: 'parquet', outDir, datasets: ['example-records'], mirrorDir, since: outDir,
  onSwap: async (e) => {
    if (e.step === step && e.table === table) {
      process.stdout.write(`AT ${e.step} ${e.path}\n`);
      await new Promise(() => undefined);
    }
  },
});
process.stdout.write('DONE\n');
