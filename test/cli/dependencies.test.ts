/** Every runtime dependency declared in package.json is imported by the shipped code (no dead dependencies). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|mts|mjs|js|cjs)$/.test(name)) out.push(p);
  }
  return out;
}

test('each dependency is imported somewhere in src/, commands/, sync/, bin/ or scripts/', () => {
  const deps = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies as Record<string, string>);
  const text = ['src', 'commands', 'sync', 'bin', 'scripts'].flatMap((d) => sources(join(ROOT, d))).map((f) => readFileSync(f, 'utf8')).join('\n');
  const unused = deps.filter((d) => !text.includes(`'${d}'`) && !text.includes(`'${d}/`) && !text.includes(`"${d}"`));
  expect(unused).toEqual([]);
  expect(deps).not.toContain('chalk');
});
