/**
 * `--near POSTCODE` with `--source live`: the published API has no postcode route (a publicdata extension),
 * so the kit places the postcode from the local postcodes mirror and only the search goes to the live API,
 * with the postcode's coordinates (read here from the generated edition's file). A postcode the directory
 * does not hold, or one without a grid reference, is refused before any live request.
 */
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/contract/types.js';
import { json, runCli } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { rowsOf } from './fixture.js';
import { GENERATED_2026_CSV } from './samples.js';

const fx = useFixtureMirror('pd-near-live-');
const env = () => ({ ...fx.env(), PUBLICDATA_API_KEY: fakeKey('test', 'nearpostcodee2e0000000000000000') });
const page = (): CallResult => ({ status: 200, source: 'live', envelope: { data: [], meta: { api_version: 'v1' }, pagination: { total: 0, page: 1, per_page: 25, total_pages: 0 } } });

describe('--near POSTCODE under --source live', () => {
  it('crime street --near "EC2V 7HH": placed locally, one live request, with its latitude and longitude', async () => {
    const row = rowsOf(GENERATED_2026_CSV).find((x) => x.pcds === 'EC2V 7HH')!;
    const fake = new FakeLive().register('GET', '/v1/crime/street', page);
    const r = await runCli(['crime', 'street', '--near', 'EC2V 7HH', '--radius-km', '0.5', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    fake.verify();
    expect(fake.requests.map((c) => [c.method, c.path, c.query])).toEqual([['GET', '/v1/crime/street', { lat: String(Number(row.lat)), lng: String(Number(row.long)), radius_km: '0.5' }]]);
  });

  it('a postcode the directory does not hold: its 404, no live request', async () => {
    const fake = new FakeLive();
    const r = await runCli(['schools', '--near', 'ZZ1 1ZZ', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
    expect(fake.requests).toEqual([]);
    expect(json(r).error.code).toBe('not_found');
    expect(r.code).toBe(1);
  });

  it('a postcode without a grid reference: 400 invalid_parameter naming --near (exit 2), no live request', async () => {
    const fake = new FakeLive();
    const r = await runCli(['food-hygiene', 'search', '--near', 'LS8 9ZZ', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: fake.factory });
    expect(fake.requests).toEqual([]);
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/^--near: postcode LS8 9ZZ has no location/) });
  });
});
