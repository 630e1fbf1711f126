#!/usr/bin/env node
// Launcher: runs the bundled CLI (dist/cli/main.cjs) from V8's code cache when there is a valid one, so a
// cold start need not parse and compile the bundle. Falls back to a plain compile (and writes a new cache
// when it can) if the cache is missing or V8 rejects it (another Node version). See scripts/bundle.mjs.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const file = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs');
// A relative specifier is the bundle's own (relative to dist/cli/main.cjs: the domains' schemas in dist/src).
const base = require('node:url').pathToFileURL(file).href;
globalThis.__pdImport = (specifier) => import(specifier.startsWith('.') ? new URL(specifier, base).href : specifier);

const cacheFile = `${file}.cache`;
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
// The bundle is ASCII (scripts/bundle.mjs checks): latin1 makes a one-byte string without UTF-8 decoding.
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(path.dirname(file));
mod.loaded = true;
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('beforeExit', () => {
    try {
      fs.writeFileSync(cacheFile, script.createCachedData());
    } catch {
      // read-only install: run without a cache
    }
  });
}
script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
