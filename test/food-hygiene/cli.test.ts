/**
 * The food-hygiene commands in process: argv to the route call (the spec's paths, which `--source live`
 * sends to the API), a sync from the fixture folder through `publicdata sync`, the table with the rating
 * beside its date, `stats --chart`, and bad input as exit 2 before anything runs.
 */
import { describe, expect, it } from 'vitest';
import type { RouteCall } from '../../src/contract/types.js';
import { isolatedEnv, runCli } from '../support/cli.js';
import { FIXTURE_DIR, readXml } from './fixture.js';

async function callOf(args: string[]): Promise<RouteCall> {
  const calls: RouteCall[] = [];
  const r = await runCli(args, { runCall: async (call) => (calls.push(call), 0) });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

describe('food-hygiene commands map argv to the route call', () => {
  it('search with a name, --near, --radius-km, --min-rating, --authority', async () => {
    expect(await callOf(['food-hygiene', 'search', 'pizza', '--near', '53.8008,-1.5491', '--radius-km', '0.5', '--min-rating', '4', '--authority', 'leeds'])).toMatchObject({
      method: 'GET',
      path: '/v1/food-hygiene/establishments',
      query: { name: 'pizza', lat: '53.8008', lng: '-1.5491', radius_km: '0.5', min_rating: '4', local_authority: 'leeds' },
    });
    expect((await callOf(['food-hygiene', 'search', '--postcode', 'LS6', '--rating', 'pass_and_eat_safe'])).query).toMatchObject({ postcode: 'LS6', rating: 'pass_and_eat_safe' });
  });

  it('show, authorities, business-types, stats', async () => {
    expect((await callOf(['food-hygiene', 'show', '1018650'])).path).toBe('/v1/food-hygiene/establishments/1018650');
    expect((await callOf(['food-hygiene', 'authorities'])).path).toBe('/v1/food-hygiene/authorities');
    expect((await callOf(['food-hygiene', 'business-types'])).path).toBe('/v1/food-hygiene/business-types');
    expect(await callOf(['food-hygiene', 'stats', '--authority', 'LEEDS'])).toMatchObject({ path: '/v1/food-hygiene/statistics', query: { local_authority: 'LEEDS' } });
  });
});

describe('food-hygiene commands on a synced mirror', () => {
  it('sync, then a table with the rating and its date, stats --chart, and exit 2 for bad input', async () => {
    const env = isolatedEnv();
    const s = await runCli(['sync', 'food-hygiene', '--from', FIXTURE_DIR, '--format', 'json'], { env });
    expect(s.code, s.stderr).toBe(0);
    const tees = readXml('FHRS648en-GB.xml');
    expect(JSON.parse(s.stdout).data[0]).toMatchObject({ dataset: 'food-hygiene', status: 'synced', rows_total: 117 });

    const t = await runCli(['food-hygiene', 'search', '--authority', '648', '--sort', 'rating_date'], { env, tty: true, columns: 160 });
    expect(t.code, t.stderr).toBe(0);
    const dated = tees.find((e) => e.name === 'Mellors at Mactech')!;
    expect(dated).toBeDefined();
    expect(t.stdout).toMatch(/Mellors at Mactech.*4 \(2019-06-10\)/);
    expect(t.stdout).toMatch(/Eco Shop.*awaiting_inspection/);

    const c = await runCli(['food-hygiene', 'stats', '--authority', '648', '--chart'], { env, tty: true, columns: 100 });
    expect(c.code, c.stderr).toBe(0);
    const fours = tees.filter((e) => e.rating === '4').length;
    expect(c.stdout).toMatch(new RegExp(`^\\s+4 █+ ${fours}$`, 'm'));

    for (const args of [['food-hygiene', 'show', 'abc'], ['food-hygiene', 'search', '--radius-km', '60', '--near', '54,-1'], ['food-hygiene', 'search', '--rating', 'good'], ['food-hygiene', 'search', '--near', '54']]) {
      const r = await runCli([...args, '--format', 'json'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe('invalid_parameter');
    }
  });
});
