#!/usr/bin/env node
// The build: data (YAML -> JSON, build-data.mjs), TypeScript (tsc -p tsconfig.build.json: type-checks and
// emits dist/), then the bundle and its code cache (bundle.mjs). On success it records a hash of every
// input in dist/.build-inputs.
//
// `--if-changed` (used by `npm test`) skips the build when the inputs hash to the recorded value and the
// outputs are there: `npm ci` has just built through `prepare`, and building the same sources again
// costs the suite a tsc run for nothing. The hash covers the sources, data, scripts, bin, the tsconfig
// files, package.json, package-lock.json and the Node version (the code cache is V8-specific), so an
// edit, a checkout or another Node always rebuilds.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workers } from './workers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist', '.build-inputs');
const INPUT_DIRS = ['src', 'commands', 'sync', 'data', 'scripts', 'bin'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
const SKIP = new Set([join(root, 'data', 'build')]);
const OUTPUTS = ['dist/src/main.js', 'dist/sync/framework.js', 'dist/src/sync-runner.js', 'dist/cli/main.cjs', 'dist/cli/main.cjs.cache', 'data/build'];

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (SKIP.has(p)) continue;
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

function inputsHash() {
  const h = createHash('sha256');
  h.update(`node ${process.version}\0`);
  const files = [...INPUT_DIRS.flatMap((d) => (existsSync(join(root, d)) ? [...walk(join(root, d))] : [])), ...INPUT_FILES.map((f) => join(root, f)).filter((f) => existsSync(f))];
  for (const f of files) {
    h.update(`${relative(root, f)}\0`);
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex');
}

function run(what, args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`build: ${what} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

const ifChanged = process.argv.includes('--if-changed');
const hash = inputsHash();
if (ifChanged && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hash && [...OUTPUTS, ...workers().map((w) => w.out)].every((o) => existsSync(join(root, o)))) {
  console.log('build: up to date (inputs unchanged since the last build)');
  process.exit(0);
}

rmSync(STAMP, { force: true });
run('build-data', ['scripts/build-data.mjs']);
run('tsc', [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
run('bundle', ['scripts/bundle.mjs']);
writeFileSync(STAMP, `${hash}\n`);
