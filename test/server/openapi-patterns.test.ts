/**
 * The OpenAPI document's patterns are JSON Schema patterns: ECMA-262, case-sensitive, no flags. What the
 * server accepts (upper- and lower-case postcodes, company numbers) the document must accept too, or a
 * client generated from it refuses valid calls.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/registry.js';
import { openApiDocument } from '../../src/server/openapi.js';
import { validateParams } from '../../src/contract/validate.js';

type Schema = { pattern?: string; items?: Schema };
const doc = openApiDocument(ROUTES, 'http://127.0.0.1/v1') as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: Schema }> }>> };
const schemaOf = (path: string, name: string): Schema => {
  const op = doc.paths[path.replace(/^\/v1/, '')]!.get!;
  return op.parameters!.find((p) => p.name === name)!.schema;
};
const accepts = (s: Schema, v: string) => new RegExp(s.pattern!, 'u').test(v);

describe('OpenAPI patterns match what the server validates', () => {
  it('postcodes and company numbers in either case; bad values refused by both', () => {
    const pc = schemaOf('/v1/property/price-paid/search', 'postcode');
    const cn = schemaOf('/v1/companies/{company_number}', 'company_number');
    for (const v of ['EC1A 1BB', 'ec1a 1bb', 'LS8', 'ls', 'SW1A1AA']) expect(accepts(pc, v), v).toBe(true);
    for (const v of ['SC123456', 'sc123456', '00445790', '445790', 'R1234567']) expect(accepts(cn, v), v).toBe(true);
    for (const v of ['bad!', '12345', 'LS8 3BS 9']) expect(accepts(pc, v), v).toBe(false);
    expect(accepts(cn, 'bad!')).toBe(false);
    // the validator agrees value by value
    const search = ROUTES.find((r) => r.id === 'property.price-paid.search')!;
    for (const v of ['EC1A 1BB', 'ec1a 1bb', 'LS8']) expect(() => validateParams(search, {}, { postcode: v })).not.toThrow();
    expect(() => validateParams(search, {}, { postcode: 'bad!' })).toThrow(/expected a full or partial postcode/);
  });
});
