// The domains' worker-thread entry points by naming convention: src/domains/<domain>/**/<name>-worker.ts,
// bundled by scripts/bundle.mjs from tsc's output to dist/cli/<domain>-<name>-worker.cjs (scripts/build.mjs
// checks they exist). Paths relative to the repository root.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

export function domainWorkers() {
  const out = [];
  const domains = join(root, 'src', 'domains');
  const walk = (dir, domain) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, domain);
      else if (name.endsWith('-worker.ts')) {
        const rel = relative(join(root, 'src'), p).replace(/\.ts$/, '.js');
        out.push({ entry: join('dist', 'src', rel), out: join('dist', 'cli', `${domain}-${name.replace(/\.ts$/, '.cjs')}`) });
      }
    }
  };
  for (const d of readdirSync(domains).sort()) if (statSync(join(domains, d)).isDirectory()) walk(join(domains, d), d);
  return out;
}
