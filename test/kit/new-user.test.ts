/**
 * What a new user met (issue 28): each case run in process as a user would type it, on the test-only
 * example domain (test/support/example-domain/: 60 invented items, colours red/green/blue by id % 3).
 * Each domain's own cases are in its tests (test/<domain>/new-user.test.ts).
 */
import '../support/example-domain/index.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { complete } from '../support/completion.js';

describe('auth login checks the key shape', () => {
  test('a 5-character key is refused (exit 2, nothing saved, not echoed)', async () => {
    const env = isolatedEnv();
    const r = await runCli(['auth', 'login'], { env, stdin: 'ab3de\n' });
    expect(r.code).toBe(2);
    expect(json(r).error.code).toBe('usage_error');
    expect(json(r).error.message).toMatch(/too short/);
    expect(r.stdout + r.stderr).not.toContain('ab3de');
    expect(existsSync(join(env.PUBLICDATA_CONFIG_DIR!, 'config.json'))).toBe(false);
  });
});

describe('an empty positional argument for a path parameter', () => {
  test('example show "" is 400 invalid_parameter naming <item_id>, not "No route"', async () => {
    const r = await runCli(['example', 'show', '', '--format', 'json']);
    expect(r.code).toBe(2);
    const e = json(r).error;
    expect(e.code).toBe('invalid_parameter');
    expect(e.message).toContain('argument <item_id>');
    expect(e.message).not.toContain('No route');
  });
  test('whitespace only counts as empty', async () => {
    const r = await runCli(['example', 'show', ' ', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'invalid_parameter' });
    expect(json(r).error.message).toContain('argument <item_id>');
  });
});

describe('choices are matched without case; one error code for one kind of mistake', () => {
  test('--colour RED answers as --colour red (the spec spelling is passed on)', async () => {
    const canonical = await runCli(['example', 'items', '--colour', 'red', '--format', 'json']);
    const typed = await runCli(['example', 'items', '--colour', 'RED', '--format', 'json']);
    expect(typed.code).toBe(0);
    expect(json(typed).data).toEqual(json(canonical).data);
    expect(json(typed).data.every((i: { colour: string }) => i.colour === 'red')).toBe(true);
  });
  test('a route choice typed in another case is passed on in the spec spelling', async () => {
    const calls: Array<{ query?: Record<string, unknown> }> = [];
    const r = await runCli(['example', 'summary', '--basis', 'TOTALS'], { runCall: async (c) => (calls.push(c), 0) });
    expect(r.code).toBe(0);
    expect(calls[0]!.query!.basis).toBe('totals');
  });
  test('a value outside the choices: the spec code (query invalid_parameter), never usage_error', async () => {
    const own = await runCli(['example', 'items', '--colour', 'purple', '--format', 'json']);
    expect([own.code, json(own).error.code]).toEqual([2, 'invalid_parameter']);
    expect(json(own).error.message).toContain('--colour');
    const route = await runCli(['example', 'summary', '--basis', 'atlantis', '--format', 'json']);
    expect([route.code, json(route).error.code]).toEqual([2, 'invalid_parameter']);
    expect(json(route).error.message).toContain('--basis');
  });
});

describe("completions offer a flag's own values only", () => {
  test('bash: --colour its own values; --format parquet only for mirror export', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    expect(complete(script, 'example', 'items', '--colour', '')).toEqual(['red', 'green', 'blue']);
    expect(complete(script, 'example', 'items', '--format', '')).not.toContain('parquet');
    expect(complete(script, 'mirror', 'export', '--format', '')).toEqual(['parquet', 'csv']);
  });
  test('fish: the same per command', async () => {
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c publicdata -n '__fish_seen_subcommand_from export' -l format -xa 'parquet csv'");
    expect(fish).toContain("complete -c publicdata -n 'not __fish_seen_subcommand_from export' -l format -xa 'table json ndjson csv'");
  });
});

describe('an empty CSV answer', () => {
  // 60 items at 25 a page: page 4 is empty.
  test('with --fields: the header of those fields, no bare line break', async () => {
    const r = await runCli(['example', 'items', '--page', '4', '--format', 'csv', '--fields', 'id,title']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('id,title\r\n');
  });
  test('without --fields: nothing on stdout, "no records" on stderr (not with --quiet)', async () => {
    const r = await runCli(['example', 'items', '--page', '4', '--format', 'csv']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', 'no records\n']);
    const q = await runCli(['example', 'items', '--page', '4', '--format', 'csv', '--quiet']);
    expect([q.stdout, q.stderr]).toEqual(['', '']);
  });
  test('a page with records still prints its header once', async () => {
    const r = await runCli(['example', 'items', '--page', '3', '--format', 'csv', '--fields', 'id']);
    // page 3: items 51 to 60
    expect(r.stdout.split('\r\n')).toEqual(['id', ...Array.from({ length: 10 }, (_, i) => String(51 + i)), '']);
  });
  test('an empty answer still reports an ill-formed field; a well-formed one cannot be checked and passes', async () => {
    const bad = await runCli(['example', 'items', '--page', '4', '--format', 'csv', '--fields', 'co de']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toMatch(/^error usage_error: --fields: 'co de' is not a field path/);
    const ok = await runCli(['example', 'items', '--page', '4', '--format', 'csv', '--fields', 'nosuch']);
    expect([ok.code, ok.stdout]).toEqual([0, 'nosuch\r\n']);
  });
});

describe('--fields is checked before any request', () => {
  test('an ill-formed field path is a usage error and no call is made (nothing paid for)', async () => {
    for (const fields of ['co de', 'title..x', '.id', 'a[0]', ',']) {
      const calls: unknown[] = [];
      const r = await runCli(['example', 'items', '--source', 'live', '--fields', fields, '--format', 'json'], { runCall: async (c) => (calls.push(c), 0) });
      expect([r.code, json(r).error.code], fields).toEqual([2, 'usage_error']);
      expect(json(r).error.message).toContain('--fields');
      expect(calls, fields).toEqual([]);
    }
  });
});
