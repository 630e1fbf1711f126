#!/usr/bin/env node
// Bundles the CLI entry (dist/src/main.js, already compiled by tsc) into dist/cli/ so a cold start reads
// a handful of files instead of ~60 modules. Dynamic imports stay separate chunks (code splitting), so
// DuckDB, undici, ora and cli-table3 still load only when a command needs them. Native and large
// packages stay external and load from node_modules.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: ['dist/src/main.js', 'dist/src/batch-worker.js'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@duckdb/*', 'undici', 'ora', 'yaml', 'fast-check', ...(process.env.BUNDLE_EXTRA_EXTERNAL ?? '').split(',').filter(Boolean)],
  logLevel: 'warning',
  banner: { js: "import { createRequire as __pdCreateRequire } from 'node:module'; const require = __pdCreateRequire(import.meta.url);" },
});
console.log('bundle: dist/cli/main.js');
