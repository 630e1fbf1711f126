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
    // one column per rating value, as the table shows them (issue 37), empty where the scheme has no such value
    const RATINGS = ['0', '1', '2', '3', '4', '5', 'exempt', 'awaiting_inspection', 'awaiting_publication', 'pass', 'pass_and_eat_safe', 'improvement_required', 'none'];
    expect(all.header.filter((h) => h.startsWith('by_rating'))).toEqual(RATINGS.map((r) => `by_rating.${r}`));
    expect(scotland.rows[0]!['by_rating.5']).toBeNull(); // an empty cell read back
    expect(scotland.rows[0]!['by_rating.pass']).toBe(text(scotland.data.by_rating.pass));
    for (const x of [all, scotland]) {
      expect(x.rows.length).toBe(1);
      const row = x.rows[0]!;
      expect(row.establishment_count).toBe(text(x.data.establishment_count));
      for (const r of RATINGS) expect(row[`by_rating.${r}`], r).toBe(r in x.data.by_rating ? text(x.data.by_rating[r]) : null);
      expect(row['average_scores.hygiene']).toBe(text(x.data.average_scores?.hygiene));
    }
  });

  it('table: the caveat every answer carries is printed once, on stderr', async () => {
    const { table, meta } = await tableAndMeta(['food-hygiene', 'search', '--per-page', '3']);
    expect(typeof meta.caveat).toBe('string');
    // printed wrapped at word boundaries (two-space continuation lines): read back unwrapped
    expect(table.stderr.replace(/\n  (?=\S)/g, ' ').split(`caveat ${meta.caveat as string}\n`).length - 1).toBe(1);
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

  it('--sort distance without a point names --near; a value that is also a parameter name stays the value typed', async () => {
    const msg = async (args: string[]) => JSON.parse((await runCli(['food-hygiene', 'search', ...args, '--source', 'local', '--format', 'json'], { env: isolatedEnv() })).stdout).error.message;
    expect(await msg(['--sort', 'distance'])).toBe("Invalid option --sort: 'distance' needs --near.");
    // `postcode` is a parameter of this route too: the value the user typed is not taken for it
    expect(await msg(['--sort', 'postcode'])).toBe("Invalid option --sort: 'postcode'. Allowed: name, distance, rating, rating_date.");
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
