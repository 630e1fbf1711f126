/**
 * Moved from test/server/response-schemas.test.ts (issue 33): the calendar's published bank-holidays
 * schema bites: a field removed, mistyped, a date in the wrong format, a region outside the list, an
 * undeclared field added, or a meta field missing fails validation. (The machinery's own case is on the
 * example domain there.)
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/openapi.js';
import { ROUTES, loadResponseSchemas } from '../../src/registry.js';
import { answerValidator } from '../support/openapi-validate.js';

describe('calendar response schemas', () => {
  it('a shape change fails: field removed, mistyped, or undeclared field added', async () => {
    const validate = answerValidator(openApiDocument(ROUTES, 'http://127.0.0.1:8080/v1', { auth: true, responses: await loadResponseSchemas() }));
    const holiday = { date: '2026-12-25', title: 'Christmas Day', region: 'scotland', notes: null, bunting: true };
    const meta = { api_version: 'v1', licence: 'Open Government Licence v3.0', source: 'GOV.UK', source_url: 'https://www.gov.uk/bank-holidays' };
    const env = (h: Record<string, unknown>, m: Record<string, unknown> = meta) => ({ data: { bank_holidays: [h] }, meta: m });
    expect(validate('calendar.bank-holidays', env(holiday))).toEqual([]);
    const { title: _t, ...noTitle } = holiday;
    expect(validate('calendar.bank-holidays', env(noTitle)).join()).toMatch(/title/);
    expect(validate('calendar.bank-holidays', env({ ...holiday, bunting: 'yes' })).join()).toMatch(/bunting/);
    expect(validate('calendar.bank-holidays', env({ ...holiday, date: '25/12/2026' })).join()).toMatch(/date/);
    expect(validate('calendar.bank-holidays', env({ ...holiday, region: 'england-and-wales' })).join()).toMatch(/region/);
    expect(validate('calendar.bank-holidays', env({ ...holiday, colour: 'red' })).join()).toMatch(/additional/);
    expect(validate('calendar.bank-holidays', { ...env(holiday), pagination: { total: 1 } }).join()).toMatch(/additional/);
    const { source_url: _s, ...noUrl } = meta;
    expect(validate('calendar.bank-holidays', env(holiday, noUrl)).join()).toMatch(/source_url/);
  });
});
