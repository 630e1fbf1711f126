/**
 * `--near LAT,LNG` gives a route's lat and lng; a value out of their range is named as the option typed,
 * `--near`, in every command that has it (the command kit relabels lat/lng when --near was given), and is
 * refused before data access. Before, food-hygiene and crime said "Invalid option --lat", an option the
 * user had not typed. And a value typed as spaces only is refused by the kit for every command (the API
 * reads a blank value as none: a blank name filter listed everything). Run on the test-only example
 * domain; each domain's own commands are checked in its tests (test/<domain>/output.test.ts).
 */
import '../support/example-domain/index.js';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

describe('--near out of range', () => {
  it.each([
    [['example', 'items', '--near', '95,-1'], 'at most 90'],
    [['example', 'items', '--near', '51,-181'], 'at least -180'],
  ])('%j: invalid_parameter naming --near (exit 2)', async (args, bound) => {
    const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: `Invalid option --near: must be ${bound}.` }));
  });

  it('a radius without a point names --near, the option to type, not the route\'s lat (issue 37)', async () => {
    const r = await runCli(['example', 'items', '--radius-km', '2', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect([r.code, JSON.parse(r.stdout).error.message]).toEqual([2, 'Invalid option --radius-km: needs --near as well.']);
  });

  it('--lat given as itself keeps its own name', async () => {
    const r = await runCli(['example', 'items', '--lat', '95', '--lng', '-1', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(JSON.parse(r.stdout).error.message).toBe('Invalid option --lat: must be at most 90.');
    // and half a point typed so is named in the same words
    const half = await runCli(['example', 'items', '--lat', '51', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(JSON.parse(half.stdout).error.message).toBe('Invalid option --lat: needs --lng as well.');
  });

  it('a --near in range answers, nearest first', async () => {
    // item 1 is at (51.01, -0.99); items 2 and 3 are 0.01 degree steps further
    const r = await runCli(['example', 'items', '--near', '51.01,-0.99', '--radius-km', '3', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout).data as Array<{ id: number; distance_km: number }>;
    expect(data.map((d) => d.id)).toEqual([1, 2, 3]);
    expect(data[0]!.distance_km).toBe(0);
  });
});

describe('a value typed as spaces only', () => {
  it.each([
    [['example', 'items', '   '], 'argument <name>'],
    [['example', 'summary', '--colour', '  '], 'option --colour'],
  ])('%j: invalid_parameter "empty" (exit 2), before data access: a blank filter would list every record', async (args, label) => {
    const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: `Invalid ${label}: empty; give a value.` }));
  });
});
