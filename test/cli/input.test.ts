/**
 * Input the CLI must refuse rather than guess (issue 10 item 8): decimal commas, ignored or silently
 * accepted options, user errors that were reported as bugs, flag names in messages. On the example
 * domain (test/support/example-domain/); the domains' own cases are in test/tax/input.test.ts and
 * test/property/input.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, runCli, type RunResult } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'publicdata-input-'));
const code = (r: RunResult) => [r.code, json(r).error?.code];

describe('amounts: a comma only as a thousands separator', () => {
  it('1,000 and £1,000 are amounts; 45,00, 12,50 and 1,2345 are bad_request, exit 2', async () => {
    expect(json(await runCli(['example', 'calculate', '1,000'])).data.amount).toBe(1000);
    // every item's count is at most 1000 (the largest, item 60's, is 420): all 60, 7 x (1 + ... + 60) = 12810
    expect(json(await runCli(['example', 'calculate', '£1,000'])).data).toMatchObject({ amount: 1000, item_count: 60, total_count: 12810 });
    for (const args of [['example', 'calculate', '45,00'], ['example', 'calculate', '12,50'], ['example', 'calculate', '1,2345'], ['example', 'calculate', '--batch', '--colour', 'red', '45,00']]) {
      const r = await runCli(args);
      expect(code(r), args.join(' ')).toEqual([2, 'bad_request']);
      expect(json(r).error.message).toMatch(/thousands separator/);
    }
  });
});

describe('user errors are usage or not-synced errors, never "a bug"', () => {
  it('an id past 2^53 is invalid_parameter on stdout, exit 2, before any data access', async () => {
    const r = await runCli(['example', 'show', '99999999999999999999', '--format', 'json']);
    expect(code(r)).toEqual([2, 'invalid_parameter']);
    expect(r.stderr).not.toMatch(/bug/);
  });

  it('mirror status and export name unknown datasets as usage errors', async () => {
    for (const args of [['mirror', 'status', 'nosuch', '--format', 'json'], ['mirror', 'export', '--out', join(dir, 'x'), 'nosuch']]) {
      const r = await runCli(args);
      expect(code(r), args.join(' ')).toEqual([2, 'usage_error']);
      expect(json(r).error.message).toContain("unknown dataset 'nosuch'");
    }
  });
});

describe('errors in the words of the command line', () => {
  it('friendly commands name their flags and arguments, not the API fields', async () => {
    const r = await runCli(['example', 'calculate']);
    expect(code(r)).toEqual([2, 'bad_request']);
    expect(json(r).error.message).toBe('Missing required argument <amount>.');
    expect(json(await runCli(['example', 'calculate', 'abc'])).error.message).toBe('Invalid argument <amount>: must be an integer.');
    expect(json(await runCli(['example', 'calculate', '30', '--label', 'ABC'])).error.message).toBe("Invalid option --label: 'ABC'; expected 1 to 12 lower-case letters.");
    // `api` speaks the API's language.
    expect(json(await runCli(['api', 'POST', '/v1/example/calculate', '-F', 'colour=red'])).error.message).toBe("Missing required field 'amount'.");
    expect(json(await runCli(['api', 'POST', '/v1/example/calculate', '-F', 'amount=30', '-f', 'label=ABC'])).error.message).toMatch(/^Invalid field 'label'/);
  });
});

describe('options that were silently accepted or ignored are usage errors', () => {
  it('sql --max-rows takes a whole number of rows', async () => {
    for (const n of ['abc', '-1', '0', '1.5']) {
      const r = await runCli(['sql', 'SELECT 1', '--max-rows', n]);
      expect(code(r), n).toEqual([2, 'usage_error']);
    }
    expect(json(await runCli(['sql', 'SELECT * FROM range(5)', '--max-rows', '2'])).data).toHaveLength(2);
  });
});
