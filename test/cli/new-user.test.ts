/**
 * What a new user met (issue 28): each case run in process as a user would type it.
 * Expected values come from the sources named in each test, not from the code's output.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';

describe('SIC 99999 (Companies House "Dormant Company") has no section', () => {
  test('99999 is in no section; 99000 (ONS SIC 2007 class 99.00) is section U', async () => {
    const dormant = await runCli(['companies', 'sic-codes', '99999', '--format', 'json']);
    expect(dormant.code).toBe(0);
    expect(json(dormant).data).toMatchObject({ code: '99999', description: 'Dormant Company', section: null, section_description: null });
    const extra = await runCli(['companies', 'sic-codes', '99000', '--format', 'json']);
    expect(json(extra).data).toMatchObject({ code: '99000', section: 'U' });
    // The section U list holds 99000 only (the ONS structure: division 99 has one class).
    const u = await runCli(['companies', 'sic-codes', '--section', 'U', '--format', 'json']);
    expect(json(u).data.map((c: { code: string }) => c.code)).toEqual(['99000']);
  });
});

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
  test('companies show "" is 400 invalid_parameter naming <company_number>, not "No route"', async () => {
    const r = await runCli(['companies', 'show', '', '--format', 'json']);
    expect(r.code).toBe(2);
    const e = json(r).error;
    expect(e.code).toBe('invalid_parameter');
    expect(e.message).toContain('argument <company_number>');
    expect(e.message).not.toContain('No route');
  });
  test('the same for another path argument (whitespace only counts as empty)', async () => {
    const r = await runCli(['companies', 'sic-codes', ' ', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'invalid_parameter' });
    expect(json(r).error.message).toContain('argument <code>');
  });
});
