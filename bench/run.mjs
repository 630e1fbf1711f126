#!/usr/bin/env node
// Runs every bench/*.bench.mjs in its own node process, one after another, and prints their lines.
// Each bench prints one line per measure with its ratio to a baseline measured in the same run.
// A line measured while other processes used the machine (the line says BUSY itself, or processes other
// than the bench file's used more than OTHERS_MAX_CORES on average while it ran: /proc/stat less the bench
// tree's own CPU, which the load average would count too) gets a warning, and never PASS: a figure from a
// busy machine is not a pass (bench/README.md, "How a line is measured"). Where that cannot be measured
// (not Linux), the load average before or after the file above the core count decides.
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORES, cpuSample, othersCores, OTHERS_MAX_CORES } from './lib/pairs.mjs';

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
  const before = loadavg()[0];
  const s0 = cpuSample();
  const r = spawnSync(process.execPath, ['--expose-gc', join(dir, f)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const s1 = cpuSample();
  const after = loadavg()[0];
  const others = s0 && s1 ? othersCores(s0, s1) : undefined;
  const busyFile = others !== undefined ? others > OTHERS_MAX_CORES : Math.max(before, after) > CORES;
  const how = others !== undefined ? `other processes used ${others.toFixed(2)} cores on average while it ran` : `load average ${before.toFixed(2)} before, ${after.toFixed(2)} after, above ${CORES} cores`;
  const out = (r.stdout ?? '').trim();
  for (const line of out ? out.split('\n') : []) {
    const busy = busyFile || line.includes('| BUSY');
    // a bench line ends in its verdict; one measured on a busy machine must not say PASS
    console.log(busy ? line.replace(/\| PASS$/, `| BUSY (${how}: not a pass)`) : line);
    if (busy && / \| /.test(line)) console.log(`  WARNING: measured on a busy machine (${how}): the timing is not trustworthy`);
  }
  if (r.status !== 0) {
    failed++;
    console.log(`${f}: exited ${r.status ?? r.signal}`);
  }
  if (!busyFile && out.includes('| FAIL')) failed++;
  console.error(`# ${f}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
console.error(`# ${files.length} bench files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = failed ? 1 : 0;
