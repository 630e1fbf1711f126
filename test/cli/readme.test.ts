/** The README's worked examples must stay true. */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
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

  it('the minimal VAT return body gives the boxes the README states', async () => {
    const section = README.slice(README.indexOf('### VAT return'));
    const body = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const file = join(mkdtempSync(join(tmpdir(), 'pd-readme-')), 'q1.json');
    writeFileSync(file, body);
    const r = await runCli(['tax', 'vat-return', '--body', file, '--breakdown', 'none']);
    expect(r.code).toBe(0);
    const boxes = json(r).data.boxes;
    expect([boxes.box_1.value, boxes.box_4.value, boxes.box_5.value, boxes.box_6.value, boxes.box_7.value]).toEqual([200, 80, 120, 1000, 400]);
    expect(section).toContain('gives box 1 £200.00, box 4 £80.00, box 5 £120.00, box 6 £1,000, box 7 £400.');
    // The complete response printed in the README is exactly what the command prints.
    const shown = JSON.parse(/The complete response[^\n]*\n\n```json\n([\s\S]*?)```/.exec(section)![1]!);
    const full = await runCli(['tax', 'vat-return', '--body', file]);
    expect(shown).toEqual(json(full));
  });

  it('documents every exit code and every top-level command group', () => {
    for (const c of [0, 1, 2, 3, 4, 5, 6]) expect(README).toMatch(new RegExp(`^\\| ${c} \\|`, 'm'));
    const groups = [...DOMAINS.flatMap((d) => commandGroups(d).map((g) => g.name)), 'api', 'auth', 'completion', 'sync', 'serve'];
    for (const g of groups) expect(README).toContain(`| \`${g}\``);
  });
});
