/**
 * recent-filings' local-extension filters (sic_code, from, to) are declared in the route spec, so a bad
 * value is 400 invalid_parameter, exit 2 (README exit table), before the mirror is opened or the API asked:
 * with no mirror at all (not dataset_not_synced), and under --source live with zero requests.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('test', 'recentfilings0000000000000000000');

// 2026 is not a leap year (2026 % 4 = 2): February has 28 days, so 02-29 and 02-30 are not dates.
const BAD: Array<[string, string]> = [
  ['--from', '2026-02-30'],
  ['--to', '2026-02-29'],
  ['--from', '2026-1-1'],
  ['--to', '2026-13-01'],
  ['--sic-code', 'x'],
  ['--sic-code', '620120'],
];

describe('recent-filings: bad filters are refused before any data access or request', () => {
  it.each(BAD)('%s %s with no mirror: invalid_parameter, exit 2', async (flag, value) => {
    const r = await runCli(['companies', 'recent-filings', flag, value, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(json(r).error.code, r.stdout).toBe('invalid_parameter');
    expect(r.code).toBe(2);
  });

  it.each(BAD)('%s %s under --source live: no request, invalid_parameter, exit 2', async (flag, value) => {
    const fake = new FakeLive();
    const r = await runCli(['companies', 'recent-filings', flag, value, '--source', 'live', '--format', 'json'], {
      env: isolatedEnv({ PUBLICDATA_API_KEY: KEY }),
      liveBackend: fake.factory,
    });
    expect(fake.requests).toEqual([]);
    expect(json(r).error.code, r.stdout).toBe('invalid_parameter');
    expect(r.code).toBe(2);
  });

  it('good values pass validation (a leap day, a 4-digit SIC code) and reach the mirror', async () => {
    // 2024 is a leap year; with no mirror the answer is then dataset_not_synced (exit 1), not a 400.
    for (const args of [['--from', '2024-02-29'], ['--sic-code', '7499'], ['--sic-code', '62012', '--to', '2026-12-31']]) {
      const r = await runCli(['companies', 'recent-filings', ...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
      expect([json(r).error.code, r.code], args.join(' ')).toEqual(['dataset_not_synced', 1]);
    }
  });
});
