/**
 * Moved from test/server/openapi-patterns.test.ts (issue 33): the property domain's postcode pattern in the
 * OpenAPI document accepts what the server accepts (either case, partial postcodes) and refuses what it
 * refuses, value by value with the validator. (The machinery's own case is on the example domain there.)
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/registry.js';
import { validateParams } from '../../src/contract/validate.js';
import { accepts, paramSchema as schemaOf } from '../support/openapi-patterns.js';

describe('OpenAPI patterns match what the server validates: postcodes', () => {
  it('postcodes in either case; bad values refused by both', () => {
    const pc = schemaOf('/v1/property/price-paid/search', 'postcode');
    for (const v of ['EC1A 1BB', 'ec1a 1bb', 'LS8', 'ls', 'SW1A1AA']) expect(accepts(pc, v), v).toBe(true);
    for (const v of ['bad!', '12345', 'LS8 3BS 9']) expect(accepts(pc, v), v).toBe(false);
    // the validator agrees value by value
    const search = ROUTES.find((r) => r.id === 'property.price-paid.search')!;
    for (const v of ['EC1A 1BB', 'ec1a 1bb', 'LS8']) expect(() => validateParams(search, {}, { postcode: v })).not.toThrow();
    expect(() => validateParams(search, {}, { postcode: 'bad!' })).toThrow(/expected a full or partial postcode/);
  });
});
