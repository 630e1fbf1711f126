#!/usr/bin/env node
// Compiles every data/**/*.yaml into data/build/**/*.json so start-up never parses YAML.
// Run by `npm run build` (and so by `npm ci` through `prepare`).
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'data');
const outDir = join(dataDir, 'build');

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (p === outDir) continue;
    if (statSync(p).isDirectory()) yield* walk(p);
    else if (name.endsWith('.yaml') || name.endsWith('.yml')) yield p;
  }
}

let n = 0;
// data/ holds only domains' folders: with none (a check:domains copy without any domain) there is nothing to compile.
mkdirSync(outDir, { recursive: true });
for (const file of existsSync(dataDir) ? walk(dataDir) : []) {
  const rel = relative(dataDir, file).replace(/\.ya?ml$/, '.json');
  const out = join(outDir, rel);
  mkdirSync(dirname(out), { recursive: true });
  let doc;
  try {
    doc = parse(readFileSync(file, 'utf8'), { merge: true });
  } catch (e) {
    console.error(`build-data: ${relative(root, file)}: ${e.message}`);
    process.exit(1);
  }
  writeFileSync(out, JSON.stringify(doc));
  n++;
}
console.log(`build-data: compiled ${n} YAML file(s) to data/build/`);
