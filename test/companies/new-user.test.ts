/**
 * What a new user met (issue 28), companies' cases (from test/cli/new-user, whose shared cases now run on
 * the test-only example domain in test/kit/new-user.test.ts). Expected values come from the sources named.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { writeZip } from '../support/zip.js';
import { chFixture } from './fixture.js';

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
