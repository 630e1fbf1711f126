/**
 * CSV of a streamed answer (`--all`, several pages) keeps one set of columns from the first line to the
 * last, whatever nulls or keys a page's records carry: the columns come from the route's record schema
 * (src/invoke.ts, `csvColumns`). Before, each page built its columns from its own records and later
 * pages dropped their header, so a page whose records had other `markers` keys or a null `location` wrote
 * its values under the wrong header. Run on the test-only example domain (test/support/example-domain/:
 * 60 items, `markers` on every fifth, `location` null on every fourth); each domain's own cases are in its
 * tests (test/<domain>/output.test.ts).
 *
 * The CSV is read back by DuckDB's own CSV reader (strict: every line must have the header's field count)
 * and each cell compared with the same record from the NDJSON of the same call.
 */
import '../support/example-domain/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { csvAndRecords, readCsvStrict, text } from '../support/output-checks.js';

const env = isolatedEnv({ NO_COLOR: '1' });
const dir = mkdtempSync(join(tmpdir(), 'pd-csv-columns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CSV of an answer over several pages', () => {
  it('records whose markers differ keep their values under their own headers; markers is one JSON cell', async () => {
    const { csv, records } = await csvAndRecords('/v1/example/items?per_page=25', env);
    const { header, rows } = await readCsvStrict(dir, csv);
    expect(records.length).toBe(60); // 3 pages of 25
    // items 5, 10, ..., 60 carry markers ({count} or, every tenth, {count, title}); the others none
    expect(records.filter((r) => Object.keys(r.markers).length > 0).map((r) => r.id)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]);
    expect(header.filter((h) => h.startsWith('markers'))).toEqual(['markers']);
    expect(csv.split('\r\n').filter((l) => l.startsWith('id,')).length).toBe(1); // one header line
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i];
      expect([i, row.id, row.title, row.count]).toEqual([i, text(r.id), r.title, text(r.count)]);
      expect(JSON.parse(row.markers!)).toEqual(r.markers);
    });
  });

  it('records with and without a location (null objects) keep the same columns on every page', async () => {
    const { csv, records } = await csvAndRecords('/v1/example/items?per_page=20', env);
    const { header, rows } = await readCsvStrict(dir, csv);
    expect(records.filter((r) => r.location === null).length).toBe(15); // every fourth of 60
    expect(header).toContain('location.latitude');
    expect(header).not.toContain('location');
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i];
      expect([row['location.latitude'], row['location.longitude'], row.colour]).toEqual([text(r.location?.latitude), text(r.location?.longitude), r.colour]);
    });
  });

  it('one answer object: the same columns whatever keys its map has or whether its nested object is null', async () => {
    const one = async (extra: string[]) => {
      const args = ['example', 'summary', ...extra, '--source', 'local'];
      const csv = await runCli([...args, '--format', 'csv'], { env });
      const json = await runCli([...args, '--format', 'json'], { env });
      expect([csv.code, json.code]).toEqual([0, 0]);
      return { ...(await readCsvStrict(dir, csv.stdout)), data: JSON.parse(json.stdout).data };
    };
    const all = await one([]);
    const red = await one(['--colour', 'red']);
    // 60 items, colour i % 3: 20 of each
    expect(all.data.by_colour).toEqual({ red: 20, green: 20, blue: 20 });
    expect(red.data.by_colour).toEqual({ red: 20 });
    expect(red.header).toEqual(all.header);
    for (const x of [all, red]) {
      expect(x.rows.length).toBe(1);
      const row = x.rows[0]!;
      expect([row.item_count, JSON.parse(row.by_colour!)]).toEqual([text(x.data.item_count), x.data.by_colour]);
      expect(row['average.count']).toBe(text(x.data.average?.count));
    }
  });

  it('one answer object of alternative shapes (basis counts / totals): one header for both', async () => {
    const one = async (basis: string) => {
      const args = ['example', 'summary', '--basis', basis, '--source', 'local'];
      const csv = await runCli([...args, '--format', 'csv'], { env });
      const json = await runCli([...args, '--format', 'json'], { env });
      expect([csv.code, json.code]).toEqual([0, 0]);
      return { ...(await readCsvStrict(dir, csv.stdout)), data: JSON.parse(json.stdout).data };
    };
    const counts = await one('counts');
    const totals = await one('totals');
    expect(totals.header).toEqual(counts.header);
    // the sum of i * 7 for i = 1..60
    expect(totals.data.total_count).toBe(7 * (60 * 61) / 2);
    expect(totals.rows[0]!.total_count).toBe(String(12810));
    expect(counts.rows[0]!.total_count).toBeNull();
    expect(totals.rows[0]!['average.count']).toBeNull();
    expect(counts.rows[0]!['average.count']).toBe(text(counts.data.average.count));
  });
});
