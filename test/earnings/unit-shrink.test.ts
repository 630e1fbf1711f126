/**
 * Issue 37: an earnings edition (ONS table, measure and year) is a unit: a file that would leave it with far
 * fewer rows than the mirror held fails the sync, naming the file and the edition, and the previous rows keep
 * answering, unless --allow-shrink. The short file is a CUT of the REAL Table 8.7a 2020: every sheet keeps its
 * title, header and footnote rows and only its first KEEP coded rows (the UK, its countries and regions), the
 * values as ONS published them, written back as .xls (BIFF8) by SheetJS under another name (CUT_NAME: the
 * same edition by its title cell, but not a reload of the same file, which the whole-table check would catch
 * by its name alone). Every expected count and value is read here from the fixture with SheetJS, not by the sync.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { shrinkScratch } from '../support/unit-shrink.js';
import { REAL, realPoints } from './helpers.js';

const { root, dirFor } = shrinkScratch('pd-earnings-shrink-');
const KEEP = 20;
const LEEDS = 'E08000035';
const CUT_NAME = 'Home Geography Table 8.7a   Annual pay - Gross 2020 (corrected).xls';

type Aoa = unknown[][];
const sheetRows = (ws: XLSX.WorkSheet): Aoa => XLSX.utils.sheet_to_json(ws, { header: 1, raw: true, blankrows: true, defval: null });
/** Index of the header row (its cells include 'Description' and 'Code'); data rows follow it. */
const headerAt = (rows: Aoa) => rows.findIndex((r) => r.some((c) => String(c ?? '').trim() === 'Description') && r.some((c) => String(c ?? '').trim() === 'Code'));
/** Is the row a coded data row (a code in column B and a description in column A)? */
const coded = (row: unknown[] | undefined) => !!row && String(row[1] ?? '').trim() !== '' && String(row[0] ?? '').trim() !== '';

const real = XLSX.read(readFileSync(REAL), { type: 'buffer' });
const dataSheets = real.SheetNames.filter((n) => n !== 'Notes');
/** The coded rows of the real edition: every data sheet's. */
const allRows = dataSheets.reduce((n, s) => {
  const rows = sheetRows(real.Sheets[s]!);
  return n + rows.slice(headerAt(rows) + 1).filter(coded).length;
}, 0);

/** The real workbook with each data sheet's coded rows after the first KEEP taken out. */
function cut(): Buffer {
  const wb = XLSX.utils.book_new();
  for (const name of real.SheetNames) {
    const ws = real.Sheets[name]!;
    if (name === 'Notes') {
      XLSX.utils.book_append_sheet(wb, ws, name);
      continue;
    }
    const rows = sheetRows(ws);
    const h = headerAt(rows);
    let kept = 0;
    const out = rows.filter((row, i) => i <= h || !coded(row) || ++kept <= KEEP);
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(out), name);
  }
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Uint8Array);
}

describe('earnings: an edition a file replaces may not lose rows beyond the threshold', () => {
  it('the cut Table 8.7a 2020 is refused naming the file and the edition; the previous rows answer; --allow-shrink takes it', async () => {
    const cutRows = KEEP * dataSheets.length;
    expect(dataSheets.length).toBe(9);
    expect(allRows).toBe(411 * 9); // rows 6-416 of each sheet
    const leedsMedian = realPoints('All', LEEDS).find((p) => p.label === 'median')!.cell;
    expect(typeof leedsMedian).toBe('number');
    const ukMedian = realPoints('All', 'K02000001').find((p) => p.label === 'median')!.cell;

    const env = { PUBLICDATA_DATA_DIR: join(root, 'data'), PUBLICDATA_CACHE_DIR: join(root, 'cache'), PUBLICDATA_CONFIG_DIR: join(root, 'config') };
    const first = await runCli(['sync', 'earnings', '--from', REAL, '--format', 'json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const leeds = async () => json(await runCli(['earnings', 'regions', LEEDS, '--basis', 'residence', '--population', 'all', '--format', 'json'], { env }));
    expect((await leeds()).data.map((r: any) => r.median)).toEqual([leedsMedian]);

    const short = join(dirFor('cut'), CUT_NAME);
    writeFileSync(short, cut());
    const refused = await runCli(['sync', 'earnings', '--from', short], { env });
    expect(refused.code, refused.stdout).not.toBe(0);
    const pct = ((1 - cutRows / allRows) * 100).toFixed(1);
    expect(refused.stderr).toContain(`${CUT_NAME}: edition Table 8 annual_gross 2020 would go from ${allRows} rows to ${cutRows} (${pct}% fewer)`);
    expect(refused.stderr).toContain('--allow-shrink');
    expect((await leeds()).data.map((r: any) => r.median)).toEqual([leedsMedian]);

    // --allow-shrink: ONS really did publish the edition shorter
    const taken = await runCli(['sync', 'earnings', '--from', short, '--allow-shrink'], { env });
    expect(taken.code, taken.stderr).toBe(0);
    expect((await leeds()).data).toEqual([]);
    const uk = json(await runCli(['earnings', 'regions', 'K02000001', '--basis', 'residence', '--population', 'all', '--format', 'json'], { env }));
    expect(uk.data.map((r: any) => r.median)).toEqual([ukMedian]);
  }, 120_000);
});
