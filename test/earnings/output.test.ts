/**
 * Earnings answers through the CLI's output (from test/cli/csv-columns and table-notes, whose shared form is
 * now in test/kit/ on the test-only example domain): a CSV over several pages keeps each record's markers
 * under its own header, and a note the earnings renderer prints is not repeated on stderr.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { csvAndRecords, readCsvStrict, text } from '../support/output-checks.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-earnings-output-', 'earnings');

describe('earnings output', () => {
  it('CSV: records whose markers differ keep their values under their own headers; markers is one JSON cell', async () => {
    const { csv, records } = await csvAndRecords('/v1/earnings/regions?basis=residence&population=all&per_page=25', mirror.env());
    const { header, rows } = await readCsvStrict(mirror.dir(), csv);
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

  it("table: a note the answer's own renderer prints is not repeated on stderr", async () => {
    // the fixture mirror holds Table 8 only: the industries answer is empty with a note saying why
    const table = await runCli(['earnings', 'industries', '--source', 'local', '--format', 'table'], { env: mirror.env(), columns: 200 });
    const json = await runCli(['earnings', 'industries', '--source', 'local', '--format', 'json'], { env: mirror.env() });
    expect([table.code, json.code]).toEqual([0, 0]);
    const meta = JSON.parse(json.stdout).meta as Record<string, unknown>;
    expect(meta.note).toMatch(/Table 4/);
    expect(table.stdout.split(meta.note as string).length - 1).toBe(1);
    expect(table.stderr).not.toContain(meta.note as string);
  });
});
