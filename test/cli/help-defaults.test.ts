/**
 * No option's help states its default twice (the review found `test year (default 2025) (default 2025)`
 * on `vehicles mot-failures --help`: the command kit appended "(default …)" to a description that already
 * said it). Every command of the program, every option, as commander prints it: whatever domains are
 * registered (with every real domain removed, `npm run check:domains`, the example domain's).
 */
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createContext } from '../../src/create-context.js';
import { commandGroups, DOMAINS } from '../../src/registry.js';
import { PRODUCTION_DOMAINS } from '../support/production.js';

/**
 * Why an option's printed description repeats its default, or undefined. A description made of clauses
 * per dataset (`accounts: … (default 12); crime: … (default 12)`, sync --months) is checked clause by clause.
 */
export function repeatedDefault(description: string): string | undefined {
  for (const clause of description.split(/;\s+(?=[a-z-]+: )/)) {
    const why = repeatedIn(clause);
    if (why) return why;
  }
  return undefined;
}

function repeatedIn(text: string): string | undefined {
  const stated = [...text.matchAll(/\(default:? ([^),;]+)[),;]/gi)].map((m) => m[1]!.trim().toLowerCase());
  const dup = stated.find((v, i) => stated.indexOf(v) !== i);
  if (dup !== undefined) return `default ${dup} twice`;
  // A trailing "(default X)" (as the kit or commander appends it) after text that already names the default.
  const tail = /\s\(default:? [^()]+\)$/i.exec(text);
  if (tail && /\bdefault\b/i.test(text.slice(0, tail.index))) return 'a default appended to a description that already gives one';
  return undefined;
}

describe('help: each default said once', () => {
  it('the check itself', () => {
    expect(repeatedDefault('test year (default 2025) (default 2025)')).toBeDefined();
    expect(repeatedDefault('open (default), closed, proposed_to_open or all (default open)')).toBeDefined();
    expect(repeatedDefault('test year (default 2025)')).toBeUndefined();
    expect(repeatedDefault('name (default), distance (default with lat/lng; needs them), rating (best first)')).toBeUndefined();
    expect(repeatedDefault('radius in km (default 2, at most 25); needs lat and lng (default 2)')).toBeDefined();
    expect(repeatedDefault('accounts: the last N months (default 12; 60 matches); crime: the newest N months (default 12)')).toBeUndefined();
  });

  it('no option of any command repeats its default', async () => {
    const program = await buildProgram(createContext({
      io: { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, columns: 100 },
      env: {},
      now: () => new Date(),
    }));
    const bad: string[] = [];
    let options = 0;
    const seen = new Set<string>();
    const walk = (c: Command, path: string) => {
      for (const sub of c.commands) {
        const p = `${path} ${sub.name()}`;
        const help = sub.createHelp();
        for (const o of help.visibleOptions(sub) as Option[]) {
          options++;
          seen.add(`${p} ${o.long ?? o.flags}`);
          const why = repeatedDefault(help.optionDescription(o));
          if (why) bad.push(`${p} ${o.flags}: ${why}: ${help.optionDescription(o)}`);
        }
        walk(sub, p);
      }
    };
    walk(program, 'publicdata');
    // the walk reaches every registered domain's commands and their own options (the example domain's here)
    const groups = DOMAINS.flatMap((d) => commandGroups(d).map((g) => `publicdata ${g.name}`));
    for (const g of groups) expect([...seen].some((o) => o.startsWith(`${g} `)), g).toBe(true);
    expect(seen).toContain('publicdata example items --colour');
    expect(seen).toContain('publicdata example items --radius-km');
    expect(seen).toContain('publicdata example calculate --label');
    expect(options).toBeGreaterThan(PRODUCTION_DOMAINS.length ? 300 : 10);
    expect(bad).toEqual([]);
  });
});
