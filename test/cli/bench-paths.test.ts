/**
 * The benches load built modules by path (`join(dist, 'src', 'sync-runner.js')` in a child's script): a
 * module moved in the tree leaves a bench that fails only when someone runs it (the places and food
 * hygiene benches did, after issue 33's moves). Every literal such path in bench/ names a file of dist/
 * (built by the test run's global setup).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const files = ['bench', join('bench', 'lib')].flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith('.mjs')).map((f) => join(d, f)));

describe('bench files load built modules that exist', () => {
  it.each(files)('%s', (f) => {
    const text = readFileSync(join(root, f), 'utf8');
    // join(dist, 'a', 'b.js') with literal segments only (a segment that is a variable is left alone)
    const paths = [...text.matchAll(/join\(dist((?:, '[^']+')+)\)/g)].map((m) => join('dist', ...[...m[1]!.matchAll(/'([^']+)'/g)].map((x) => x[1]!)));
    // a domain's modules only while the domain is there (npm run check:domains removes each in turn)
    const present = (p: string) => {
      const d = /^dist[\\/]src[\\/]domains[\\/]([^\\/]+)/.exec(p)?.[1];
      return d === undefined || existsSync(join(root, 'src', 'domains', d));
    };
    expect(paths.filter((p) => p.endsWith('.js') && present(p) && !existsSync(join(root, p)))).toEqual([]);
  });
});
