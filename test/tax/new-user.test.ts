/**
 * What a new user met (issue 28), tax's cases (from test/cli/new-user, whose shared cases now run on the
 * test-only example domain in test/kit/new-user.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { complete } from '../support/completion.js';

describe('choices are matched without case; one error code for one kind of mistake', () => {
  test('tax --region Scotland answers as --region scotland (the spec spelling is passed on)', async () => {
    const canonical = await runCli(['tax', 'income-tax', '30000', '--region', 'scotland', '--format', 'json']);
    const typed = await runCli(['tax', 'income-tax', '30000', '--region', 'Scotland', '--format', 'json']);
    expect(typed.code).toBe(0);
    expect(json(typed).data).toEqual(json(canonical).data);
    expect(json(typed).data.region).toBe('scotland');
  });
  test('a flag with its own choices (dividends --band, a body field) is case-insensitive too', async () => {
    const a = await runCli(['tax', 'dividends', '10000', '--band', 'HIGHER', '--format', 'json']);
    const b = await runCli(['tax', 'dividends', '10000', '--band', 'higher', '--format', 'json']);
    expect(a.code).toBe(0);
    expect(json(a).data).toEqual(json(b).data);
  });
  test('a value outside the choices: the spec code (body bad_request, tax region invalid_region), never usage_error', async () => {
    const body = await runCli(['tax', 'dividends', '10000', '--band', 'top', '--format', 'json']);
    expect([body.code, json(body).error.code]).toEqual([2, 'bad_request']);
    expect(json(body).error.message).toContain('--band');
    const region = await runCli(['tax', 'income-tax', '30000', '--region', 'atlantis', '--format', 'json']); // ('wales' is england_wales_ni since issue 37)
    expect([region.code, json(region).error.code]).toEqual([2, 'invalid_region']);
  });
});

describe("completions offer a flag's own values only", () => {
  test('bash: dividends --band its own; cgt --band its own; --format parquet not for take-home', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    expect(complete(script, 'tax', 'dividends', '--band', '')).toEqual(['basic', 'higher', 'additional']);
    expect(complete(script, 'tax', 'cgt', '--band', '')).toEqual(['basic', 'higher']);
    expect(complete(script, 'tax', 'take-home', '--format', '')).not.toContain('parquet');
  });
  test('fish: the same per command', async () => {
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c publicdata -n '__fish_seen_subcommand_from dividends' -l band -xa 'basic higher additional'");
  });
});

describe('--fields is checked before any request', () => {
  test('an ill-formed field path is a usage error and no call is made (nothing paid for)', async () => {
    for (const fields of ['co de', 'region..name', '.date', 'date,', 'a[0]', ',']) {
      const calls: unknown[] = [];
      const r = await runCli(['tax', 'income-tax', '60000', '--source', 'live', '--fields', fields, '--format', 'json'], { runCall: async (c) => (calls.push(c), 0) });
      if (fields === 'date,') {
        expect(r.code, fields).toBe(0); // a trailing comma is only an empty item
        continue;
      }
      expect([r.code, json(r).error.code], fields).toEqual([2, 'usage_error']);
      expect(json(r).error.message).toContain('--fields');
      expect(calls, fields).toEqual([]);
    }
  });
});
