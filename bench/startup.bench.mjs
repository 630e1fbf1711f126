#!/usr/bin/env node
// Cold start: `publicdata --version` and `publicdata tax take-home 45000` (piped, JSON) against
// `node -e 0`: BENCH_RUNS pairs (default 20), each command run right after its baseline, and the median of
// the pairwise ratios decides (bench/lib/pairs.mjs). Target <= 1.3x (issue 37).
//
// Then start-up against the number of domains: the same take-home in a scratch copy of the project with the
// test-only example domain (test/support/example-domain/) registered as an eleventh-plus domain (its
// folder copied to src/domains/example/, its line added to src/registry.ts, built as `npm run
// build` builds), against this checkout's build. Target <= 1.05x: a domain adds its registry line to
// another domain's start-up, and no more (its manifest, commands, handlers and sync code load when its own
// command or route is used: src/registry.ts; docs/performance.md "Start-up").
// BENCH_STARTUP_DOMAIN=0 skips it (the copy's build takes a minute or more).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, pairedWithoutExtraCa, pairLine, timeProcess } from './lib/pairs.mjs';

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
  pairLine({ measure: `cold start ${name} (median of ${N})`, unit: 'ms', what: 'node -e 0', target: 1.3, ...r });
}
// Where NODE_EXTRA_CA_CERTS is set, node's own start includes loading those certificates (bench/lib/pairs.mjs
// EXTRA_CA): the same take-home pairs without it, for context (docs/performance.md "Issue 37, fourth pass").
await pairedWithoutExtraCa(N, cases[1][1], { measure: `cold start ${cases[1][0]}`, env, warmup: 2 });

/** A scratch copy of the project with the example domain registered, built; returns its launcher. */
function buildWithExampleDomain() {
  const copy = join(root, 'bench', '.work', 'startup-example-domain');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const p of ['src', 'commands', 'sync', 'data', 'scripts', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(root, p), join(copy, p), { recursive: true, filter: (s) => !s.includes(`${join('data', 'build')}`) });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // the domain as a domain folder holds it; samples.ts is the test suite's (it imports test/support helpers)
  cpSync(join(root, 'test', 'support', 'example-domain'), join(copy, 'src', 'domains', 'example'), { recursive: true, filter: (s) => !s.endsWith('samples.ts') });
  const registry = join(copy, 'src', 'registry.ts');
  const text = readFileSync(registry, 'utf8');
  const last = [...text.matchAll(/^  \{ name: '[^']+', load: \(\) => import\('\.\/domains\/[^']+\/index\.js'\)(?:, .*)? \},$/gm)].at(-1);
  if (!last) throw new Error('bench: no domain line found in src/registry.ts');
  const at = last.index + last[0].length;
  writeFileSync(registry, `${text.slice(0, at)}\n  { name: 'example', load: () => import('./domains/example/index.js') },${text.slice(at)}`);
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`bench: the copy with the example domain did not build (exit ${r.status})`);
  const launcher = join(copy, 'bin', 'publicdata.cjs');
  const check = spawnSync(process.execPath, [launcher, 'example', 'items', '--format', 'json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (check.status !== 0 || !check.stdout.includes('"data"')) throw new Error(`bench: the copy does not answer 'example items' (exit ${check.status}): ${check.stderr.slice(0, 500)}`);
  return launcher;
}

if (process.env.BENCH_STARTUP_DOMAIN !== '0') {
  if (!existsSync(join(root, 'test', 'support', 'example-domain', 'index.ts'))) throw new Error('bench: test/support/example-domain/ is missing');
  const withExample = buildWithExampleDomain();
  const r = await paired(N, () => ms([withExample, 'tax', 'take-home', '45000']), () => ms([bin, 'tax', 'take-home', '45000']), { warmup: 2 });
  pairLine({ measure: `cold start publicdata tax take-home 45000 with the test-only example domain added (median of ${N})`, unit: 'ms', what: 'the same build without it', target: 1.05, ...r });
}
