/**
 * `publicdata schools ...`: the route call each command builds (captured, not run), and a real run of the
 * --chart renderer on a terminal over a mirror synced from the fixtures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteCall } from '../../src/contract/types.js';
import { syncDataset } from '../../sync/framework.js';
import { cleanup, tempDir } from '../property/mirror-helper.js';
import { runCli } from '../support/cli.js';
import { afterAll } from 'vitest';
import { MI_REAL, GIAS_REAL, miReal } from './fixture.js';

async function callOf(args: string[]): Promise<{ call?: RouteCall; code: number; stderr: string }> {
  let call: RouteCall | undefined;
  const r = await runCli(args, { runCall: async (c) => { call = c; return 0; } });
  return { ...(call ? { call } : {}), code: r.code, stderr: r.stderr };
}

describe('schools commands build the route calls', () => {
  it('schools NAME --authority --near --radius-km --phase', async () => {
    const { call } = await callOf(['schools', 'St Mary', '--authority', 'Leeds', '--near', '51.45,-2.59', '--radius-km', '3', '--phase', 'primary']);
    expect(call).toMatchObject({ method: 'GET', path: '/v1/schools', query: { name: 'St Mary', local_authority: 'Leeds', lat: '51.45', lng: '-2.59', radius_km: '3', phase: 'primary' } });
  });
  it('schools show URN', async () => {
    expect((await callOf(['schools', 'show', '107848'])).call).toMatchObject({ path: '/v1/schools/107848' });
  });
  it('schools stats --authority --region --phase (its own options, not the search command\'s)', async () => {
    const { call } = await callOf(['schools', 'stats', '--authority', 'E08000035', '--region', 'London', '--phase', 'secondary']);
    expect(call).toMatchObject({ path: '/v1/schools/inspections/statistics', query: { local_authority: 'E08000035', region: 'London', phase: 'secondary' } });
  });
  it('--near with one number is invalid_parameter with exit code 2 (one rule for --near in every domain: the command kit, commands/near.ts)', async () => {
    const r = await callOf(['schools', '--near', '51.45']);
    expect(r.call).toBeUndefined();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--near takes a latitude and a longitude, LAT,LNG/);
  });
});

describe('schools stats --chart on a terminal', () => {
  const dirs: string[] = [];
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDir('pd-schools-cli-');
    dirs.push(dataDir);
    await syncDataset('schools', { mirrorDir: `${dataDir}/mirror`, cacheDir: `${dataDir}/cache`, env: {}, from: [GIAS_REAL, MI_REAL] } as never);
  }, 60_000);
  afterAll(() => cleanup(dirs));

  it('draws the framework counts of the rows (none of the real MI rows is in the real GIAS extract: 0 inspected)', async () => {
    const r = await runCli(['schools', 'stats', '--chart'], { tty: true, env: { PUBLICDATA_DATA_DIR: dataDir } });
    expect(r.code).toBe(0);
    // the real GIAS extract has one open school (URN 100000); the MI excerpt is Leeds only
    expect(miReal().some((m) => m.URN === '100000')).toBe(false);
    expect(r.stdout).toMatch(/^1 open schools, 0 inspected; latest inspections as at/m);
    expect(r.stdout).toMatch(/Latest inspection by framework/);
  });
});
