/**
 * What a new user met (issue 28): each case run in process as a user would type it.
 * Expected values come from the sources named in each test, not from the code's output.
 */
import { describe, expect, test } from 'vitest';
import { json, runCli } from '../support/cli.js';

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
