/**
 * The date-scope options of `publicdata sync` (`--years`, `--days`, `--months`) come from the datasets'
 * declarations (DatasetInfo.dateScope, src/mirror/catalog.ts): the help shows every option and every
 * dataset that takes it, and each dataset's bounds and first year are enforced before anything is fetched.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/registry.js';
import { isolatedEnv, runCli } from '../support/cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const declared = DATASETS.flatMap((d) => (d.dateScope ?? []).map((o) => ({ d: d.name, o })));
const env = isolatedEnv();
const usage = async (args: string[]) => {
  const r = await runCli([...args, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(2);
  const e = JSON.parse(r.stdout).error;
  expect(e.code).toBe('usage_error');
  return e.message as string;
};

describe('sync: date-scope options declared by the datasets', () => {
  it('the help shows --years, --days and --months, each with every dataset that takes it', async () => {
    const help = (await runCli(['sync', '--help'], { env })).stdout.replace(/\s+/g, ' ');
    for (const flag of ['--years <from-to>', '--days <n>', '--months <n>']) expect(help).toContain(flag);
    expect(declared.length).toBeGreaterThan(0);
    for (const { d, o } of declared) expect(help).toContain(`${d}: ${o.description}`.replace(/\s+/g, ' '));
  });

  it('commands/sync.ts and commands/sync-options.ts name no dataset', () => {
    const text = ['commands/sync.ts', 'commands/sync-options.ts'].map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
    for (const d of DATASETS) expect(text, d.name).not.toMatch(new RegExp(`['\` ]${d.name}[' \`]`));
  });

  it("a count above a dataset's declared maximum is a usage error naming the bound", async () => {
    const counts = declared.flatMap(({ d, o }) => ('max' in o ? [{ d, name: o.name, max: o.max }] : []));
    expect(counts.length).toBeGreaterThan(0);
    for (const { d, name, max } of counts) {
      expect(await usage(['sync', d, `--${name}`, String(max + 1)])).toBe(`sync: --${name} must be a whole number from 1 to ${max}, got '${max + 1}'.`);
      expect(await usage(['sync', d, `--${name}`, '0'])).toContain(`from 1 to ${max}`);
    }
  });

  it('a year before the first year a dataset declares is a usage error saying where its data starts', async () => {
    const years = declared.flatMap(({ d, o }) => (o.name === 'years' && o.firstYear ? [{ d, first: o.firstYear }] : []));
    expect(years.length).toBeGreaterThan(0);
    for (const { d, first } of years) {
      expect(await usage(['sync', d, '--years', String(first.year - 1)])).toBe(`--years: ${first.what} (got ${first.year - 1})`);
    }
  });

  it('an option no named dataset declares is a usage error, not silently ignored', async () => {
    for (const name of ['years', 'days', 'months'] as const) {
      const without = DATASETS.find((d) => !(d.dateScope ?? []).some((o) => o.name === name))!;
      const takers = declared.filter(({ o }) => o.name === name).map(({ d }) => d);
      expect(await usage(['sync', without.name, `--${name}`, name === 'years' ? '2020' : '3'])).toBe(`sync: --${name} applies to ${takers.join(', ')}, not to ${without.name}.`);
    }
  });
});
