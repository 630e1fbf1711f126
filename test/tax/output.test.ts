/**
 * Tax answers through the CLI's output (from test/cli/csv-columns, whose shared form is now in test/kit/ on
 * the test-only example domain): one answer object of alternative shapes (ni employed / self-employed) has
 * one CSV header for both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { readCsvStrict, text } from '../support/output-checks.js';

const env = isolatedEnv({ NO_COLOR: '1' });
const dir = mkdtempSync(join(tmpdir(), 'pd-tax-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tax output', () => {
  it('CSV of one answer object of alternative shapes (tax ni employed / self-employed): one header for both', async () => {
    const one = async (args: string[]) => {
      const csv = await runCli(['tax', 'ni', ...args, '--year', '2026-27', '--format', 'csv'], { env });
      const json = await runCli(['tax', 'ni', ...args, '--year', '2026-27', '--format', 'json'], { env });
      expect([csv.code, json.code]).toEqual([0, 0]);
      return { ...(await readCsvStrict(dir, csv.stdout)), data: JSON.parse(json.stdout).data };
    };
    const employed = await one(['50000']);
    const self = await one(['40000', '--self-employed']);
    expect(self.header).toEqual(employed.header);
    expect(employed.rows[0]!['employee.contributions']).toBe(text(employed.data.employee.contributions));
    expect(employed.rows[0]!.annual_profit).toBeNull();
    expect(self.rows[0]!.annual_profit).toBe(text(self.data.annual_profit));
    expect(self.rows[0]!['employee.contributions']).toBeNull();
  });
});
