/**
 * Moved from test/server/openapi-patterns.test.ts (issue 33): the companies domain's company-number pattern
 * in the OpenAPI document accepts what the server accepts (either case) and refuses what it refuses.
 * (The machinery's own case is on the example domain there.)
 */
import { describe, expect, it } from 'vitest';
import { accepts, paramSchema as schemaOf } from '../support/openapi-patterns.js';

describe('OpenAPI patterns match what the server validates: company numbers', () => {
  it('company numbers in either case; a bad value refused', () => {
    const cn = schemaOf('/v1/companies/{company_number}', 'company_number');
    for (const v of ['SC123456', 'sc123456', '00445790', '445790', 'R1234567']) expect(accepts(cn, v), v).toBe(true);
    expect(accepts(cn, 'bad!')).toBe(false);
  });
});
