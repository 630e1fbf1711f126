#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from tsc) for a fast cold start:
// - dist/cli/main.cjs: one CommonJS file. CommonJS skips the ESM loader's per-module cost (resolve,
//   fs/promises, module jobs: ~20 ms for our ~60 modules), and one file is one read. Without code splitting
//   esbuild keeps every internal dynamic import() lazy: the code is in the file but only runs when imported.
// - dist/cli/main.cjs.cache: a V8 code cache made by running the main job once, loaded by
//   bin/publicdata.cjs (vm.Script cachedData), so V8 need not parse and compile the bundle at start-up.
// - dist/cli/<domain>-<name>-worker.cjs and dist/cli/<name>-worker.cjs: every worker thread, a CommonJS
//   bundle of its own (see below).
// Packages loaded only by some commands (DuckDB, undici, ora, decimal.js, cli-table3, asciichart, saxes,
// yaml) stay external and load from node_modules when first used.
//
// Node 20 drops the dynamic-import callback of a script compiled from a code cache, so the bundle's
// dynamic imports of external packages call __pdImport(), which bin/publicdata.cjs defines in a normal
// module; a plain require() of main.cjs falls back to import() (see the banner).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { workers } from './workers.mjs';
import { spawnSync } from 'node:child_process';

const external = ['@duckdb/*', '@e965/xlsx', 'proj4', 'undici', 'ora', 'yaml', 'fast-check', 'decimal.js', 'saxes', 'yauzl', 'cli-table3', 'asciichart'];

/**
 * The domains' response schemas (`import('./schemas.js')` in each manifest) are read only when the
 * OpenAPI document is built (`serve`, tests): ~94 KB of object literals that every cold start would read
 * and scan as part of the bundle. They stay outside it, imported from tsc's ES modules in dist/src when
 * first needed (the specifier is relative to dist/cli, where the bundles are).
 */
const schemasOutside = {
  name: 'schemas-outside',
  setup(b) {
    b.onResolve({ filter: /^\.\/schemas\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      return { path: `./${relative(resolve('dist/cli'), resolve(args.resolveDir, args.path)).split('\\').join('/')}`, external: true };
    });
  },
};

/** One bundle for Node 20 with the packages above left external. */
const bundle = (entry, outfile, opts) =>
  build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', target: 'node20', external, plugins: [schemasOutside], logLevel: 'warning', ...opts });
const META_URL = "const __pdImportMetaUrl = require('node:url').pathToFileURL(__filename).href;";

rmSync('dist/cli', { recursive: true, force: true });
await bundle('dist/src/main.js', 'dist/cli/main.cjs', {
  format: 'cjs',
  define: { 'import.meta.url': '__pdImportMetaUrl' },
  banner: {
    js: [
      META_URL,
      'const __pdImport = globalThis.__pdImport ?? ((s) => import(s));',
    ].join('\n'),
  },
});
const file = 'dist/cli/main.cjs';
let code = readFileSync(file, 'utf8');
let n = 0;
code = code.replace(/\bimport\((["'][^"']+["'])\)/g, (_, spec) => (n++, `__pdImport(${spec})`));
// ASCII only, so the launcher reads it as latin1 into a one-byte string: a UTF-8 read of ~1 MB with a
// few non-ASCII characters (esbuild leaves them in regular expressions) makes a two-byte string, which
// costs ~20-40 ms more to read and scan at start-up. \uXXXX means the same in strings, templates and
// regular expressions (all our non-ASCII characters are in the BMP).
// commander requires node:child_process when it loads, for executable subcommands (`spawn`), which
// publicdata does not use; loading it pulls in net, dgram and the streams at every start (~4-9 ms, about
// 5% of a cold start). Required on first use instead; the build fails if commander's line changes.
const CP = 'var childProcess = require("node:child_process");';
if (code.split(CP).length !== 2) throw new Error("bundle: commander's child_process require was not found exactly once (commander changed?)");
code = code.replace(CP, 'var childProcess = { spawn: (...a) => require("node:child_process").spawn(...a) };');
code = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
if (/[^\x00-\x7f]/.test(code)) throw new Error('bundle: dist/cli/main.cjs is not ASCII');
writeFileSync(file, code);

// Every worker thread (scripts/workers.mjs: src/**/<name>-worker.ts, as src/workers/pool.ts starts them):
// one CommonJS file each, found beside the CLI bundle. In CommonJS esbuild require()s an external package
// inside the lazily run module that needs it: an ES bundle hoists every external package any bundled
// module imports (SheetJS, proj4, saxes, yauzl, decimal.js) to static imports run at its start, ~150 ms of
// the batch worker's ~230 ms start-up (CPU, measured with --cpu-prof), so a calculator's worker loads none
// of them. And a worker started from the dist/ ES modules imports its packages (saxes, yauzl) as
// ESM-from-CommonJS, which runs Node's CommonJS export lexer over their sources: with --trace-opt, ~0.1 s of
// the worker's own time and ~0.9 s of background TurboFan compiling (the lexer's parseSource loop, twice)
// per accounts worker, paid again by every worker and competing with the other worker for the second core.
for (const { entry, out } of workers()) {
  await bundle(entry, out, { format: 'cjs', define: { 'import.meta.url': '__pdImportMetaUrl' }, banner: { js: META_URL } });
}

// Make the code cache: run the main job once (the loader writes the cache when it has none). The main job
// is the README's first command; in a copy without its domain (npm run check:domains) the help instead.
const MAIN_JOB = ['tax', 'take-home', '45000'];
const warm = existsSync(resolve('src', 'domains', MAIN_JOB[0])) ? MAIN_JOB : ['--help'];
const r = spawnSync(process.execPath, ['bin/publicdata.cjs', ...warm], { stdio: ['ignore', 'ignore', 'inherit'] });
if (r.status !== 0) throw new Error(`bundle: the built CLI failed its first run (exit ${r.status})`);
console.log(`bundle: dist/cli/main.cjs (${n} external dynamic imports routed), code cache and ${workers().length} worker(s)`);
