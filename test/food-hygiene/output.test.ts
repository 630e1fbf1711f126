/**
 * Food hygiene answers through the CLI's output (from test/cli/csv-columns, table-notes and near-label,
 * whose shared form is now in test/kit/ on the test-only example domain).
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { readCsvStrict, text } from '../support/output-checks.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-fh-output-', 'food-hygiene');

async function tableAndMeta(args: string[]) {
  const table = await runCli([...args, '--source', 'local', '--format', 'table'], { env: mirror.env(), columns: 200 });
  const json = await runCli([...args, '--source', 'local', '--format', 'json'], { env: mirror.env() });
  expect([table.code, json.code]).toEqual([0, 0]);
  return { table, meta: JSON.parse(json.stdout).meta as Record<string, unknown> };
}

describe('food hygiene output', () => {
  it('CSV of one answer object (stats): the same columns whatever ratings or scores an area has', async () => {
    const one = async (extra: string[]) => {
      const args = ['food-hygiene', 'stats', ...extra, '--source', 'local'];
      const csv = await runCli([...args, '--format', 'csv'], { env: mirror.env() });
      const json = await runCli([...args, '--format', 'json'], { env: mirror.env() });
      expect([csv.code, json.code]).toEqual([0, 0]);
      return { ...(await readCsvStrict(mirror.dir(), csv.stdout)), data: JSON.parse(json.stdout).data };
    };
    const all = await one([]);
    const scotland = await one(['--authority', '760']); // a Scottish authority (FHIS): other rating keys, no scores
    expect(Object.keys(scotland.data.by_rating)).not.toEqual(Object.keys(all.data.by_rating));
    expect(scotland.header).toEqual(all.header);
    for (const x of [all, scotland]) {
      expect(x.rows.length).toBe(1);
      const row = x.rows[0]!;
      expect([row.establishment_count, JSON.parse(row.by_rating!)]).toEqual([text(x.data.establishment_count), x.data.by_rating]);
      expect(row['average_scores.hygiene']).toBe(text(x.data.average_scores?.hygiene));
    }
  });

  it('table: the caveat every answer carries is printed once, on stderr', async () => {
    const { table, meta } = await tableAndMeta(['food-hygiene', 'search', '--per-page', '3']);
    expect(typeof meta.caveat).toBe('string');
    expect(table.stderr.split(`caveat ${meta.caveat as string}\n`).length - 1).toBe(1);
    expect(table.stdout).not.toContain(meta.caveat as string);
  });

  it("table: an empty answer's footer says 0 records, not page 1 of 0", async () => {
    const { table } = await tableAndMeta(['food-hygiene', 'search', 'no such business anywhere']);
    expect(table.stdout).toMatch(/(^|\n)0 records · source: local/);
    expect(table.stdout).not.toMatch(/page 1 of 0/);
  });

  it('search --near 95,-1: invalid_parameter naming --near (exit 2); --lat given as itself keeps its own name', async () => {
    const r = await runCli(['food-hygiene', 'search', '--near', '95,-1', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: 'Invalid option --near: must be at most 90.' }));
    const lat = await runCli(['food-hygiene', 'search', '--lat', '95', '--lng', '-1', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(JSON.parse(lat.stdout).error.message).toBe('Invalid option --lat: must be at most 90.');
  });

  it.each([
    [['food-hygiene', 'search', '   '], 'argument <name>'],
    [['food-hygiene', 'search', '--authority', '  '], 'option --authority'],
  ])('%j: invalid_parameter "empty" (exit 2), before data access', async (args, label) => {
    const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: `Invalid ${label}: empty; give a value.` }));
  });
});
