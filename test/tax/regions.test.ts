/**
 * The tax `region` (an income tax region: england_wales_ni or scotland, not an ONS region) in the shared
 * region vocabulary (issue 37; data/tax/regions.yaml): Scotland by name or GSS code is scotland; England,
 * Wales, Northern Ireland and every English region are england_wales_ni; the United Kingdom holds both and
 * is refused (invalid_region) before any calculation or request; the live API is sent the slug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';

const takeHome = (region: string, ...more: string[]) => ['tax', 'take-home', '45000', '--year', '2026-27', '--region', region, ...more, '--format', 'json'];

describe('tax --region in the region vocabulary', () => {
  it('an English region by name or code is england_wales_ni: 20% of (45,000 - 12,570) = 6,486.00', async () => {
    for (const region of ['North West', 'e12000002', 'london', 'Wales', 'N92000002']) {
      const d = json(await runCli(takeHome(region))).data;
      expect([region, d.region, d.deductions.income_tax.amount]).toEqual([region, 'england_wales_ni', 6486]);
    }
  });

  it('Scotland by GSS code or in another case is the scotland answer', async () => {
    const slug = json(await runCli(takeHome('scotland'))).data;
    expect(slug.region).toBe('scotland');
    for (const region of ['S92000003', 'SCOTLAND']) expect(json(await runCli(takeHome(region))).data).toEqual(slug);
  });

  it('compare: each scenario region in the vocabulary', async () => {
    const d = json(await runCli(['tax', 'compare', '45000', '45000', '--year', '2026-27', '--a-region', 'w92000004', '--b-region', 'Scotland', '--format', 'json'])).data;
    expect([d.scenario_a.region, d.scenario_b.region]).toEqual(['england_wales_ni', 'scotland']);
  });

  it('the United Kingdom is refused as holding both regions; a typo names the nearest (invalid_region, exit 2)', async () => {
    const uk = await runCli(takeHome('UK'));
    expect(uk.code).toBe(2);
    expect(json(uk).error.code).toBe('invalid_region');
    expect(json(uk).error.message).toContain("'UK' is the ONS country United Kingdom (K02000001), which holds both income tax regions");
    const typo = json(await runCli(takeHome('Scotlnd'))).error;
    expect(typo.code).toBe('invalid_region');
    expect(typo.message).toContain("did you mean 'scotland'?");
  });
});

describe('--source live: the API is sent the slug', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api.close());

  it('take-home --region S92000003 sends scotland; compare sends each scenario\'s slug; UK is never sent', async () => {
    const env = isolatedEnv({ PUBLICDATA_BASE_URL: api.url, PUBLICDATA_API_KEY: TEST_KEY });
    await runCli(['tax', 'take-home', '45000', '--region', 'S92000003', '--source', 'live', '--format', 'json'], { env });
    await runCli(['tax', 'compare', '45000', '50000', '--a-region', 'North West', '--b-region', 's92000003', '--source', 'live', '--format', 'json'], { env });
    await runCli(['tax', 'take-home', '45000', '--region', 'UK', '--source', 'live', '--format', 'json'], { env });
    const bodies = api.requests.map((r) => JSON.parse(r.body!));
    expect(bodies).toHaveLength(2);
    expect(bodies[0].region).toBe('scotland');
    expect([bodies[1].scenario_a.region, bodies[1].scenario_b.region]).toEqual(['england_wales_ni', 'scotland']);
  });
});
