#!/usr/bin/env node
// Batch take-home: `publicdata tax take-home --batch` over 1,000,000 NDJSON lines, against a plain
// node JSON.parse/JSON.stringify passthrough of the same file in the same run. Targets: >= 100,000
// lines/s and >= 0.15x the passthrough rate; peak RSS flat between 100k and 1M lines.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench', '.work');
mkdirSync(work, { recursive: true });
const N = Number(process.env.BENCH_BATCH_LINES ?? 1_000_000);
const SMALL = Math.round(N / 10);

async function makeInput(n) {
  const file = join(work, `take-home-${n}.ndjson`);
  if (existsSync(file)) return file;
  const out = createWriteStream(file);
  const regions = ['england_wales_ni', 'scotland'];
  const plans = [[], ['plan_2'], ['plan_1'], ['plan_2', 'postgraduate']];
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < n; i++) {
    const body = { gross_income: 10000 + Math.floor(rnd() * 190000), region: regions[i % 2] };
    if (i % 3 === 0) body.student_loan_plans = plans[i % 4];
    if (i % 5 === 0) Object.assign(body, { pension_contribution_percent: 5, pension_type: 'salary_sacrifice' });
    if (!out.write(`${JSON.stringify(body)}\n`)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return file;
}

// The passthrough baseline, shared with the other batch bench (bench/lib/passthrough.mjs).
const passthrough = fileURLToPath(new URL('./lib/passthrough.mjs', import.meta.url));

/** Wall seconds and peak RSS (KiB) of a command with stdin from a file and stdout to /dev/null. */
function measure(args, input) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', 'sh', '-c', `"${process.execPath}" ${args.map((a) => `"${a}"`).join(' ')} < "${input}" > /dev/null`], {
    encoding: 'utf8',
    env: { ...process.env, PUBLICDATA_DATA_DIR: join(work, 'empty-data'), NO_COLOR: '1' },
  });
  const last = r.stderr.trim().split('\n').at(-1);
  const [secs, kib] = last.split(' ').map(Number);
  if (!Number.isFinite(secs)) throw new Error(`measure failed: ${r.stderr}`);
  return { secs, kib };
}

const big = await makeInput(N);
const small = await makeInput(SMALL);
const bin = join(root, 'bin', 'publicdata.cjs');
// BENCH_BATCH_PAIRS pairs (default 3): the batch right after the passthrough on the same file; the median
// pairwise ratio of the rates decides, with the absolute floor of 100,000 lines/s.
const { paired, pairLine, stats } = await import('./lib/pairs.mjs');
const PAIRS = Number(process.env.BENCH_BATCH_PAIRS ?? 3);
const kibs = [];
const rates = await paired(
  PAIRS,
  () => {
    const m = measure([bin, 'tax', 'take-home', '--batch'], big);
    kibs.push(m.kib);
    return N / m.secs;
  },
  () => N / measure([passthrough], big).secs,
);
const rate = stats(rates.a).median;
pairLine({
  measure: `batch take-home ${N.toLocaleString('en-GB')} lines`,
  unit: 'lines/s',
  what: 'JSON parse/stringify passthrough',
  target: 0.15,
  cmp: '>=',
  extraTarget: '>= 100,000 lines/s',
  extraPass: rate >= 100_000,
  ...rates,
});
// Memory: peak RSS at N lines against N/10 lines, run in turn; flat means the ratio stays near 1.
const smallKibs = [];
let j = 0;
const mem = await paired(
  PAIRS,
  () => kibs[j++] / 1024,
  () => {
    const m = measure([bin, 'tax', 'take-home', '--batch'], small);
    smallKibs.push(m.kib);
    return m.kib / 1024;
  },
);
pairLine({ measure: `batch take-home peak RSS ${N.toLocaleString('en-GB')} lines`, unit: 'MiB', what: `${SMALL.toLocaleString('en-GB')} lines`, target: 1.25, ...mem });
