/**
 * CSV of a streamed answer (`--all`, several pages) keeps one set of columns from the first line to the
 * last, whatever nulls or keys a page's records carry: the columns come from the route's record schema
 * (src/invoke.ts, `csvColumns`). Before, each page built its columns from its own records and later
 * pages dropped their header, so a page whose records had other `markers` keys (earnings) or a null
 * `location` (crime) wrote its values under the wrong header.
 *
 * The CSV is read back by DuckDB's own CSV reader (strict: every line must have the header's field count)
 * and each cell compared with the same record from the NDJSON of the same call.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-csv-columns-');
const env = mirror.env;

/** The CSV read by DuckDB (every value as text, NULL for an empty cell), header and rows. */
async function readCsv(text: string): Promise<{ header: string[]; rows: Array<Record<string, string | null>> }> {
  const file = join(mirror.dir(), `read-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(`SELECT * FROM read_csv($1, header = true, all_varchar = true, strict_mode = true, auto_detect = true, delim = ',', quote = '"')`, [file]);
    return { header: r.columnNames(), rows: r.getRowObjects() as Array<Record<string, string | null>> };
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

async function both(path: string): Promise<{ csv: string; records: any[] }> {
  const args = ['api', 'GET', path, '--all', '--source', 'local'];
  const csv = await runCli([...args, '--format', 'csv'], { env: env() });
  const nd = await runCli([...args, '--format', 'ndjson'], { env: env() });
  expect([csv.code, nd.code, csv.stderr]).toEqual([0, 0, '']);
  return { csv: csv.stdout, records: nd.stdout.trim().split('\n').map((l) => JSON.parse(l)) };
}

/** A record's value as the CSV must hold it: null for null/absent, numbers compared as numbers. */
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

describe('CSV of an answer over several pages', () => {
  it('earnings: records whose markers differ keep their values under their own headers; markers is one JSON cell', async () => {
    const { csv, records } = await both('/v1/earnings/regions?basis=residence&population=all&per_page=25');
    const { header, rows } = await readCsv(csv);
    expect(records.length).toBeGreaterThan(100); // several pages
    // the real 2020 table: some records carry markers (x), most none
    const marked = records.filter((r) => Object.keys(r.markers).length > 0);
    expect(marked.length).toBeGreaterThan(10);
    expect(marked.length).toBeLessThan(records.length);
    expect(header.filter((h) => h.startsWith('markers'))).toEqual(['markers']);
    expect(csv.split('\r\n').filter((l) => l.startsWith('year,')).length).toBe(1); // one header line
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i];
      expect([i, row['geography.code'], row['geography.name']]).toEqual([i, r.geography.code, r.geography.name]);
      for (const p of ['p10', 'p20', 'p25', 'p30', 'p40', 'p60', 'p70', 'p75', 'p80', 'p90']) {
        expect([r.geography.code, p, row[`percentiles.${p}`]]).toEqual([r.geography.code, p, text(r.percentiles[p])]);
      }
      expect([r.geography.code, row.median, row.jobs_thousands]).toEqual([r.geography.code, text(r.median), text(r.jobs_thousands)]);
      expect(JSON.parse(row.markers!)).toEqual(r.markers);
      expect(row.suppressed).toBe(r.suppressed.length ? r.suppressed.join(', ') : null);
    });
  });

  it('crime: records with and without a location (null objects) keep the same columns on every page', async () => {
    const { csv, records } = await both('/v1/crime/street?force=city-of-london&per_page=20');
    const { header, rows } = await readCsv(csv);
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

  it('one answer object (food-hygiene stats): the same columns whatever ratings or scores an area has', async () => {
    const one = async (extra: string[]) => {
      const args = ['food-hygiene', 'stats', ...extra, '--source', 'local'];
      const csv = await runCli([...args, '--format', 'csv'], { env: env() });
      const json = await runCli([...args, '--format', 'json'], { env: env() });
      expect([csv.code, json.code]).toEqual([0, 0]);
      return { ...(await readCsv(csv.stdout)), data: JSON.parse(json.stdout).data };
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

  it('one answer object of alternative shapes (tax ni employed / self-employed): one header for both', async () => {
    const one = async (args: string[]) => {
      const csv = await runCli(['tax', 'ni', ...args, '--year', '2026-27', '--format', 'csv'], { env: env() });
      const json = await runCli(['tax', 'ni', ...args, '--year', '2026-27', '--format', 'json'], { env: env() });
      expect([csv.code, json.code]).toEqual([0, 0]);
      return { ...(await readCsv(csv.stdout)), data: JSON.parse(json.stdout).data };
    };
    const employed = await one(['50000']);
    const self = await one(['40000', '--self-employed']);
    expect(self.header).toEqual(employed.header);
    expect(employed.rows[0]!['employee.contributions']).toBe(text(employed.data.employee.contributions));
    expect(employed.rows[0]!.annual_profit).toBeNull();
    expect(self.rows[0]!.annual_profit).toBe(text(self.data.annual_profit));
    expect(self.rows[0]!['employee.contributions']).toBeNull();
  });
});
