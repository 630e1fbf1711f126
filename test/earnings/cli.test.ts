/**
 * `publicdata earnings ...` in process over a mirror synced from the REAL Table 8.7a 2020 (--from the
 * .xls): names resolved to codes through the regions route, the rank table and --chart, exit codes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { REAL } from './helpers.js';

let env: Record<string, string | undefined>;
beforeAll(async () => {
  env = isolatedEnv();
  const r = await runCli(['sync', 'earnings', '--from', REAL, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
});

describe('earnings commands', () => {
  it('rank resolves a region name and places the amount (JSON)', async () => {
    const r = await runCli(['earnings', 'rank', '42,000', '--region', 'North West', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    // Full-Time sheet row 24, North West (E12000002): O24 41169 (p75), P24 44642 (p80): p75 41169, p80 44642 -> 75 + 831 x 5 / 3473 = 76.196 -> 76.2
    expect(json(r).data).toMatchObject({ percentile: 76.2, reference: { geography: { code: 'E12000002', name: 'North West' }, percentiles: { p75: 41169, p80: 44642 } } });
  });

  it('rank draws the table and the chart on a terminal, the amount in its place', async () => {
    const r = await runCli(['earnings', 'rank', '28000', '--population', 'all', '--chart'], { env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^£28,000 a year: percentile 54\.7 of all employee jobs, United Kingdom \(K02000001\)/);
    const at = lines.findIndex((l) => l.startsWith('▶'));
    expect(lines[at - 1]).toMatch(/median\s+£25,886/);
    expect(lines[at + 1]).toMatch(/p60\s+£30,350/);
    expect(lines[at]).toMatch(/▓+\s+◀ this amount/);
    const below = await runCli(['earnings', 'rank', '5000', '--population', 'all'], { env, tty: true });
    expect(below.stdout.split('\n')[1]).toMatch(/^▶ below p10\s+£5,000/);
  });

  it('regions on a terminal: the figures first, markers as ONS prints them', async () => {
    const r = await runCli(['earnings', 'regions', '--basis', 'residence', '--population', 'all', '--per-page', '10'], { env, tty: true });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('annual gross (a year), all employee jobs, by place of residence, April 2020 (revised)');
    // All!D6 25886, F6 31646, H6 8628, J6 16338, O6 39093, Q6 55798, C6 22341
    expect(lines[2]).toMatch(/^United Kingdom\s+K02000001\s+country\s+£25,886\s+£31,646\s+£8,628\s+£16,338\s+£39,093\s+£55,798\s+22341$/);
    // All row 11, Darlington UA: Q11 'x'
    expect(lines.find((l) => l.startsWith('Darlington UA'))).toMatch(/£35,275\s+x\s+37$/);
  });

  it('regions by name, and bad input exits 2 before any data access', async () => {
    const r = await runCli(['earnings', 'regions', 'lakeland', '--basis', 'residence', '--format', 'json'], { env });
    expect(json(r).data.map((d: any) => d.geography.code)).toEqual(['E07000031']);
    const empty = isolatedEnv();
    for (const args of [['earnings', 'rank', '0'], ['earnings', 'rank', '-3'], ['earnings', 'regions', '--measure', 'monthly'], ['earnings', 'occupations', '--year', '21']]) {
      const b = await runCli([...args, '--format', 'json'], { env: empty });
      expect(b.code, args.join(' ')).toBe(2);
    }
    const notSynced = await runCli(['earnings', 'regions', '--format', 'json'], { env: empty });
    expect(json(notSynced).error.code).toBe('dataset_not_synced');
  });

  it('tax take-home --rank places the gross through the earnings route; without the data it says why', async () => {
    const r = await runCli(['tax', 'take-home', '42000', '--rank', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    // Full-Time!N6 40943 (p70), O6 44146 (p75): 70 + (42000 - 40943) x 5 / 3203 = 71.650 -> 71.7; D6 31487
    expect(json(r).data.rank).toEqual({ percentile: 71.7, percentile_bound: null, year: 2020, area: 'United Kingdom', median: 31487 });
    expect(json(r).data.net_annual).toBeGreaterThan(0);
    const t = await runCli(['tax', 'take-home', '42000', '--rank'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(t.stdout).toMatch(/Gross among full-time jobs\s+percentile 71\.7\s+United Kingdom, April 2020, median £31,487\.00/);
    const none = await runCli(['tax', 'take-home', '42000', '--rank', '--format', 'json'], { env: isolatedEnv() });
    expect(none.code).toBe(0);
    expect(json(none).data).toMatchObject({ rank: null, rank_note: expect.stringMatching(/sync earnings/) });
    expect((await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--rank'], { env })).code).toBe(2);
  });
});
