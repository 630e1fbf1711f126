/**
 * The example datasets' sync modules (sync.ts) as one plain JS file for a child process on the built dist/
 * (test/sync/kill-child.mjs): dist/ never holds the example domain, so the test bundles it (esbuild, already
 * the build's bundler) with every import of src/ and sync/ pointing at dist/, so the child's framework and the
 * module share one copy of them. Written into `outDir`; returns the file's path.
 */
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const REPO = join(import.meta.dirname, '..', '..', '..');

export async function bundleExampleSync(outDir: string): Promise<string> {
  const outfile = join(outDir, 'example-sync.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'sync.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
    plugins: [{
      name: 'framework-from-dist',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => {
          const rel = relative(REPO, resolve(args.resolveDir, args.path));
          if (!/^(src|sync)[\\/]/.test(rel)) return undefined;
          return { path: pathToFileURL(join(REPO, 'dist', rel)).href, external: true };
        });
      },
    }],
  });
  return outfile;
}
