/**
 * A sync option that only picks the files discovery fetches (a DatasetInfo.dateScope option with
 * `discoveryOnly`, e.g. --years)
 * is refused with a --from file or folder, which skips discovery: a usage error (exit 2), before the file
 * is opened, rather than an option silently ignored.
 */
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/registry.js';
import { isolatedEnv, runCli } from '../support/cli.js';

const VALUE: Record<string, string> = { years: '2020', days: '7', months: '3' };
const declared = DATASETS.flatMap((d) => (d.dateScope ?? []).filter((o) => o.discoveryOnly).map((o) => [d.name, o.name] as const));

describe('sync: discovery-only options with --from', () => {
  // each real dataset's own declaration is tested in its folder (test/property, test/vehicles, test/earnings: sync-scope.test.ts)
  it('are declared where discovery alone reads them (the example records --years)', () => {
    expect(declared.map(([d, o]) => `${d} --${o}`).sort()).toEqual(expect.arrayContaining(['example-records --years']));
  });

  it.each(declared)('%s --%s with a --from file is a usage error, the file never opened', async (dataset, option) => {
    const env = isolatedEnv();
    const r = await runCli(['sync', dataset, `--${option}`, VALUE[option]!, '--from', '/no/such/file.csv', '--format', 'json'], { env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'usage_error', message: expect.stringContaining(`--${option} chooses the files discovery fetches`) });
  });
});
