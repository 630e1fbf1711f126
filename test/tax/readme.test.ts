/** The README's worked VAT return example must stay true (moved from test/cli/readme.test.ts). */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README: tax', () => {
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

});
