/**
 * `publicdata earnings ...` in process over a mirror synced from the REAL Table 8.7a 2020 (--from the
 * .xls): names resolved to codes through the regions route, the rank table and --chart, exit codes.
 * Expected lines of the rank table are derived from the real sheet read with SheetJS: a number is shown as
 * pounds, 'x' or '..' (ONS's key: suppressed) as 'suppressed', another marker as printed, a blank cell as
 * 'not published'.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { REAL, realGeographyRows, realPoints } from './helpers.js';

let env: Record<string, string | undefined>;

/** What the rank table shows for a point of the real sheet (the oracle of the comment above). */
const shown = (cell: number | string | undefined) =>
  cell === undefined ? 'not published' : typeof cell === 'number' ? `£${cell.toLocaleString('en-GB')}` : cell === 'x' || cell === '..' ? 'suppressed' : cell;
const lineOf = (lines: string[], label: string) => lines.findIndex((l) => new RegExp(`^  ${label}\\s`).test(l));
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
    const below = await runCli(['earnings', 'rank', '5000', '--population', 'all'], { env, tty: true, columns: 200 });
    expect(below.stdout.split('\n')[1]).toMatch(/^▶ below p10\s+£5,000/);
  });

  it('rank: an ambiguous name counts every match, not the first page of them', async () => {
    // every coded row of the real sheet whose name holds an 'e' (the regions route's case-insensitive substring)
    const expected = realGeographyRows().filter((r) => r.name.toLowerCase().includes('e')).length;
    expect(expected).toBeGreaterThan(100);
    const r = await runCli(['earnings', 'rank', '42000', '--region', 'e', '--format', 'json'], { env });
    expect(r.code).toBe(2);
    expect(json(r).error.message).toMatch(new RegExp(`^'e' matches ${expected} areas: `));
  });

  it('rank: an empty --region or --occupation is invalid_parameter before any data access', async () => {
    const empty = isolatedEnv(); // no mirror: a lookup would answer dataset_not_synced
    for (const args of [['--region', ''], ['--region', '   '], ['--occupation', ''], ['--occupation', ' \t']]) {
      const r = await runCli(['earnings', 'rank', '42000', ...args, '--format', 'json'], { env: empty });
      expect(r.code, args.join(' ')).toBe(2);
      expect(json(r).error.code, args.join(' ')).toBe('invalid_parameter');
      expect(json(r).error.message).toMatch(/empty/);
    }
  });

  it('rank: a year not loaded names Table 7 first (none of it loaded here) and the years Table 8 has', async () => {
    const r = await runCli(['earnings', 'rank', '42000', '--year', '2019', '--format', 'json'], { env });
    expect(r.code).toBe(2);
    // the handler's error names the flag typed (issue 37), as a validation error does
    expect(json(r).error.message).toMatch(/^Invalid option --year: 2019 is not loaded for ASHE Table 7 \(place of work\) annual_gross .*Table 8: 2020\.$/);
  });

  it('errors name the flag typed: a region no record is named like, a year not loaded for a list', async () => {
    const r = await runCli(['earnings', 'rank', '42000', '--region', 'nowhere', '--format', 'json'], { env });
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'invalid_parameter', message: "Invalid option --region: no area named like 'nowhere' in the data loaded; 'publicdata earnings regions' lists them." });
    // a typo of a region's name: the nearest name too
    const typo = await runCli(['earnings', 'rank', '42000', '--region', 'Nort West', '--format', 'json'], { env });
    expect([typo.code, json(typo).error.message]).toEqual([2, "Invalid option --region: no area named like 'Nort West' in the data loaded; did you mean 'North West'? 'publicdata earnings regions' lists them."]);
    const y = await runCli(['earnings', 'regions', '--basis', 'residence', '--year', '2019', '--format', 'json'], { env });
    expect(y.code).toBe(2);
    expect(json(y).error.message).toMatch(/^Invalid option --year: /);
    // the same errors through the API keep the API's words (serve, api): parameter 'year'
    const api = await runCli(['api', 'GET', '/v1/earnings/regions', '-f', 'basis=residence', '-f', 'year=2019', '--format', 'json'], { env });
    expect(json(api).error.message).toMatch(/^Invalid parameter 'year': /);
  });

  it('rank: blank percentiles read "not published", never suppressed (Isles of Scilly, part-time)', async () => {
    const pts = realPoints('Part-Time', 'E06000053');
    expect(pts.every((p) => p.cell === undefined)).toBe(true); // the real row: every point blank, no marker
    const r = await runCli(['earnings', 'rank', '10000', '--region', 'isles of scilly', '--population', 'part_time'], { env: { ...env, NO_COLOR: '1' }, tty: true, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^£10,000 a year: not placed \(no percentile published\) among part-time employee jobs, Isles of Scilly \(E06000053\)/);
    for (const p of pts) expect(lines[lineOf(lines, p.label)]).toMatch(new RegExp(`\\s${shown(p.cell)}$`));
    expect(r.stdout).not.toMatch(/suppress/);
    const j = json(await runCli(['earnings', 'rank', '10000', '--region', 'E06000053', '--population', 'part_time', '--format', 'json'], { env }));
    expect(j.data).toMatchObject({ percentile: null, percentile_bound: null, between: [], reference: { suppressed: [] } });
    expect(j.meta.note).toMatch(/Not placed: ONS published no percentile for this record\./);
    expect(j.meta.note).not.toMatch(/suppress/);
  });

  it('rank: an amount not placed sits next to the nearest published point (Middlesbrough, p10 and p70-p90 suppressed)', async () => {
    const pts = realPoints('Full-Time', 'E06000002');
    const published = pts.filter((p) => typeof p.cell === 'number');
    const [lowest, highest] = [published[0]!, published.at(-1)!];
    const missingBelow = pts.slice(0, pts.indexOf(lowest)).map((p) => p.label);
    const missingAbove = pts.slice(pts.indexOf(highest) + 1).map((p) => p.label);
    const tty = { env: { ...env, NO_COLOR: '1' }, tty: true, columns: 200 };
    const below = (await runCli(['earnings', 'rank', '10000', '--region', 'E06000002'], tty)).stdout.split('\n');
    expect(below[0]).toMatch(new RegExp(`^£10,000 a year: not placed \\(below ${lowest.label}, the lowest published\\) among full-time employee jobs, Middlesbrough UA`));
    const at = below.findIndex((l) => l.startsWith('▶'));
    expect(below[at]).toMatch(/^▶ not placed\s+£10,000/);
    expect(at + 1).toBe(lineOf(below, lowest.label));
    for (const p of pts) expect(below[lineOf(below, p.label)]).toMatch(new RegExp(`\\s${shown(p.cell)}$`));
    expect(below.join(' ')).toMatch(new RegExp(`Not placed: below ${lowest.label}, .*\\(${missingBelow.join(', ')} suppressed\\)`));
    const above = (await runCli(['earnings', 'rank', '40000', '--region', 'E06000002'], tty)).stdout.split('\n');
    expect(above[0]).toMatch(new RegExp(`not placed \\(above ${highest.label}, the highest published\\) among`));
    expect(above.findIndex((l) => l.startsWith('▶'))).toBe(lineOf(above, highest.label) + 1);
    expect(above.join(' ')).toMatch(new RegExp(`\\(${missingAbove.join(', ')} suppressed\\)`));
  });

  it('rank: an annual amount with pence shows two decimals', async () => {
    const r = await runCli(['earnings', 'rank', '42000.5'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    // Full-Time!N6 40943 (p70), O6 44146 (p75): 70 + (42000.5 - 40943) x 5 / 3203 = 70 + 5287.5 / 3203 = 71.651 -> 71.7
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^£42,000\.50 a year: percentile 71\.7 of full-time employee jobs/);
    expect(lines.find((l) => l.startsWith('▶'))).toMatch(/^▶ p71\.7\s+£42,000\.50  ◀ this amount$/);
    expect(lines[lineOf(lines, 'p70')]).toMatch(/\s£40,943$/);
  });

  it('sync earnings: --years with a --from file is a usage error (--from loads exactly the files given)', async () => {
    const r = await runCli(['sync', 'earnings', '--years', '2030', '--from', REAL, '--format', 'json'], { env });
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'usage_error', message: expect.stringMatching(/--years .*--from loads exactly the files given/) });
  });

  it('regions on a terminal: the figures first, markers as ONS prints them', async () => {
    // wide enough for every column (at 80 the table keeps name and median first: test/cli/tables-80.test.ts)
    const r = await runCli(['earnings', 'regions', '--basis', 'residence', '--population', 'all', '--per-page', '10'], { env, tty: true, columns: 200 });
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
