#!/usr/bin/env node
// Runs every bench/*.bench.mjs in its own node process, one after another, and prints their lines.
// Each bench prints one line per measure with its ratio to a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
const started = Date.now();
for (const f of files) {
  const t = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', join(dir, f)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const out = (r.stdout ?? '').trim();
  if (out) console.log(out);
  if (r.status !== 0) {
    failed++;
    console.log(`${f}: exited ${r.status ?? r.signal}`);
  }
  if (out.includes('| FAIL')) failed++;
  console.error(`# ${f}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
console.error(`# ${files.length} bench files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = failed ? 1 : 0;
