/**
 * Every route has a response schema transcribed from the spec (src/domains/<d>/schemas.ts); the OpenAPI
 * document that publishes them is valid OpenAPI 3.1 by a standard validator; and the schemas bite: an
 * answer with a spec field removed, renamed, mistyped or an undeclared field added fails validation.
 * (Every route's real answer is validated in test/server/conformance.test.ts, on the fixture mirror.)
 * On the example domain; the same bite on a real route with a date format and a region list (the calendar's
 * bank holidays) is test/calendar/response-schemas.test.ts.
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
    const post = (d.paths as any)['/example/calculate'].post;
    expect(post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/example.calculate' });
  });

  it('a shape change fails: field removed, mistyped, or undeclared field added', async () => {
    const validate = answerValidator(await doc());
    // example item 3 as data.ts makes it (red, count 21, a location, no markers)
    const item = { id: 3, title: 'Example item number 3 with a title long enough to be cut at eighty columns', colour: 'red', count: 21, markers: {}, location: { latitude: 51.03, longitude: -0.97 } };
    const meta = { api_version: 'v1', caveat: 'Example data, invented for tests.', warning: 'Example warning: these items are not real.' };
    const env = (i: Record<string, unknown>, m: Record<string, unknown> = meta) => ({ data: i, meta: m });
    expect(validate('example.item', env(item))).toEqual([]);
    const { title: _t, ...noTitle } = item;
    expect(validate('example.item', env(noTitle)).join()).toMatch(/title/);
    expect(validate('example.item', env({ ...item, count: 'yes' })).join()).toMatch(/count/);
    expect(validate('example.item', env({ ...item, location: { latitude: '51.03', longitude: -0.97 } })).join()).toMatch(/latitude/);
    expect(validate('example.item', env({ ...item, colour: 'purple' })).join()).toMatch(/colour/);
    expect(validate('example.item', env({ ...item, bunting: true })).join()).toMatch(/additional/);
    expect(validate('example.item', { ...env(item), pagination: { total: 1 } }).join()).toMatch(/additional/); // a one-record answer has none
    expect(validate('example.items', { data: [item], meta, pagination: { total: 1 } }).join()).toMatch(/pagination/); // a list's is complete
    const { caveat: _c, ...noCaveat } = meta;
    expect(validate('example.item', env(item, noCaveat)).join()).toMatch(/caveat/);
  });
});
