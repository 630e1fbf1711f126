#!/usr/bin/env node
// Cold start: `publicdata --version` and `publicdata tax take-home 45000` (piped, JSON) against
// `node -e 0`: BENCH_RUNS pairs (default 20), each command run right after its baseline, and the median of
// the pairwise ratios decides (bench/lib/pairs.mjs). Target <= 1.5x.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, pairLine, timeProcess } from './lib/pairs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'publicdata.cjs');
const N = Number(process.env.BENCH_RUNS ?? 20);
const env = { PUBLICDATA_DATA_DIR: join(root, 'bench', '.work', 'empty-data'), NO_COLOR: '1' };
const ms = async (args) => (await timeProcess(args, { env })).ms;

const cases = [
  ['publicdata --version', [bin, '--version']],
  ['publicdata tax take-home 45000', [bin, 'tax', 'take-home', '45000']],
];
for (const [name, args] of cases) {
  const r = await paired(N, () => ms(args), () => ms(['-e', '0']), { warmup: 2 });
  pairLine({ measure: `cold start ${name} (median of ${N})`, unit: 'ms', what: 'node -e 0', target: 1.5, ...r });
}
