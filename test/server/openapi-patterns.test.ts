/**
 * The OpenAPI document's patterns are JSON Schema patterns: ECMA-262, case-sensitive, no flags. What the
 * server accepts the document must accept too, or a client generated from it refuses valid calls; and what
 * the server refuses, the document refuses. On the example domain's calculator (its `label`: 1 to 12
 * lower-case letters); the real domains' patterns (postcodes, company numbers) are checked in
 * test/property/ and test/companies/openapi-patterns.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { routeById } from '../../src/registry.js';
import { validateBody } from '../../src/contract/validate.js';
import { accepts, bodySchema } from '../support/openapi-patterns.js';

describe('OpenAPI patterns match what the server validates', () => {
  it('a body field: the same values accepted and refused by the document and the validator', () => {
    const label = bodySchema('/v1/example/calculate').properties!.label!;
    const calc = routeById('example.calculate');
    const good = ['abc', 'z', 'abcdefghijkl'];
    const bad = ['ABC', 'abc1', 'abcdefghijklm', 'a b'];
    for (const v of good) {
      expect(accepts(label, v), v).toBe(true);
      expect(() => validateBody(calc, { amount: 1, label: v }), v).not.toThrow();
    }
    for (const v of bad) {
      expect(accepts(label, v), v).toBe(false);
      expect(() => validateBody(calc, { amount: 1, label: v }), v).toThrow(/label/);
    }
  });
});
