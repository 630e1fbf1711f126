/**
 * The commands' own output at 80 columns (issue 37, tables at 80 columns), shared by test/cli/commands-80.test.ts
 * (every declared example, the shared answers) and each domain's test/<domain>/commands-80.test.ts (the
 * inputs that give the longest lines of each answer with a renderer of its own, and its figures whole):
 * commands run in process (test/support/cli.ts) on a fixture mirror, as a terminal 80 columns wide.
 */
import { describe, expect, it } from 'vitest';
import { renderers as commandRenderers } from '../../src/output/command-renderers.js';
import { DOMAINS, loadDomains } from '../../src/registry.js';
import { runCli, type RunResult } from './cli.js';
import type { UnansweredExample } from './samples-types.js';
import { COLUMNS, widest } from './tables-80.js';

type Fx = { env: () => Record<string, string> };

/** The command as a terminal 80 columns wide shows it. */
export const at80 = (fx: Fx, argv: string[]) => runCli([...argv, '--format', 'table'], { env: fx.env(), tty: true, columns: COLUMNS });
/** The command's `--format json` answer. */
export const asJson = async (fx: Fx, argv: string[]) => JSON.parse((await runCli([...argv, '--format', 'json'], { env: fx.env() })).stdout) as { data: any; meta?: any };

/** £12,345.67, as a person writes it (not the renderers' own formatter). */
export const gbp = (n: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(n);

/** No line over 80 on stdout or stderr. */
export function fits(r: RunResult): void {
  expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(COLUMNS);
  expect(widest(r.stderr), r.stderr).toBeLessThanOrEqual(COLUMNS);
}

/**
 * A command example the fixture mirror cannot answer fails as its domain declares
 * (`DomainSamples.unansweredExamples`): that exit code, one line on stderr naming that error code, nothing
 * on stdout.
 */
export function failsAs(r: RunResult, u: UnansweredExample): void {
  const got = { code: r.code, error: /^error ([a-z_]+): /.exec(r.stderr)?.[1], stderrLines: r.stderr.trimEnd().split('\n').length, stdout: r.stdout };
  expect(got, `${u.why}\n${r.stderr}`).toEqual({ code: u.code, error: u.error, stderrLines: 1, stdout: '' });
}

/** The lines of a statement row (`  label  amount  note`) and the note's continuation lines under it, joined. */
export function statementRow(stdout: string, label: string): string {
  const lines = stdout.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  ${label} `));
  expect(i, `${label} in\n${stdout}`).toBeGreaterThanOrEqual(0);
  const more: string[] = [];
  for (const l of lines.slice(i + 1)) {
    if (!/^ {8,}\S/.test(l)) break; // a note's next line sits under the note (a sub-row: 4 spaces)
    more.push(l.trim());
  }
  return [lines[i]!.replace(/\s+/g, ' ').trim(), ...more].join(' ');
}

/**
 * The longest realistic lines of each answer with a renderer of its own, by renderer id: each case answers
 * (exit 0) and fits. The cases must be exactly the renderers registered for `of` (a renderer added there
 * fails until it has a case): `domain`, that domain manifest's `renderers`; `'commands'`, the CLI's own
 * (src/output/command-renderers.ts `renderers`, the map the renderer registry loads for answers of no
 * domain).
 */
export function rendererCases(fx: Fx, cases: Record<string, string[][]>, of: { domain: string } | 'commands'): void {
  describe('every answer with a renderer of its own, at its longest, at 80 columns', () => {
    it('every renderer has its cases here', async () => {
      await loadDomains();
      const ids = of === 'commands' ? Object.keys(commandRenderers) : Object.keys(DOMAINS.find((d) => d.name === of.domain)?.renderers ?? {});
      expect(ids.length).toBeGreaterThan(0);
      expect(Object.keys(cases).sort()).toEqual([...new Set(ids)].sort());
    });

    for (const [id, list] of Object.entries(cases)) {
      for (const argv of list) {
        it(`${id}: ${argv.join(' ')}`, async () => {
          const r = await at80(fx, argv);
          expect(r.code, r.stderr).toBe(0);
          fits(r);
        });
      }
    }
  });
}
