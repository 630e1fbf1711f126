/**
 * The energy `region` in the shared region vocabulary (issue 37): `energy bill --region "North West"` and
 * every spelling of a region's code or Ofgem name answer as the code does; Great Britain (K03000001) is the
 * GB average; an ONS region's GSS code is refused (the 14 electricity regions are not ONS regions) before
 * any data access or request; the live API is sent the code it documents. The mirror is synced from the
 * GENERATED levels-model workbook of bench/lib/energy-workbook.mjs (format-true, not Ofgem data).
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM generator shared with the bench
import { generateLevelsWorkbook } from '../../bench/lib/energy-workbook.mjs';
import { syncDataset } from '../../src/sync-runner.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-energy-regions-');
const PAGE = '/energy-price-cap/energy-regulation/domestic-and-non-domestic/energy-pricing-rules/energy-price-cap/energy-price-cap-default-tariff-levels';
const FILE = '/sites/default/files/2025-08/energy-price-cap-levels-pre-levelised-rates-model.xlsx';
let dataDir: string;

beforeAll(async () => {
  up.server.set(PAGE, `<html><body><a href="${FILE}">Energy price cap levels model (xlsx)</a></body></html>`, { contentType: 'text/html' });
  up.server.set(FILE, generateLevelsWorkbook().buffer, { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const o = up.syncOptions('2026-02-01T08:00:00Z');
  expect((await syncDataset('energy-price-cap', o)).status).toBe('synced');
  dataDir = dirname(o.mirrorDir);
}, 60_000);

const bill = (region: string) => ['energy', 'bill', '--electricity', '2700', '--gas', '11500', '--period', '2025-10', '--region', region, '--format', 'json'];

describe('energy --region in the region vocabulary', () => {
  it('bill --region "North West" is the north_west bill, as every spelling of the code and of Ofgem\'s names', async () => {
    const env = isolatedEnv({ PUBLICDATA_DATA_DIR: dataDir });
    const byCode = json(await runCli(bill('north_west'), { env }));
    expect(byCode.data.region).toEqual({ code: 'north_west', name: 'North West' });
    for (const spelling of ['North West', 'NORTH WEST', 'north-west', 'North_West']) {
      const r = await runCli(bill(spelling), { env });
      expect(r.code, r.stderr).toBe(0);
      expect(json(r).data).toEqual(byCode.data);
    }
    // a label of Ofgem's workbook (data/energy/price-cap.yaml): "Merseyside and North Wales" is north_wales_mersey
    expect(json(await runCli(bill('merseyside and north wales'), { env })).data.region.code).toBe('north_wales_mersey');
    // the rates route (a query parameter) the same way
    const rates = json(await runCli(['energy', 'rates', '--period', '2025-10', '--region', 'n wales and mersey', '--format', 'json'], { env }));
    expect(new Set(rates.data.map((x: any) => x.region.code))).toEqual(new Set(['north_wales_mersey']));
  });

  it('Great Britain (K03000001) is the GB average, offline without a sync', async () => {
    const r = json(await runCli(['energy', 'bill', '--electricity', '2700', '--region', 'k03000001', '--format', 'json']));
    // 2026-10 GB-average Direct Debit electricity (data/energy/price-cap.yaml): 26.32p/kWh, 54.83p/day;
    // 2700 x 26.32 = 71064p; 365 x 54.83 = 20012.95p -> 20013p; total 91077p
    expect(r.data).toMatchObject({ period_id: '2026-10', region: { code: 'gb_average' }, total_annual: 910.77 });
  });

  it('an ONS region code is refused, saying why and what is accepted, before any data access', async () => {
    // no mirror at all: a refusal at validation exits 2 (invalid_parameter), not 1 (dataset_not_synced)
    const r = await runCli(bill('E12000002'));
    expect(r.code).toBe(2);
    const e = json(r).error;
    expect(e.code).toBe('invalid_parameter');
    expect(e.message).toContain("'E12000002' is the ONS region North West (E12000002), which is not an electricity region");
    expect(e.message).toContain('north_west, northern, yorkshire');
    const typo = json(await runCli(bill('Nort West'))).error;
    expect(typo).toMatchObject({ code: 'invalid_parameter' });
    expect(typo.message).toContain("did you mean 'North West'?");
  });
});

describe('--source live: the API is sent the code it documents', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api.close());

  it('POST calculate: "North West" goes out as north_west; GET rates: the query likewise; a refused value is never sent', async () => {
    const env = isolatedEnv({ PUBLICDATA_BASE_URL: api.url, PUBLICDATA_API_KEY: TEST_KEY });
    await runCli(['energy', 'bill', '--electricity', '2700', '--region', 'North West', '--source', 'live', '--format', 'json'], { env });
    await runCli(['energy', 'rates', '--region', 'N Wales and Mersey', '--source', 'live', '--format', 'json'], { env });
    expect(api.requests).toHaveLength(2);
    expect(JSON.parse(api.requests[0]!.body!).region).toBe('north_west');
    expect(api.requests[1]!.query.region).toBe('north_wales_mersey');
    const refused = await runCli(['energy', 'bill', '--electricity', '2700', '--region', 'E12000002', '--source', 'live', '--format', 'json'], { env });
    expect(refused.code).toBe(2);
    expect(api.requests).toHaveLength(2);
  });
});
