#!/usr/bin/env node
// Cold start: `publicdata --version` and `publicdata tax take-home 45000` (piped, JSON) against
// `node -e 0`, median of 20 runs each (BENCH_RUNS), interleaved so machine load affects both alike. Target <= 1.5x.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'publicdata.cjs');
const N = Number(process.env.BENCH_RUNS ?? 20);
const env = { ...process.env, PUBLICDATA_DATA_DIR: join(root, 'bench', '.work', 'empty-data'), NO_COLOR: '1' };

function time(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const cases = [
  ['publicdata --version', [bin, '--version']],
  ['publicdata tax take-home 45000', [bin, 'tax', 'take-home', '45000']],
];
// Warm the file cache once.
time(['-e', '0']);
for (const [, a] of cases) time(a);
for (const [name, args] of cases) {
  const base = [];
  const ours = [];
  for (let i = 0; i < N; i++) {
    base.push(time(['-e', '0']));
    ours.push(time(args));
  }
  const b = median(base);
  const o = median(ours);
  const ratio = o / b;
  console.log(
    `cold start ${name}: ${o.toFixed(1)} ms (median of ${N}) | baseline node -e 0: ${b.toFixed(1)} ms | ratio ${ratio.toFixed(2)}x | target <= 1.50x | ${ratio <= 1.5 ? 'PASS' : 'FAIL'}`,
  );
}
