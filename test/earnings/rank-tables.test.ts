/**
 * `earnings rank` over a mirror holding tables of different years (synced --from the files): the REAL
 * Table 8.7a 2020 (residence), a GENERATED Table 7.7a 2021 (workplace; test/earnings/ashe-gen.mjs, the real
 * file's first ten rows) and GENERATED Tables 14.7a 2020 and 2021 (occupations; SOC 2010 before 2021, SOC
 * 2020 from 2021, as ONS coded them). Which table the default basis uses for a year, what a year neither
 * table holds is told, the SOC 2010 note, and an ambiguous occupation name counted in full.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { asheWorkbook, memberName, occupationRows } from './ashe-gen.mjs';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { REAL, realGeographyRows } from './helpers.js';

let env: Record<string, string | undefined>;
beforeAll(async () => {
  env = isolatedEnv();
  const dir = mkdtempSync(join(tmpdir(), 'pd-earn-rank-'));
  const gen = (table: string, year: number, rows: Array<{ name: string; code: string }>) => {
    const path = join(dir, memberName(table, '7', year, false));
    writeFileSync(path, asheWorkbook({ rows, table, sub: '7', year }));
    return path;
  };
  const files = [REAL, gen('7', 2021, realGeographyRows().slice(0, 10)), gen('14', 2020, occupationRows()), gen('14', 2021, occupationRows())];
  const r = await runCli(['sync', 'earnings', ...files.flatMap((f) => ['--from', f]), '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
});

const rank = (...args: string[]) => runCli(['earnings', 'rank', ...args, '--format', 'json'], { env });

describe('earnings rank across tables and years', () => {
  it('the default basis: Table 7 for its year, Table 8 only for a year it has and Table 7 lacks', async () => {
    const newest = json(await rank('42000'));
    expect(newest.meta.ons_table).toBe('ASHE Table 7 (place of work)');
    expect(newest.data.reference).toMatchObject({ year: 2021, basis: 'workplace' });
    const y2020 = await rank('42000', '--year', '2020');
    expect(y2020.code, y2020.stderr).toBe(0);
    expect(json(y2020).meta).toMatchObject({ ons_table: 'ASHE Table 8 (place of residence)', note: expect.stringMatching(/no place-of-work data \(Table 7\) is loaded for 2020\./) });
    // Full-Time!N6 40943 (p70), O6 44146 (p75): 70 + (42000 - 40943) x 5 / 3203 = 71.650 -> 71.7
    expect(json(y2020).data.percentile).toBe(71.7);
  });

  it('a year neither table holds is told against Table 7, with its loaded years', async () => {
    const r = await rank('42000', '--year', '2019');
    expect(r.code).toBe(2); // the handler's error names the flag typed (issue 37)
    expect(json(r).error).toEqual(expect.objectContaining({
      code: 'invalid_parameter',
      message: "Invalid option --year: 2019 is not loaded for ASHE Table 7 (place of work) annual_gross. Loaded years: 2021.",
    }));
  });

  it('an occupation of a year before 2021 is SOC 2010, and meta.note says so', async () => {
    const old = json(await rank('30000', '--occupation', '1', '--year', '2020'));
    expect(old.data.reference).toMatchObject({ year: 2020, occupation: { code: '1' }, soc_version: 'SOC 2010' });
    expect(old.meta.note).toBe('2020 occupations are coded in SOC 2010, not SOC 2020: codes and names differ from 2021 on.');
    const now = json(await rank('30000', '--occupation', '1', '--year', '2021'));
    expect(now.data.reference).toMatchObject({ year: 2021, soc_version: 'SOC 2020' });
    expect(now.meta.note).toBeUndefined();
  });

  it('an ambiguous occupation name counts every match', async () => {
    // the generated Table 14: per major group 2 sub-majors, 4 minors and 12 units named 'Generated ...'
    const expected = occupationRows().filter((r) => r.code && r.name.toLowerCase().includes('generated')).length;
    expect(expected).toBe(9 * (2 + 4 + 12));
    const r = await rank('30000', '--occupation', 'generated');
    expect(r.code).toBe(2);
    expect(json(r).error.message).toMatch(new RegExp(`^'generated' matches ${expected} occupations: `));
  });
});
