/**
 * What the per-unit shrink tests share (test/sync/unit-shrink.test.ts on the example domain, and each
 * domain's own: crime, food hygiene, schools): a scratch root with a fresh folder per case, the sync options
 * for a `--from` load into one of them, and a cut of a CSV that falls on a line end. Mirror files are read
 * with mirror-helper's `sqlOn` (read-only, closed again before the next sync replaces the file).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function shrinkScratch(prefix = 'pd-unit-shrink-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  return {
    root,
    dirFor: (name: string): string => {
      const d = join(root, `${name}-${++n}`);
      mkdirSync(d, { recursive: true });
      return d;
    },
    opts: (mirror: string, from: string | string[], extra: Record<string, unknown> = {}) => ({ mirrorDir: mirror, cacheDir: join(root, 'cache'), env: {}, from, ...extra }),
  };
}

/** The first `k` lines of a CSV's text (header included), each ending in its line end: a cut that falls on a line end. */
export function firstLines(text: string, k: number): string {
  return text.split(/(?<=\n)/).slice(0, k).join('');
}
