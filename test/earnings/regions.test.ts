/**
 * The earnings `geography` in the shared region vocabulary (issue 37): a UK country or English region by
 * name, slug or GSS code in any case is its GSS code, on the percentile route (through the API, without
 * the rank command's name lookup) and the regions route; other text is refused on the percentile route
 * with the nearest name, and is a name substring on the regions route. Over a mirror synced from the REAL
 * Table 8.7a 2020 (--from the .xls); the live API is sent the GSS code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';
import { REAL } from './helpers.js';

let env: Record<string, string | undefined>;
beforeAll(async () => {
  env = isolatedEnv();
  const r = await runCli(['sync', 'earnings', '--from', REAL, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
});

// Full-Time sheet row 24, North West (E12000002): p75 41169, p80 44642 -> 75 + 831 x 5 / 3473 = 76.196 -> 76.2
const NORTH_WEST = { percentile: 76.2, reference: { geography: { code: 'E12000002', name: 'North West' }, percentiles: { p75: 41169, p80: 44642 } } };

describe('earnings geography in the region vocabulary', () => {
  it('POST /v1/earnings/percentile takes "North West", north_west and e12000002 as E12000002', async () => {
    for (const g of ['North West', 'north_west', 'e12000002', 'NORTH-WEST']) {
      const r = await runCli(['api', 'POST', '/v1/earnings/percentile', '-F', 'amount=42000', '-f', `geography=${g}`], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(json(r).data).toMatchObject(NORTH_WEST);
    }
  });

  it('rank --region north_west (a slug the name lookup alone never matched)', async () => {
    expect(json(await runCli(['earnings', 'rank', '42000', '--region', 'north_west', '--format', 'json'], { env })).data).toMatchObject(NORTH_WEST);
  });

  it('GET /v1/earnings/regions: a region by slug or code in any case is that area; other text stays a substring', async () => {
    for (const g of ['north_west', 'e12000002']) {
      const d = json(await runCli(['earnings', 'regions', g, '--basis', 'residence', '--format', 'json'], { env })).data;
      expect(d.map((x: any) => x.geography.code)).toEqual(['E12000002']);
    }
    expect(json(await runCli(['earnings', 'regions', 'lakeland', '--basis', 'residence', '--format', 'json'], { env })).data.map((x: any) => x.geography.name)).toEqual(['South Lakeland']);
  });

  it('the percentile route refuses a name it does not know, naming the nearest, before any data access', async () => {
    const r = await runCli(['api', 'POST', '/v1/earnings/percentile', '-F', 'amount=42000', '-f', 'geography=Nort West'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(json(r).error.code).toBe('invalid_parameter');
    expect(json(r).error.message).toContain("did you mean 'North West'?");
  });
});

describe('--source live: the API is sent the GSS code', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api.close());

  it('geography "North West" goes out as E12000002', async () => {
    const live = isolatedEnv({ PUBLICDATA_BASE_URL: api.url, PUBLICDATA_API_KEY: TEST_KEY });
    await runCli(['api', 'POST', '/v1/earnings/percentile', '-F', 'amount=42000', '-f', 'geography=North West', '--source', 'live'], { env: live });
    expect(api.requests.map((r) => JSON.parse(r.body!).geography)).toEqual(['E12000002']);
  });
});
