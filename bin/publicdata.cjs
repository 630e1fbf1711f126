#!/usr/bin/env node
// Launcher: runs the bundled CLI (dist/cli/main.cjs, and the packs of dist/cli/chunks/ it loads on first
// use) from V8's code cache when there is a valid one, so a cold start need not parse and compile them.
// Falls back to a plain compile (and writes a new cache when it can) if a cache is missing or V8 rejects it
// (another Node version). See scripts/bundle.mjs.
'use strict';
const fs = require('node:fs');

// `publicdata --version` (or -V, -v) alone needs nothing but the version: package.json's, which the CLI
// prints too (src/version.ts is kept in step with it by a test). Written straight to the descriptor.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V' || argv[0] === '-v')) {
  const line = `${require('../package.json').version}\n`;
  try {
    fs.writeSync(1, line);
  } catch (e) {
    // the reader has gone (`| head -0`): nothing to say; a non-blocking pipe that is full: the stream waits
    if (e.code !== 'EPIPE') process.stdout.write(line);
  }
  return;
}

const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const file = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs');
// A relative specifier is the bundle's own (relative to dist/cli/main.cjs: the domains' schemas in dist/src).
const base = require('node:url').pathToFileURL(file).href;
globalThis.__pdImport = (specifier) => import(specifier.startsWith('.') ? new URL(specifier, base).href : specifier);

/**
 * Scripts compiled without an accepted cache, or from a partial one (the build's cache of a pack no build
 * run loaded, `<pack>.cache.partial`, holds its top level only): their caches are written to `<file>.cache`
 * before exit, with the bytecode of every function this run compiled, so the next run of the command
 * compiles none of them.
 */
const uncached = [];
process.once('beforeExit', () => {
  for (const [f, script] of uncached) {
    try {
      // a temporary file renamed into place: two processes writing at once never leave a torn cache
      const tmp = `${f}.cache.${process.pid}`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, `${f}.cache`);
      // the partial cache, if that is what this run had, is not read again
      fs.rmSync(`${f}.cache.partial`, { force: true });
    } catch {
      // read-only install: run with the cache there is
    }
  }
});

/** Whether this process may write in `dir` (a global install may not: its caches are left as they are). */
function writable(dir) {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Compile and run one CommonJS file of the bundle, from its code cache when V8 accepts it. */
function run(f) {
  // `<file>.cache` when there is one (one read: the common case), else the build's partial cache
  let cachedData;
  let partial = false;
  try {
    cachedData = fs.readFileSync(`${f}.cache`);
  } catch {
    try {
      cachedData = fs.readFileSync(`${f}.cache.partial`);
      partial = true;
    } catch {
      cachedData = undefined;
    }
  }
  // The bundle is ASCII (scripts/bundle.mjs checks): latin1 makes a one-byte string without UTF-8 decoding.
  const script = new vm.Script(Module.wrap(fs.readFileSync(f, 'latin1')), { filename: f, cachedData });
  if ((cachedData === undefined || script.cachedDataRejected || partial) && writable(path.dirname(f))) uncached.push([f, script]);
  const mod = new Module(f, module);
  mod.filename = f;
  mod.paths = Module._nodeModulePaths(path.dirname(f));
  mod.loaded = true;
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(f), mod, f, path.dirname(f));
  return mod.exports;
}

// main.cjs loads a pack (dist/cli/chunks/<name>.cjs) through this when a command first needs it.
globalThis.__pdLoadPack = run;
run(file);
