/**
 * property's own cases (moved from test/cli/input.test.ts).
 * Input the CLI must refuse rather than guess (issue 10 item 8): decimal commas, ignored or silently
 * accepted options, user errors that were reported as bugs, flag names in messages.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, runCli, type RunResult } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'publicdata-input-'));
const code = (r: RunResult) => [r.code, json(r).error?.code];

describe('property: user errors are usage or not-synced errors, never "a bug"', () => {
  it('an id past 2^53 is invalid_parameter on stdout, exit 2, before any data access', async () => {
    const r = await runCli(['property', 'conservation-areas', '99999999999999999999', '--format', 'json']);
    expect(code(r)).toEqual([2, 'invalid_parameter']);
    expect(r.stderr).not.toMatch(/bug/);
  });

  it('mirror export before any sync is dataset_not_synced (exit 1); a file or empty --out is a usage error', async () => {
    const r = await runCli(['mirror', 'export', '--out', join(dir, 'x'), 'hpi']);
    expect(code(r)).toEqual([1, 'dataset_not_synced']);
    expect(json(r).error.message).toContain("publicdata sync hpi");
    const file = join(dir, 'a-file');
    writeFileSync(file, 'keep me');
    for (const out of [file, '', '/etc/passwd']) {
      const e = await runCli(['mirror', 'export', '--out', out, 'hpi']);
      expect(code(e), out).toEqual([2, 'usage_error']);
    }
  });
});
