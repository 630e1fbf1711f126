/** The README's set-up, exit codes and command groups (each domain's worked examples: test/<domain>/readme.test.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandGroups } from '../../src/registry.js';
import { PRODUCTION_DOMAINS as DOMAINS } from '../support/production.js';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('shows the two set-up commands, and .ci/run runs them', () => {
    expect(README).toContain('npm ci && npx publicdata tax take-home 45000');
    expect(README).toContain('npm test');
    const ci = readFileSync(join(__dirname, '..', '..', '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm ci/m);
    expect(ci).toMatch(/^npx publicdata tax take-home 45000$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it('documents every exit code and every top-level command group', () => {
    for (const c of [0, 1, 2, 3, 4, 5, 6]) expect(README).toMatch(new RegExp(`^\\| ${c} \\|`, 'm'));
    const groups = [...DOMAINS.flatMap((d) => commandGroups(d).map((g) => g.name)), 'api', 'auth', 'completion', 'sync', 'serve'];
    for (const g of groups) expect(README).toContain(`| \`${g}\``);
  });
});
