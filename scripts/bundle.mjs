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
import { build, transform } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import vm from 'node:vm';
import Module from 'node:module';
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

// The CLI: esbuild's code splitting (ES modules: one chunk per set of entry points that reach a module, every
// internal import() a chunk of its own), each chunk then turned into CommonJS and wrapped in a function
// that the runtime below runs once, on first require (`__pd.require(name)`). The chunks every command
// needs (main.js and what it imports statically) are packed into dist/cli/main.cjs; every import() target
// is a pack of its own, dist/cli/chunks/<name>.cjs, holding it and what it imports statically beyond
// main.cjs (a chunk two packs need is in both; the runtime defines and runs it once). So `tax take-home`
// reads main.cjs and two small packs (~0.45 MB) instead of the whole CLI (1.5 MB), and a new domain adds
// packs, not start-up work.
rmSync('dist/cli', { recursive: true, force: true });
const built = await build({
  entryPoints: ['dist/src/main.js'],
  outdir: 'dist/cli/chunks',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [schemasOutside],
  define: { 'import.meta.url': '__pdImportMetaUrl' },
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  metafile: true,
  write: false,
  logLevel: 'warning',
});
const outs = built.metafile.outputs;
const chunkOf = (p) => p.replace(/^dist\/cli\/chunks\//, '');
const chunks = Object.keys(outs).filter((k) => k.endsWith('.js')).map(chunkOf);
const known = new Set(chunks);
/** A chunk and every chunk it imports statically (they run before it). */
const closure = (name, acc = new Set()) => {
  if (acc.has(name)) return acc;
  acc.add(name);
  for (const i of outs[`dist/cli/chunks/${name}`].imports) if (i.kind === 'import-statement' && !i.external) closure(chunkOf(i.path), acc);
  return acc;
};

const CP = /var childProcess = (?:__require|\(0, [\w$]+\.__require\))\("node:child_process"\);/g;
let cpFound = 0;
let routed = 0;
/** One chunk as a CommonJS function body: its internal imports through the runtime, external import()s through __pdImport. */
async function cjsChunk(name, text) {
  text = text.replace(/\bimport\((["'])([^"']+)\1\)/g, (_, q, spec) => {
    const c = spec.startsWith('./') ? spec.slice(2) : undefined;
    if (c !== undefined && known.has(c)) return `__pd.lazy("${c}")`;
    routed++;
    return `__pdImport("${spec}")`;
  });
  let code = (await transform(text, { format: 'cjs', platform: 'node', target: 'node20', loader: 'js', logLevel: 'warning' })).code;
  code = code.replace(/\brequire\("\.\/([^"]+)"\)/g, (m, c) => {
    if (!known.has(c)) throw new Error(`bundle: chunk ${name} requires unknown ./${c}`);
    return `__pd.require("${c}")`;
  });
  // commander requires node:child_process when it loads, for executable subcommands (`spawn`), which
  // publicdata does not use; loading it pulls in net, dgram and the streams at every start (~4-9 ms, about
  // 5% of a cold start). Required on first use instead; the build fails if commander's line changes.
  code = code.replace(CP, () => (cpFound++, 'var childProcess = { spawn: (...a) => require("node:child_process").spawn(...a) };'));
  // esbuild's CommonJS exports are a copy of the export object whose every property is a getter calling the
  // export object's getter (`__toCommonJS`): two calls for each use of another chunk's function or constant,
  // ~2.5 ms of a 10,000-transaction VAT return's run (`--cpu-prof`: `get` in the hot checks, not yet
  // optimised). The export object itself (its getters keep ES live bindings) is the module's exports instead.
  code = code.replace(/^module\.exports = __toCommonJS\(stdin_exports\);$/m, () => 'module.exports = __defProp(stdin_exports, "__esModule", { value: true });');
  if (code.includes('__toCommonJS(stdin_exports)')) throw new Error(`bundle: chunk ${name}'s exports line was not rewritten (esbuild's CommonJS output changed?)`);
  const banner = [];
  if (code.includes('__pdImportMetaUrl')) banner.push(META_URL);
  if (code.includes('__pdImport(')) banner.push('const __pdImport = globalThis.__pdImport ?? ((s) => import(s));');
  return `__pd.define(${JSON.stringify(name)}, function (exports, require, module, __filename, __dirname) {\n${banner.join('\n')}${banner.length ? '\n' : ''}${code}});\n`;
}
const bodies = new Map();
for (const f of built.outputFiles) if (f.path.endsWith('.js')) bodies.set(chunkOf(relative(process.cwd(), f.path).split('\\').join('/')), await cjsChunk(chunkOf(relative(process.cwd(), f.path).split('\\').join('/')), f.text));
if (cpFound !== 1) throw new Error(`bundle: commander's child_process require was found ${cpFound} times, not once (commander changed?)`);

/**
 * The runtime, at the head of main.cjs: chunk name -> its function (defined by the packs as they load) and
 * its module once run. A pack is read through globalThis.__pdLoadPack when the launcher (bin/publicdata.cjs)
 * set it (a compile from V8's code cache), else with require().
 */
const RUNTIME = `"use strict";
const __pd = globalThis.__pd ?? (globalThis.__pd = (() => {
  const defs = new Map();
  const mods = new Map();
  const load = globalThis.__pdLoadPack ?? ((f) => require(f));
  const req = require;
  const file = __filename;
  const dir = __dirname;
  const get = (name) => {
    const m = mods.get(name);
    if (m !== undefined) return m.exports;
    if (!defs.has(name)) load(require("node:path").join(dir, "chunks", name.slice(0, -3) + ".cjs"));
    const fn = defs.get(name);
    if (fn === undefined) throw new Error("publicdata: the bundle has no chunk " + name + " (rebuild with npm run build)");
    const mod = { exports: {} };
    mods.set(name, mod);
    fn.call(mod.exports, mod.exports, req, mod, file, dir);
    return mod.exports;
  };
  return {
    define: (name, fn) => void (defs.has(name) || defs.set(name, fn)),
    require: get,
    lazy: (name) => new Promise((resolve) => resolve(get(name))),
  };
})());
`;
const ascii = (file, code) => {
  // ASCII only, so the launcher reads it as latin1 into a one-byte string: a UTF-8 read of ~1 MB with a
  // few non-ASCII characters (esbuild leaves them in regular expressions) makes a two-byte string, which
  // costs ~20-40 ms more to read and scan at start-up. \uXXXX means the same in strings, templates and
  // regular expressions (all our non-ASCII characters are in the BMP).
  code = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (/[^\x00-\x7f]/.test(code)) throw new Error(`bundle: ${file} is not ASCII`);
  writeFileSync(file, code);
};
const main = closure('main.js');
mkdirSync('dist/cli/chunks', { recursive: true });
// dependencies first: a pack defines its chunks, then main.cjs runs main.js
ascii('dist/cli/main.cjs', `${RUNTIME}${[...main].map((c) => bodies.get(c)).join('')}__pd.require("main.js");\n`);
/** The chunks an import() names: each has a pack (the other chunks are only ever loaded inside one). */
const targets = new Set(chunks.flatMap((c) => outs[`dist/cli/chunks/${c}`].imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => chunkOf(i.path))));
const packs = [];
for (const name of chunks) {
  if (main.has(name) || !targets.has(name)) continue;
  const own = [...closure(name)].filter((c) => !main.has(c));
  const file = `dist/cli/chunks/${name.slice(0, -3)}.cjs`;
  ascii(file, `"use strict";\nconst __pd = globalThis.__pd;\n${own.map((c) => bodies.get(c)).join('')}`);
  packs.push(file);
}

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
// The packs the main job did not load get a cache of their compiled top level (the launcher writes none
// where it cannot write, e.g. a global install): the same wrapping as bin/publicdata.cjs. Named
// `<pack>.cache.partial`: the launcher reads it when there is no `<pack>.cache`, and after the pack's first
// run writes `<pack>.cache` with the functions that run compiled too (a VAT return's parse and checks:
// ~100 functions compiled on every run else), then removes the partial one.
let cached = 0;
for (const file of packs) {
  if (existsSync(`${file}.cache`)) continue;
  const script = new vm.Script(Module.wrap(readFileSync(file, 'latin1')), { filename: resolve(file) });
  writeFileSync(`${file}.cache.partial`, script.createCachedData());
  cached++;
}
console.log(`bundle: dist/cli/main.cjs (${main.size} chunks) and ${packs.length} packs in dist/cli/chunks (${routed} external dynamic imports routed), code caches (${cached} compiled only) and ${workers().length} worker(s)`);
