// Every worker-thread entry point, by one naming convention: src/**/<name>-worker.ts, bundled by
// scripts/bundle.mjs from tsc's output to dist/cli/<domain>-<name>-worker.cjs for one in
// src/domains/<domain>/, else dist/cli/<name>-worker.cjs (src/workers/settings.ts `workerFile` finds them;
// scripts/build.mjs checks they exist). Paths relative to the repository root.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

export function workers() {
  const out = [];
  const src = join(root, 'src');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('-worker.ts')) {
        const rel = relative(src, p);
        const parts = rel.split(sep);
        const prefix = parts[0] === 'domains' && parts.length > 2 ? `${parts[1]}-` : '';
        out.push({ entry: join('dist', 'src', rel.replace(/\.ts$/, '.js')), out: join('dist', 'cli', `${prefix}${name.replace(/\.ts$/, '.cjs')}`) });
      }
    }
  };
  walk(src);
  return out;
}
