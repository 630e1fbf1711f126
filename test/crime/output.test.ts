/**
 * Crime answers through the CLI's output (from test/cli/csv-columns and near-label, whose shared form is now
 * in test/kit/ on the test-only example domain): a CSV over several pages keeps the same columns for records
 * with and without a location; --near out of range is named --near; a blank --lsoa is refused.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { csvAndRecords, readCsvStrict, text } from '../support/output-checks.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-crime-output-', 'crime');

describe('crime output', () => {
  it('CSV: records with and without a location (null objects) keep the same columns on every page', async () => {
    const { csv, records } = await csvAndRecords('/v1/crime/street?force=city-of-london&per_page=20', mirror.env());
    const { header, rows } = await readCsvStrict(mirror.dir(), csv);
    expect(records.some((r) => r.location === null)).toBe(true);
    expect(records.some((r) => r.location !== null)).toBe(true);
    expect(header).toContain('location.latitude');
    expect(header).not.toContain('location');
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i];
      expect([row.crime_id, row.month, row.category]).toEqual([text(r.crime_id), r.month, r.category]);
      expect([row['location.latitude'], row['location.longitude'], row['lsoa.code'], row.last_outcome]).toEqual([
        text(r.location?.latitude), text(r.location?.longitude), text(r.lsoa?.code), text(r.last_outcome),
      ]);
    });
  });

  it('street --near 95,-1: invalid_parameter naming --near (exit 2), before data access', async () => {
    const r = await runCli(['crime', 'street', '--near', '95,-1', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: 'Invalid option --near: must be at most 90.' }));
  });

  it('street with no area: one usage error naming the three options to choose from (exit 2)', async () => {
    const r = await runCli(['crime', 'street', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect([r.code, JSON.parse(r.stdout).error.message]).toEqual([2, 'One of --near, --lsoa, --force is required.']);
  });

  it('stats --lsoa " ": invalid_parameter "empty" (exit 2), before data access', async () => {
    const r = await runCli(['crime', 'stats', '--lsoa', ' ', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: 'Invalid option --lsoa: empty; give a value.' }));
  });
});
