/**
 * The router answers a path with no `{param}` from a table built once (serve matches on every request):
 * the answer must be the one a scan of the patterns gives, where the fewest `{param}` segments win and the
 * first route listed wins a tie.
 */
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../../src/contract/route.js';
import { createRouter } from '../../src/contract/router.js';
import { ROUTES } from '../../src/registry.js';
import { PRODUCTION_ROUTES } from '../support/production.js';

const spec = (id: string, method: 'GET' | 'POST', path: string): RouteSpec => ({ id, method, path, domain: 't', summary: id, cost: 1 }) as unknown as RouteSpec;

describe('router: literal paths', () => {
  it('a literal path beats a {param} pattern listed before it, and the first of two identical literals wins', () => {
    const r = createRouter([spec('p', 'GET', '/v1/a/{x}'), spec('lit', 'GET', '/v1/a/b'), spec('dup', 'GET', '/v1/a/b'), spec('post', 'POST', '/v1/a/b')]);
    expect(r.match('GET', '/v1/a/b')).toEqual({ route: expect.objectContaining({ id: 'lit' }), pathValues: {} });
    expect(r.match('POST', '/v1/a/b').route.id).toBe('post');
    expect(r.match('GET', '/v1/a/c')).toEqual({ route: expect.objectContaining({ id: 'p' }), pathValues: { x: 'c' } });
    expect(() => r.match('POST', '/v1/a/c')).toThrow(/not allowed/);
  });

  it('every literal route of the registry is matched to itself with no path values (a fresh object each time)', () => {
    const router = createRouter(ROUTES);
    const literal = ROUTES.filter((r) => !r.path.includes('{'));
    // whatever is registered: more than 10 with the real domains, the example domain's 4 without them
    expect(literal.length).toBeGreaterThan(PRODUCTION_ROUTES.length ? 10 : 3);
    for (const r of literal) {
      const m = router.match(r.method, r.path);
      // The first route listed with this method and path (counted from the list, not from the router).
      expect(m.route).toBe(ROUTES.find((x) => x.method === r.method && x.path === r.path));
      expect(m.pathValues).toEqual({});
      expect(router.match(r.method, r.path).pathValues).not.toBe(m.pathValues);
    }
  });
});
