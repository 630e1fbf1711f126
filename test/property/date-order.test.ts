/**
 * `--to` before `--from` on the property routes that take a date range is a 400 invalid_parameter naming
 * the flag, from the route spec (`notBefore`), before any data access: checked with no mirror, which would
 * otherwise answer dataset_not_synced. (The validator counted only parameters that themselves carry an
 * order, so `notBefore: 'from'` never saw `from` given.)
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

describe('date ranges in order', () => {
  it.each([
    ['price-paid stats', ['property', 'price-paid', 'stats', '--town', 'LONDON']],
    ['price-paid address', ['property', 'price-paid', 'address', '--street', 'BIDSTON ROAD']],
    ['hpi', ['property', 'hpi']],
  ])('%s --from 1995-12-01 --to 1995-01-01: invalid_parameter (exit 2), before the mirror', async (_n, args) => {
    const r = await runCli([...args, '--from', '1995-12-01', '--to', '1995-01-01', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'invalid_parameter', message: "Invalid option --to: '1995-01-01' is before from '1995-12-01'." });
  });

  it('the same day for both ends is a range (no error)', async () => {
    const r = await runCli(['property', 'hpi', '--from', '2024-01-01', '--to', '2024-01-01', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(JSON.parse(r.stdout).error.code).toBe('dataset_not_synced'); // past validation, to the (absent) mirror
  });
});
