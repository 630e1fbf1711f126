/**
 * `tax take-home --rank` against an area (issue 37): `--region` ranks against that country or region,
 * `--postcode` against the postcode's local authority (looked up through GET /v1/postcodes/{postcode}),
 * with the tax region of its country. Over mirrors synced from the REAL ASHE Table 8.7a 2020 and the
 * GENERATED August 2026 postcode directory (test/fixtures/postcodes: LS8 3BS in Leeds E08000035, AB10 1AB in
 * Aberdeen City S12000033). Expected percentiles are interpolated here by hand from the real sheet.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { REAL, realPoints } from './helpers.js';

const POSTCODES = join(__dirname, '..', 'fixtures', 'postcodes', 'GENERATED-ONSPD_AUG_2026', 'Data', 'ONSPD_AUG_2026_UK.csv');
let env: Record<string, string | undefined>;
let earningsOnly: Record<string, string | undefined>;
beforeAll(async () => {
  env = isolatedEnv();
  earningsOnly = isolatedEnv();
  for (const e of [env, earningsOnly]) expect((await runCli(['sync', 'earnings', '--from', REAL, '--format', 'json'], { env: e })).code).toBe(0);
  const p = await runCli(['sync', 'postcodes', '--from', POSTCODES, '--format', 'json'], { env });
  expect(p.code, p.stderr).toBe(0);
});

/** The Full-Time sheet's p75 and p80 and median of a code, read with SheetJS; 42,000 lies between p75 and p80 in both areas below. */
function between75and80(code: string, amount: number): { percentile: number; median: number } {
  const pts = Object.fromEntries(realPoints('Full-Time', code).map((p) => [p.label, p.cell as number]));
  expect(pts.p75! < amount && amount < pts.p80!).toBe(true);
  return { percentile: Math.round((75 + (5 * (amount - pts.p75!)) / (pts.p80! - pts.p75!)) * 10) / 10, median: pts.median! };
}

describe('tax take-home --rank in an area', () => {
  it('--region "North West": the North West distribution and the england_wales_ni tax', async () => {
    const d = json(await runCli(['tax', 'take-home', '42000', '--rank', '--region', 'North West', '--format', 'json'], { env })).data;
    // Full-Time row 24, E12000002: p75 41169, p80 44642 -> 75 + 831 x 5 / 3473 = 76.196 -> 76.2; median 29523
    expect(d.region).toBe('england_wales_ni');
    expect(d.rank).toEqual({ percentile: 76.2, percentile_bound: null, year: 2020, area: 'North West', median: 29523 });
    expect(d.rank_note).toContain('North West');
  });

  it('--postcode "LS8 3BS": the Leeds distribution (its local authority)', async () => {
    const want = between75and80('E08000035', 42000);
    // by hand: p75 41274, p80 44183 -> 75 + 726 x 5 / 2909 = 76.248 -> 76.2
    expect(want.percentile).toBe(76.2);
    const d = json(await runCli(['tax', 'take-home', '42000', '--rank', '--postcode', 'ls8 3bs', '--format', 'json'], { env })).data;
    expect(d.region).toBe('england_wales_ni');
    expect(d.rank).toEqual({ percentile: want.percentile, percentile_bound: null, year: 2020, area: 'Leeds', median: want.median });
    expect(d.rank_note).toContain('the local authority of LS8 3BS');
  });

  it('--postcode "AB10 1AB": Aberdeen City, and the Scottish income tax of its country', async () => {
    const want = between75and80('S12000033', 42000);
    // by hand: p75 41583, p80 43864 -> 75 + 417 x 5 / 2281 = 75.914 -> 75.9
    expect(want.percentile).toBe(75.9);
    const d = json(await runCli(['tax', 'take-home', '42000', '--rank', '--postcode', 'AB10 1AB', '--format', 'json'], { env })).data;
    expect(d.region).toBe('scotland');
    expect(d.rank).toMatchObject({ percentile: 75.9, area: 'Aberdeen City', median: want.median });
  });

  it('postcodes not synced: the documented dataset_not_synced naming the sync command (exit 1)', async () => {
    const r = await runCli(['tax', 'take-home', '42000', '--rank', '--postcode', 'LS8 3BS', '--format', 'json'], { env: earningsOnly });
    expect(r.code).toBe(1);
    expect(json(r).error.code).toBe('dataset_not_synced');
    expect(json(r).error.message).toContain('publicdata sync postcodes');
  });

  it('--postcode without --rank, or with --sweep, is a usage error', async () => {
    expect((await runCli(['tax', 'take-home', '42000', '--postcode', 'LS8 3BS'], { env })).code).toBe(2);
    expect((await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--postcode', 'LS8 3BS'], { env })).code).toBe(2);
  });
});
