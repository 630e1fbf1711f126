/**
 * `--all --format ndjson|csv` on the local backend with DuckDB rendering price-paid's records (issue 28):
 * the bytes equal the page-by-page output. Expected text is built here from the route's pages (page 1, 2,
 * … until a short page), with a CSV writer of the test's own (RFC 4180 quoting), not the CLI's renderers.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RecordSink } from '../../src/contract/types.js';
import { FIXED_NOW, isolatedEnv, runCli } from '../support/cli.js';
import { getRoute } from '../support/route.js';
import { buildDataset, cleanup, ctxFor, fixturesOf } from '../support/mirror-helper.js';
import { ds } from '../support/datasets.js';
import { openDataset, pagedQuery, Where } from '../../src/mirror/db.js';
import { ITEM_QUERY } from '../../src/domains/property/price-paid.js';

const FIXTURES = fixturesOf('property');

const env = isolatedEnv();
const mirror = join(env.PUBLICDATA_DATA_DIR!, 'mirror');
const PPD = join(FIXTURES, 'land-registry-ppd', 'pp-complete.csv');
beforeAll(async () => {
  mkdirSync(mirror, { recursive: true });
  await buildDataset('price-paid', PPD, mirror);
});
afterAll(() => cleanup([env.PUBLICDATA_DATA_DIR!]));
afterEach(() => vi.restoreAllMocks());

const SEARCH = '/v1/property/price-paid/search';
const ADDRESS = '/v1/property/price-paid/address';

/** Every record of a query, page by page through the route (25 a page). */
async function pages(path: string, query: Record<string, string>): Promise<any[]> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const e = (await getRoute(path, { ...query, page: String(page) }, ctxFor(mirror, FIXED_NOW.toISOString()))).envelope as any;
    records.push(...e.data.transactions);
    if (e.data.transactions.length < 25) return records;
  }
}

const ndjsonOf = (recs: any[]) => recs.map((r) => `${JSON.stringify(r)}\n`).join('');
/** RFC 4180: a cell holding `"`, `,`, CR or LF is quoted, quotes doubled; null is empty; lines end in CRLF. */
function csvOf(recs: any[]): string {
  if (recs.length === 0) return '';
  const keys = Object.keys(recs[0]);
  const cell = (v: unknown) => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.split('"').join('""')}"` : s;
  };
  return [keys, ...recs.map((r) => keys.map((k) => r[k]))].map((row) => `${row.map(cell).join(',')}\r\n`).join('');
}

/** SQL text of the queries that read price_paid (the one streamed query, or count and page queries). */
function spyQueries(): string[] {
  const seen: string[] = [];
  const proto = DuckDBConnection.prototype as any;
  for (const m of ['stream', 'runAndReadAll', 'run', 'streamAndReadAll']) {
    const orig = proto[m];
    vi.spyOn(proto, m).mockImplementation(function (this: unknown, sql: unknown, ...rest: unknown[]) {
      if (typeof sql === 'string' && /FROM price_paid\b/.test(sql)) seen.push(sql);
      return orig.call(this, sql, ...rest);
    });
  }
  return seen;
}
const rendered = (sql: string) => /concat_ws/.test(sql) && /AS line/.test(sql);

describe('price-paid --all rendered by DuckDB', () => {
  it('search --town LONDON: ndjson and csv equal the pages, from one rendered query', async () => {
    const expected = await pages(SEARCH, { town: 'LONDON' });
    expect(expected.length).toBe(26); // 26 London rows in the fixture file (grep -c '"LONDON"')
    for (const [format, want] of [['ndjson', ndjsonOf(expected)], ['csv', csvOf(expected)]] as const) {
      vi.restoreAllMocks();
      const seen = spyQueries();
      const r = await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', format, '--source', 'local'], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(want);
      expect(seen).toHaveLength(1);
      expect(rendered(seen[0]!), format).toBe(true);
    }
    // a header once, then one line per record
    expect(csvOf(expected).split('\r\n')[0]).toBe('id,price,date,postcode,property_type,new_build,tenure,address');
  });

  it('every row of the fixture: DuckDB’s chunks equal the JavaScript records, and the address route renders too', async () => {
    const conn = await openDataset(ds('price-paid'), mirror);
    const run = async (sink: RecordSink) => {
      const { from, columns, orderBy, map, record } = ITEM_QUERY;
      await pagedQuery(conn, { from, columns, where: new Where(), orderBy, page: 1, perPage: 25, stream: { sink, map, record } });
    };
    const records: any[] = [];
    await run({ start: () => undefined, write: async (recs) => void records.push(...recs) });
    expect(records).toHaveLength(300); // the fixture file's 300 lines
    for (const format of ['ndjson', 'csv'] as const) {
      let text = '';
      let columns: readonly string[] = [];
      let n = 0;
      const sink: RecordSink = {
        start: () => undefined,
        write: async () => {
          throw new Error('the JavaScript path ran');
        },
        rendered: { format, write: async (t, rows, cols) => void ((text += t), (n += rows), (columns = cols)) },
      };
      await run(sink);
      expect(n).toBe(300);
      if (format === 'ndjson') expect(text).toBe(ndjsonOf(records));
      else {
        expect(`${columns.join(',')}\r\n${text}`).toBe(csvOf(records));
        expect(text.match(/^[^\r]*,"[^\r]*\r$/gm)?.length).toBeGreaterThan(0); // an address with a comma, quoted
      }
    }
    // the address route (same records) through the CLI
    const street = 'LINDEN ROAD'; // PAON 'SAFFRON COURT, 50': an address with commas
    const expected = await pages(ADDRESS, { street });
    expect(expected.length).toBeGreaterThan(0);
    const seen = spyQueries();
    const r = await runCli(['property', 'price-paid', 'address', '--street', street, '--all', '--format', 'csv', '--source', 'local'], { env });
    expect(r.stdout).toBe(csvOf(expected));
    expect(r.stdout).toContain('"5, SAFFRON COURT, 50 LINDEN ROAD, BOGNOR REGIS"');
    expect(seen.filter(rendered)).toHaveLength(1);
  });

  it('--fields and json keep the JavaScript path; an empty csv answer still says so', async () => {
    const expected = await pages(SEARCH, { town: 'LONDON' });
    const seen = spyQueries();
    const f = await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', 'csv', '--fields', 'id,address', '--source', 'local'], { env });
    expect(f.stdout).toBe(csvOf(expected.map((r) => ({ id: r.id, address: r.address }))));
    const js = JSON.parse((await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', 'json', '--source', 'local'], { env })).stdout);
    expect(js.data.transactions).toEqual(expected);
    expect(js.data.pagination).toEqual({ page: 1, per_page: 26, total: 26 });
    expect(seen.filter(rendered)).toHaveLength(0);
    const none = await runCli(['property', 'price-paid', 'search', '--town', 'NOWHERE', '--all', '--format', 'csv', '--source', 'local'], { env });
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'no records\n']);
  });
});
