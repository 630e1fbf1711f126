/**
 * `--near "POSTCODE"` on every point command, through the command kit's resolver and the postcodes dataset:
 * the same answer as `--near` with the postcode's own coordinates, read here from the generated edition's file.
 */
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';
import { baseEnv, binRunner } from '../support/e2e.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { GENERATED_2026_CSV } from './samples.js';
import { rowsOf } from './fixture.js';

const fx = useFixtureMirror('pd-near-postcode-');
const run = async (args: string[]) => runCli([...args, '--format', 'json'], { env: fx.env() });
const coords = (pc: string) => {
  const r = rowsOf(GENERATED_2026_CSV).find((x) => x.pcds === pc)!;
  return `${Number(r.lat)},${Number(r.long)}`;
};

describe('--near takes a postcode', () => {
  const cases: Array<[string, string[], string]> = [
    ['crime stats', ['crime', 'stats', '--radius-km', '1'], 'EC2V 7HH'],
    ['crime street', ['crime', 'street', '--radius-km', '1', '--per-page', '100'], 'EC2V 7HH'],
    ['food-hygiene search', ['food-hygiene', 'search', '--radius-km', '1'], 'GU7 1HR'],
    ['schools', ['schools', '--radius-km', '5'], 'LS8 3BS'],
    ['traffic count points', ['vehicles', 'traffic', 'count-points', '--radius-km', '5'], 'LS8 3BS'],
    ['postcode', ['postcode', '--radius-km', '1', '--include-terminated'], 'LS8 3BS'],
    ['collisions near', ['vehicles', 'collisions-near', '--radius-km', '5', '--per-page', '100'], 'EC2V 7HH'],
    ['collisions summary', ['vehicles', 'collisions-summary', '--radius-km', '5'], 'EC2V 7HH'],
  ];
  it('the built binary: a schools command loads the postcodes domain when --near is a postcode, and answers as in process', async () => {
    // the binary loads only the invoked group's domain (src/registry.ts); the postcode route is another's
    const args = ['schools', '--radius-km', '5', '--near', 'LS8 3BS', '--format', 'json'];
    const bin = await binRunner([])(args, baseEnv(fx.env()));
    const inProcess = await runCli(args, { env: fx.env() });
    expect(bin.exitCode, bin.stderr).toBe(0);
    expect(JSON.parse(bin.stdout).data).toEqual(json(inProcess).data);
    expect((json(inProcess).data as unknown[]).length).toBeGreaterThan(0);
  });

  for (const [name, args, pc] of cases) {
    it(`${name} --near "${pc}" answers as --near with its coordinates`, async () => {
      const byPostcode = await run([...args, '--near', pc]);
      const byPoint = await run([...args, '--near', coords(pc)]);
      expect(byPostcode.code, byPostcode.stderr).toBe(0);
      expect(byPoint.code).toBe(0);
      expect(json(byPostcode).data).toEqual(json(byPoint).data);
    });
  }
  it('crime stats --near "EC2V 7HH" counts the crimes around it (not an empty answer)', async () => {
    expect(json(await run(['crime', 'stats', '--radius-km', '1', '--near', 'ec2v7hh'])).data.total).toBeGreaterThan(0);
  });
  it('vehicles collisions-summary --near "EC2V 7HH" counts the collisions around it (not an empty answer)', async () => {
    expect(json(await run(['vehicles', 'collisions-summary', '--radius-km', '5', '--near', 'EC2V 7HH'])).data.collisions).toBeGreaterThan(0);
  });
  it('a postcode not in the directory is its 404; one without a location is a 400', async () => {
    expect((await run(['crime', 'stats', '--near', 'ZZ1 1ZZ'])).code).toBe(1);
    const r = await run(['crime', 'stats', '--near', 'LS8 9ZZ']);
    expect(r.code).toBe(2);
    expect(json(r).error.code).toBe('invalid_parameter');
  });
});
