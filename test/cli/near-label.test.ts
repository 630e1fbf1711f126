/**
 * `--near LAT,LNG` gives a route's lat and lng; a value out of their range is named as the option typed,
 * `--near`, in every command that has it (the command kit relabels lat/lng when --near was given), and is
 * refused before data access (no mirror here: not dataset_not_synced). Before, food-hygiene and crime said
 * "Invalid option --lat", an option the user had not typed. And a value typed as spaces only is refused by the
 * kit for every command (the API reads a blank value as none: food-hygiene search "   " listed everything).
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

describe('--near out of range', () => {
  it.each([
    [['food-hygiene', 'search', '--near', '95,-1'], 'at most 90'],
    [['crime', 'street', '--near', '95,-1'], 'at most 90'],
    [['schools', '--near', '40,-1.5'], 'at least 49'],
  ])('%j: invalid_parameter naming --near (exit 2)', async (args, bound) => {
    const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: `Invalid option --near: must be ${bound}.` }));
  });

  it('--lat given as itself keeps its own name', async () => {
    const r = await runCli(['food-hygiene', 'search', '--lat', '95', '--lng', '-1', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(JSON.parse(r.stdout).error.message).toBe('Invalid option --lat: must be at most 90.');
  });
});

describe('a value typed as spaces only', () => {
  it.each([
    [['food-hygiene', 'search', '   '], 'argument <name>'],
    [['food-hygiene', 'search', '--authority', '  '], 'option --authority'],
    [['schools', 'stats', '--authority', ' '], 'option --authority'],
    [['crime', 'stats', '--lsoa', ' '], 'option --lsoa'],
  ])('%j: invalid_parameter "empty" (exit 2), before data access: a blank filter would list every record', async (args, label) => {
    const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: `Invalid ${label}: empty; give a value.` }));
  });
});
