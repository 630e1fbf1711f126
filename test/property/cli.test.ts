/** The friendly commands over these routes, in process: piped output is exactly the local route's envelope. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { FIXED_NOW, isolatedEnv, runCli } from '../support/cli.js';
import { buildDataset, cleanup, ctxFor, fixturesOf } from '../support/mirror-helper.js';

const FIXTURES = fixturesOf('property');

const env = isolatedEnv();
const mirror = join(env.PUBLICDATA_DATA_DIR!, 'mirror');
beforeAll(async () => {
  mkdirSync(mirror, { recursive: true });
  await buildDataset('hpi', join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv'), mirror);
  await buildDataset('listed-buildings', join(FIXTURES, 'planning-data', 'listed-building.csv'), mirror);
});
afterAll(() => cleanup([env.PUBLICDATA_DATA_DIR!]));

const local = async (path: string, query: Record<string, string> = {}) =>
  (await getRoute(path, query, ctxFor(mirror, FIXED_NOW.toISOString()))).envelope;

describe('commands', () => {
  it.each([
    [['calendar', 'bank-holidays', 'next'], '/v1/calendar/bank-holidays/next', {}],
    [['calendar', 'bank-holidays', '2027', '--region', 'scotland'], '/v1/calendar/bank-holidays/2027', { region: 'scotland' }],
    [['calendar', 'regions'], '/v1/calendar/regions', {}],
    [['property', 'hpi', '--region', 'ribble valley', '--from', '2000-01-01'], '/v1/property/hpi', { region: 'ribble valley', from: '2000-01-01' }],
    [['property', 'hpi-regions'], '/v1/property/hpi/regions', {}],
    [['property', 'listed-buildings', '--name', 'lambeth', '--bbox', '-0.13,51.49,-0.11,51.51'], '/v1/property/listed-buildings', { name: 'lambeth', min_lng: '-0.13', min_lat: '51.49', max_lng: '-0.11', max_lat: '51.51' }],
    [['property', 'listed-buildings', '31573653'], '/v1/property/listed-buildings/31573653', {}],
  ] as Array<[string[], string, Record<string, string>]>)('%j prints the route envelope', async (args, path, query) => {
    const r = await runCli(args, { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await local(path, query));
  });

  it('exit codes: not synced 1, bad year 2, unknown entity 1', async () => {
    const ct = await runCli(['property', 'council-tax', '--authority-name', 'leeds', '--band', 'D'], { env });
    expect(ct.code).toBe(1);
    expect(ct.stdout + ct.stderr).toContain('publicdata sync council-tax');
    expect((await runCli(['calendar', 'bank-holidays', '27'], { env })).code).toBe(2);
    expect((await runCli(['property', 'listed-buildings', '1'], { env })).code).toBe(1);
  });
});
