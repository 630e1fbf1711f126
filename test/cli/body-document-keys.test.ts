/**
 * Every route with a whole-document body (`bodyDocument`) leaves the unsafe-key walk to its document
 * validator (src/runner.ts; src/domains/manifest.ts DocumentValidator): the validator must refuse every key
 * it does not declare and every value of a wrong type, so that a body it accepts has no `__proto__`,
 * `constructor` or `prototype` key. Held here for every such route, from its conformance sample (a valid
 * body, test/<domain>/samples.ts): each unsafe key put at each object of the sample body is answered 400
 * bad_request naming it, as on every other route. A domain's own tests can go further (the VAT return's put
 * one in place of every field value too).
 */
import { describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { ROUTES } from '../../src/registry.js';
import { handlerCtx } from '../support/handler-context.js';
import { ROUTE_SAMPLES } from '../support/route-samples.js';
import { UNSAFE_KEYS, defineOwn, joinPath, objectsOf } from '../support/unsafe-keys.js';

async function call(sample: { method: string; path: string }, body: unknown) {
  const url = new URL(sample.path, 'http://x');
  return callLocal({ method: sample.method as 'POST', path: url.pathname, query: Object.fromEntries(url.searchParams), body }, handlerCtx());
}

describe('bodyDocument routes: unsafe keys', () => {
  it('each unsafe key at each object of each route sample body: 400 bad_request naming it', async () => {
    for (const route of ROUTES.filter((r) => r.bodyDocument)) {
      const sample = ROUTE_SAMPLES.find((s) => s.route === route.id && s.body !== undefined);
      expect(sample, `${route.id} has a sample with a body`).toBeDefined();
      const valid = await call(sample!, structuredClone(sample!.body));
      expect(valid.status, `${route.id}'s sample body is valid`).toBe(200);
      const n = objectsOf(sample!.body).length;
      for (let at = 0; at < n; at++) {
        for (const key of UNSAFE_KEYS) {
          const body = structuredClone(sample!.body);
          const target = objectsOf(body)[at]!;
          defineOwn(target.obj, key, { x: 1 });
          const field = joinPath(target.path, key);
          const r = await call(sample!, body);
          const error = (r.envelope as { error?: { code: string; message: string } }).error;
          expect({ route: route.id, field, status: r.status, code: error?.code }).toEqual({ route: route.id, field, status: 400, code: 'bad_request' });
          expect(error!.message.startsWith(`Request body field '${field}' is refused`)).toBe(true);
        }
      }
    }
  });
});
