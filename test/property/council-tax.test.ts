/**
 * Council tax: reading the ODS through SheetJS and Table 9 extraction on a generated, format-true Tables_1-9
 * spreadsheet, the sync module's load, and /v1/property/council-tax. Expected values come from the cell CSV
 * with plain JS.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { conforming } from '../support/schema-check.js';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { strToU8, zipSync } from 'fflate';
import councilTaxModule, { financialYearIn, parseTable9, readOdsSheets, readTable9, statisticsPageUrl, tablesLinks } from '../../src/domains/property/sync/council-tax.js';
import { buildDataset, cleanup, ctxFor, sqlOn, tempDir } from '../support/mirror-helper.js';
import { buildOds, cellRows, contentXml } from './ods-fixture.js';

const CELLS = cellRows();
const BANDS = 'ABCDEFGH'.split('');
type Rec = { authority_code: string; authority_name: string; financial_year: string; band: string; amount: number };
const ALL: Rec[] = CELLS.flatMap((c) =>
  BANDS.map((band, k) => ({ authority_code: c.ons_code, authority_name: c.authority, financial_year: '2026-27', band, amount: Number(c.bands[k]) })),
).sort((a, b) => (a.authority_name.toLowerCase() < b.authority_name.toLowerCase() ? -1 : a.authority_name.toLowerCase() > b.authority_name.toLowerCase() ? 1 : a.band < b.band ? -1 : 1));

const dirs: string[] = [];
let dir: string;
beforeAll(async () => {
  dir = tempDir();
  dirs.push(dir);
  const file = join(dir, 'Tables_1-9_2026-27.ods');
  writeFileSync(file, buildOds());
  await buildDataset('council-tax', file, dir);
});
afterAll(() => cleanup(dirs));

async function get(query: Record<string, string> = {}, mirror = dir) {
  return conforming('GET', '/v1/property/council-tax', await getRoute('/v1/property/council-tax', query, ctxFor(mirror)));
}
function ok(r: Awaited<ReturnType<typeof get>>) {
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<Rec[]>;
}

describe('ODS reading (SheetJS)', () => {
  it('finds sheets by name and expands column and row repeats', () => {
    const tables = readOdsSheets(buildOds(), () => true);
    expect(tables.map((t) => t.name)).toEqual(['Table_8', 'Table_9']);
    const t9 = tables[1]!;
    // rows are 0-based: Manchester is spreadsheet row 39
    for (const c of CELLS) {
      const row = t9.rows[c.table9_row - 1]!;
      expect(row[1]?.text).toBe(c.ons_code);
      expect(row[2]?.text).toBe(c.authority);
      expect(row.slice(6, 14).map((x) => Number(x!.value!.toFixed(2)))).toEqual(c.bands.map(Number));
      // the text is the cell's display (text:p), thousands separators and all
      expect(row[9]!.text).toBe(Number(c.bands[3]).toLocaleString('en-GB', { minimumFractionDigits: 2 }));
    }
    // the merged title is A1 (its covered cells are empty), <text:s/> and spans expand in text
    expect(t9.rows[0]![0]!.text).toContain('2026 to 2027');
    expect(t9.rows[0]!.slice(1).every((c) => c === undefined)).toBe(true);
    expect(t9.rows[1]![0]!.text).toBe('This worksheet contains one table. Figures include parish precepts.');
    // trailing empty runs (16,384 columns, ~1M rows) are not materialised
    expect(t9.rows.length).toBe(80);
    expect(Math.max(...t9.rows.map((r) => r.length))).toBeLessThanOrEqual(14);
    // only the sheets asked for are returned
    expect(readOdsSheets(buildOds(), (n) => n === 'Table_9').map((t) => t.name)).toEqual(['Table_9']);
  });

  it('rejects a file that is not an ODS, whatever SheetJS could make of it', () => {
    expect(() => readOdsSheets(new Uint8Array([1, 2, 3, 4]), () => true)).toThrow(/OpenDocument/);
    expect(() => readOdsSheets(strToU8('ons_code,band_a\nE08000003,1541.36\n'), () => true)).toThrow(/OpenDocument/); // CSV text
    expect(() => readOdsSheets(zipSync({ 'a.txt': strToU8('x') }), () => true)).toThrow(/OpenDocument/);
    // an ODS package without styles.xml (no office suite writes one): SheetJS cannot read it, and says so
    expect(() => readTable9(buildOds(contentXml(), { styles: false }), 'x.ods')).toThrow(/OpenDocument spreadsheet \(.*styles\.xml/);
  });

  it('reads the financial year in its several spellings', () => {
    expect(financialYearIn('Table 9: ... 2026 to 2027 [note p]')).toBe('2026-27');
    expect(financialYearIn('Tables_1-9_2026-27.ods')).toBe('2026-27');
    expect(financialYearIn('1999/00')).toBe('1999-00');
    expect(financialYearIn('2026 to 2028')).toBe(null);
    expect(financialYearIn('2025-2026')).toBe('2025-26');
    expect(financialYearIn('no year')).toBe(null);
  });
});

describe('Table 9 extraction', () => {
  it('gives 8 bands for each billing authority, amounts to the penny, aggregates skipped', () => {
    const t9 = readTable9(buildOds(), 'Tables_1-9_2026-27.ods');
    expect(t9.financialYear).toBe('2026-27');
    expect(t9.authorities).toBe(CELLS.length);
    expect(t9.rejected).toBe(0);
    const got = [...t9.rows].sort((a, b) => (a.authority_name < b.authority_name ? -1 : a.authority_name > b.authority_name ? 1 : a.band < b.band ? -1 : 1));
    expect(got).toEqual(ALL);
    // office:value 4455.9799999999996 is the displayed 4,455.98
    expect(got.find((r) => r.authority_code === 'E08000012' && r.band === 'G')!.amount).toBe(4455.98);
  });

  it('locates the header by content, whatever row it is on and whatever the sheet is called', () => {
    const xml = contentXml({ sheetName: 'Table 9' }).replace('<table:table-row table:style-name="ro1"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>', '');
    const t = readOdsSheets(buildOds(xml), (n) => n === 'Table 9')[0]!;
    const r = parseTable9(t);
    expect(r.rows).toHaveLength(CELLS.length * 8);
  });

  it('falls back to the file name for the year and fails clearly without one', () => {
    const xml = contentXml({ title: 'Table 9: Area council tax by band' });
    const t = readOdsSheets(buildOds(xml), (n) => n === 'Table_9')[0]!;
    expect(parseTable9(t, 'Tables_1-9_2026-27.ods').financialYear).toBe('2026-27');
    expect(() => parseTable9(t, 'tables.ods')).toThrow(/financial year/);
  });

  it('counts band cells without an amount as rejected', () => {
    const rows = CELLS.map((c, i) => (i === 0 ? { ...c, bands: c.bands.map((v, k) => (k === 7 ? '' : v)) } : c));
    const xml = contentXml({ rows }).replace(/office:value="[^"]*"( calcext:value-type="float"><text:p>)(<\/text:p>)/, '$1$2');
    const t = readOdsSheets(buildOds(xml), (n) => n === 'Table_9')[0]!;
    const r = parseTable9(t);
    expect(r.rejected).toBe(1);
    expect(r.rows).toHaveLength(CELLS.length * 8 - 1);
  });

  it('fails without a Table_9 sheet', () => {
    expect(() => readTable9(buildOds(contentXml({ sheetName: 'Table_10' })), 'x.ods')).toThrow(/Table_9/);
  });
});

describe('discovery helpers', () => {
  it('builds the statistics page URL and picks the Tables 1-9 ODS link', () => {
    const page = statisticsPageUrl('https://www.gov.uk', 2026);
    expect(page).toBe('https://www.gov.uk/government/statistics/council-tax-levels-set-by-local-authorities-in-england-2026-to-2027');
    const html = `<a href="https://assets.publishing.service.gov.uk/media/69de1fa63e81003ae0422508/Tables_1-9_2026-27.ods">Tables 1 to 9</a>
      <a href="/media/x/Band_D_2026-27.ods">Band D</a><a href="/media/y/Live_tables.xlsx">x</a>`;
    expect(tablesLinks(html, page)).toEqual([
      { url: 'https://assets.publishing.service.gov.uk/media/69de1fa63e81003ae0422508/Tables_1-9_2026-27.ods', year: '2026-27' },
    ]);
  });

  it('discover tries the financial years newest first', async () => {
    const tried: string[] = [];
    const files = await councilTaxModule.discover({
      baseUrl: 'http://127.0.0.1:9',
      options: {},
      now: () => new Date('2026-11-21T00:00:00Z'),
      fetchText: async (url) => {
        tried.push(url);
        if (url.endsWith('2026-to-2027')) return '<a href="/media/abc/Tables_1-9_2026-27.ods">t</a>';
        throw new Error('404');
      },
    });
    expect(tried.map((u) => u.slice(-12))).toEqual(['2027-to-2028', '2026-to-2027']);
    expect(files).toEqual([{ url: 'http://127.0.0.1:9/media/abc/Tables_1-9_2026-27.ods', name: 'Tables_1-9_2026-27.ods', kind: 'full' }]);
  });
});

describe('sync/council-tax load', () => {
  it('stores one row per authority and band with as_of the year start', async () => {
    const path = join(dir, 'council_tax.duckdb');
    const t = await sqlOn(path, 'SELECT count(*)::INTEGER AS n, sum(amount)::DOUBLE AS s FROM council_tax');
    expect(t[0]!.n).toBe(ALL.length);
    expect(t[0]!.s).toBeCloseTo(ALL.reduce((s, r) => s + r.amount, 0), 2);
    const log = await sqlOn(path, 'SELECT as_of::VARCHAR AS as_of FROM sync_log');
    expect(log[0]!.as_of).toBe('2026-04-01');
  });
});

describe('GET /v1/property/council-tax', () => {
  it('lists all records with pagination', async () => {
    const env = ok(await get());
    expect(env.data).toEqual(ALL.slice(0, 25));
    expect(env.pagination).toEqual({ total: 40, page: 1, per_page: 25, total_pages: 2 });
    const p2 = ok(await get({ page: '2' }));
    expect(p2.data).toEqual(ALL.slice(25));
    const small = ok(await get({ per_page: '3', page: '4' }));
    expect(small.data).toEqual(ALL.slice(9, 12));
    expect(env.meta).toMatchObject({ api_version: 'v1', licence: 'Open Government Licence v3.0', source_url: expect.stringContaining('council-tax'), as_of: '2026-04-01' });
  });

  it('authority_name is a case-insensitive substring; band is case-insensitive', async () => {
    const env = ok(await get({ authority_name: 'leeds', band: 'd' }));
    expect(env.data).toEqual([{ authority_code: 'E08000035', authority_name: 'Leeds', financial_year: '2026-27', band: 'D', amount: 2283.73 }]);
    expect(ok(await get({ authority_name: 'ERPOO' })).data).toEqual(ALL.filter((r) => r.authority_name === 'Liverpool'));
    // literal: % and _ are not wildcards
    expect(ok(await get({ authority_name: '%' })).data).toEqual([]);
    expect(ok(await get({ authority_name: 'L_eds' })).data).toEqual([]);
  });

  it('authority_code is exact; financial_year filters', async () => {
    expect(ok(await get({ authority_code: 'E06000023' })).data).toEqual(ALL.filter((r) => r.authority_code === 'E06000023'));
    expect(ok(await get({ authority_code: 'e06000023' })).data).toEqual([]);
    expect(ok(await get({ financial_year: '2026-27', band: 'H' })).data).toEqual(ALL.filter((r) => r.band === 'H'));
    expect(ok(await get({ financial_year: '2025-26' })).data).toEqual([]);
  });

  it('answers unknown authorities with an empty 200', async () => {
    const env = ok(await get({ authority_name: 'Atlantis' }));
    expect(env.data).toEqual([]);
    expect(env.pagination).toEqual({ total: 0, page: 1, per_page: 25, total_pages: 0 });
  });

  it.each([[{ band: 'I' }], [{ band: 'AB' }], [{ band: 'z' }]])('answers an unknown band %o with an empty 200 (spec doc 2: "unknown ... bands return empty 200")', async (q) => {
    const r = await get(q as Record<string, string>);
    expect(r.status).toBe(200);
    expect((r.envelope as any).data).toEqual([]);
    expect((r.envelope as any).pagination.total).toBe(0);
  });

  it.each([[{ per_page: '0' }], [{ page: 'x' }]])('rejects %o with 400 invalid_parameter', async (q) => {
    const r = await get(q as Record<string, string>);
    expect(r.status).toBe(400);
    expect((r.envelope as any).error.code).toBe('invalid_parameter');
  });

  it('answers 503 dataset_not_synced without a mirror file', async () => {
    const empty = tempDir();
    dirs.push(empty);
    const r = await get({}, empty);
    expect(r.status).toBe(503);
    expect((r.envelope as any).error.message).toContain('publicdata sync council-tax');
  });
});
