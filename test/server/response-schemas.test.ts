/**
 * Every route has a response schema transcribed from the spec (src/domains/<d>/schemas.ts); the OpenAPI
 * document that publishes them is valid OpenAPI 3.1 by a standard validator; and the schemas bite: an
 * answer with a spec field removed, renamed, mistyped or an undeclared field added fails validation.
 * (Every route's real answer is validated in test/server/conformance.test.ts, on the fixture mirror.)
 */
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from '../../src/server/openapi.js';
import { ROUTES, loadResponseSchemas } from '../../src/registry.js';
import { answerValidator } from '../support/openapi-validate.js';

async function doc() {
  return openApiDocument(ROUTES, 'http://127.0.0.1:8080/v1', { auth: true, responses: await loadResponseSchemas() });
}

describe('response schemas', () => {
  it('every route has one, and only routes have them', async () => {
    const schemas = await loadResponseSchemas();
    expect(ROUTES.filter((r) => !schemas.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(schemas.size).toBe(ROUTES.length);
    for (const [id, s] of schemas) expect(s.source, id).toMatch(/\S/);
  });

  it('the OpenAPI document is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const d = await doc();
    const v = new Validator();
    const res = await v.validate(structuredClone(d));
    expect(res.errors ?? [], JSON.stringify(res.errors)).toEqual([]);
    expect([res.valid, v.version]).toEqual([true, '3.1']);
    // Each route's 200 refers to its own envelope schema, not the generic one.
    const post = (d.paths as any)['/tax/take-home/calculate'].post;
    expect(post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/tax.take-home.calculate' });
  });

  it('a shape change fails: field removed, mistyped, or undeclared field added', async () => {
    const validate = answerValidator(await doc());
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
