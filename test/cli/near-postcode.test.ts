/**
 * `--near POSTCODE` end to end through the command kit, with a test-only postcode route in the registry
 * (GET /v1/postcodes/{postcode}, answered by the strict fake live backend): the kit looks the postcode up
 * through the command's own execute, then calls the command's route with the postcode's coordinates.
 * Any real postcode route is replaced by the test-only one, so this holds with or without the postcodes
 * domain.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RouteSpec } from '../../src/contract/route.js';
import type { CallResult } from '../../src/contract/types.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';

vi.mock('../../src/registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/registry.js')>();
  const { createRouter } = await import('../../src/contract/router.js');
  const postcodeRoute: RouteSpec = {
    id: 'test.postcode',
    method: 'GET',
    path: '/v1/postcodes/{postcode}',
    domain: 'test',
    summary: 'test-only postcode lookup',
    pathParams: [{ name: 'postcode', type: 'string', description: 'a postcode' }],
    cost: 1,
    errors: ['not_found'],
  };
  const ROUTES = [...real.ROUTES.filter((r) => r.path !== postcodeRoute.path), postcodeRoute];
  const router = createRouter(ROUTES);
  return { ...real, ROUTES, matchRoute: router.match, routeById: router.byId };
});

const env = () => isolatedEnv({ PUBLICDATA_API_KEY: fakeKey('test', 'nearpostcodee2e0000000000000000') });
const ok = (data: unknown): CallResult => ({ status: 200, source: 'live', envelope: { data, meta: { api_version: 'v1' } } });

describe('--near POSTCODE with a postcode route', () => {
  it('crime street --near "LS8 3BS": the lookup, then the street call with its latitude and longitude', async () => {
    const fake = new FakeLive()
      .register('GET', '/v1/postcodes/LS8%203BS', () => ok({ postcode: 'LS8 3BS', location: { latitude: 53.8247, longitude: -1.5098, quality: 1 } }))
      .register('GET', '/v1/crime/street', () => ({ ...ok([]), envelope: { data: [], meta: { api_version: 'v1' }, pagination: { total: 0, page: 1, per_page: 25, total_pages: 0 } } }));
    const r = await runCli(['crime', 'street', '--near', 'LS8 3BS', '--radius-km', '0.5', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    fake.verify();
    expect(fake.requests.map((c) => [c.method, c.path, c.query])).toEqual([
      ['GET', '/v1/postcodes/LS8%203BS', {}],
      ['GET', '/v1/crime/street', { lat: '53.8247', lng: '-1.5098', radius_km: '0.5' }],
    ]);
  });

  it('a postcode the lookup does not find: its 404, exit as any not_found, and no search call', async () => {
    const fake = new FakeLive().register('GET', '/v1/postcodes/zz99zz', () => ({
      status: 404,
      source: 'live',
      envelope: { error: { code: 'not_found', message: "Postcode 'ZZ9 9ZZ' not found.", documentation_url: 'https://example.invalid/errors' } },
    }));
    const r = await runCli(['schools', '--near', 'zz99zz', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
    fake.verify();
    expect(fake.requests).toHaveLength(1);
    expect(json(r).error).toMatchObject({ code: 'not_found', message: "Postcode 'ZZ9 9ZZ' not found." });
    expect(r.code).not.toBe(0);
  });

  it('a postcode without a location: 400 invalid_parameter naming --near (exit 2), no search call', async () => {
    const fake = new FakeLive().register('GET', '/v1/postcodes/BT1%201AA', () => ok({ postcode: 'BT1 1AA', location: null }));
    const r = await runCli(['food-hygiene', 'search', '--near', 'BT1 1AA', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
    fake.verify();
    expect(fake.requests).toHaveLength(1);
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/^--near: postcode BT1 1AA has no location/) });
  });
});
