/**
 * What a new user met (issue 28): each case run in process as a user would type it.
 * Expected values come from the sources named in each test, not from the code's output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { writeZip } from '../support/zip.js';
import { chFixture } from '../companies/fixture.js';

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

describe('a sync warning shows without -v', () => {
  test('sync psc --from one part whose trailer counts more records: the warning on stderr, not only with -v', async () => {
    // The real PSC snapshot lines (fixture) with the real trailer of 2024-11-22 counting 13,574,320 records.
    const lines = readFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), 'utf8').split('\n').filter(Boolean);
    const dir = mkdtempSync(join(tmpdir(), 'pd-psc-warn-'));
    const file = join(dir, 'psc-snapshot-2022-02-09_1of2.zip');
    await writeZip(file, [{ name: 'psc-snapshot-2022-02-09_1of2.txt', data: lines.join('\n') + '\n' }]);
    const quiet = await runCli(['sync', 'psc', '--from', file]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toMatch(/^psc: warning: the snapshot's trailer counts 13574320 records .* the download may be incomplete/m);
    // Other messages (e.g. "trailer verified") stay -v only: the warning is the only extra line.
    expect(quiet.stderr.split('\n').filter((l) => l.startsWith('psc: ') && !l.includes('synced')).length).toBe(1);
  });
});

describe('choices are matched without case; one error code for one kind of mistake', () => {
  test('tax --region Scotland answers as --region scotland (the spec spelling is passed on)', async () => {
    const canonical = await runCli(['tax', 'income-tax', '30000', '--region', 'scotland', '--format', 'json']);
    const typed = await runCli(['tax', 'income-tax', '30000', '--region', 'Scotland', '--format', 'json']);
    expect(typed.code).toBe(0);
    expect(json(typed).data).toEqual(json(canonical).data);
    expect(json(typed).data.region).toBe('scotland');
  });
  test('vehicles licensing --geography uk passes UK on', async () => {
    const calls: Array<{ query?: Record<string, unknown> }> = [];
    const r = await runCli(['vehicles', 'licensing', '--make', 'TESLA', '--geography', 'uk'], { runCall: async (c) => (calls.push(c), 0) });
    expect(r.code).toBe(0);
    expect(calls[0]!.query!.geography).toBe('UK');
  });
  test('a flag with its own choices (dividends --band, a body field) is case-insensitive too', async () => {
    const a = await runCli(['tax', 'dividends', '10000', '--band', 'HIGHER', '--format', 'json']);
    const b = await runCli(['tax', 'dividends', '10000', '--band', 'higher', '--format', 'json']);
    expect(a.code).toBe(0);
    expect(json(a).data).toEqual(json(b).data);
  });
  test('a value outside the choices: the spec code (query invalid_parameter, body bad_request, tax region invalid_region), never usage_error', async () => {
    const query = await runCli(['energy', 'rates', '--region', 'atlantis', '--format', 'json']);
    expect([query.code, json(query).error.code]).toEqual([2, 'invalid_parameter']);
    expect(json(query).error.message).toContain('--region');
    const body = await runCli(['tax', 'dividends', '10000', '--band', 'top', '--format', 'json']);
    expect([body.code, json(body).error.code]).toEqual([2, 'bad_request']);
    expect(json(body).error.message).toContain('--band');
    const region = await runCli(['tax', 'income-tax', '30000', '--region', 'wales', '--format', 'json']);
    expect([region.code, json(region).error.code]).toEqual([2, 'invalid_region']);
    const geo = await runCli(['vehicles', 'licensing', '--make', 'TESLA', '--geography', 'EU', '--format', 'json']);
    expect([geo.code, json(geo).error.code]).toEqual([2, 'invalid_parameter']);
  });
});

describe('completions offer a flag\'s own values only', () => {
  const complete = (script: string, ...words: string[]) => {
    const all = ['publicdata', ...words];
    const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${all.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${all.length - 1}; _publicdata; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
    return r.stdout.trim().split('\n').filter(Boolean);
  };
  test('bash: council-tax --band offers no tax bands; dividends --band its own; --format parquet only for mirror export', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    // council-tax's band (A to H, free text in the spec: an unknown band is an empty 200) has no enum here
    expect(complete(script, 'property', 'council-tax', '--band', '')).not.toContain('higher');
    expect(complete(script, 'tax', 'dividends', '--band', '')).toEqual(['basic', 'higher', 'additional']);
    expect(complete(script, 'tax', 'cgt', '--band', '')).toEqual(['basic', 'higher']);
    expect(complete(script, 'vehicles', 'licensing', '--geography', '')).toEqual(['GB', 'UK']);
    expect(complete(script, 'tax', 'take-home', '--format', '')).not.toContain('parquet');
    expect(complete(script, 'mirror', 'export', '--format', '')).toEqual(['parquet', 'csv']);
  });
  test('fish: the same per command', async () => {
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c publicdata -n '__fish_seen_subcommand_from dividends' -l band -xa 'basic higher additional'");
    expect(fish).toContain("complete -c publicdata -n '__fish_seen_subcommand_from export' -l format -xa 'parquet csv'");
    expect(fish).toContain("complete -c publicdata -n 'not __fish_seen_subcommand_from export' -l format -xa 'table json ndjson csv'");
    expect(fish).not.toMatch(/council-tax' -l band -xa/);
  });
});

describe('an empty CSV answer', () => {
  // Section U holds one code (99000), so page 2 of 25 per page is empty.
  test('with --fields: the header of those fields, no bare line break', async () => {
    const r = await runCli(['companies', 'sic-codes', '--section', 'U', '--page', '2', '--format', 'csv', '--fields', 'code,description']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('code,description\r\n');
  });
  test('without --fields the columns are not known: nothing on stdout, "no records" on stderr (not with --quiet)', async () => {
    const r = await runCli(['companies', 'sic-codes', '--section', 'U', '--page', '2', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('no records\n');
    const q = await runCli(['companies', 'sic-codes', '--section', 'U', '--page', '2', '--format', 'csv', '--quiet']);
    expect([q.stdout, q.stderr]).toEqual(['', '']);
  });
  test('a page with records still prints its header once', async () => {
    const r = await runCli(['companies', 'sic-codes', '--section', 'U', '--format', 'csv']);
    expect(r.stdout.split('\r\n')[0]).toBe('code,description,section');
    expect(r.stdout.split('\r\n')[1]).toMatch(/^99000,/);
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
  test('an empty answer still reports an ill-formed field', async () => {
    const r = await runCli(['companies', 'sic-codes', '--section', 'U', '--page', '2', '--format', 'csv', '--fields', 'co de']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error usage_error: --fields: 'co de' is not a field path/);
    expect(r.stdout).toBe('');
  });
  test('a well-formed field of an empty answer cannot be checked and passes (documented)', async () => {
    const r = await runCli(['companies', 'sic-codes', '--section', 'U', '--page', '2', '--format', 'csv', '--fields', 'nosuch']);
    expect([r.code, r.stdout]).toEqual([0, 'nosuch\r\n']);
  });
});
