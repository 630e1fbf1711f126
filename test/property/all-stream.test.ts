/**
 * `--all` on the local backend: one query streamed to the end (issue 10 item 7), byte-identical to the
 * pages it replaces. Expected output is built from the route's pages (page 1, 2, … until a short page),
 * rendered here independently of the CLI's --all code.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXED_NOW, isolatedEnv, runCli } from '../support/cli.js';
import { getRoute } from '../support/route.js';
import { buildDataset, cleanup, ctxFor, fixturesOf } from '../support/mirror-helper.js';
import { ds } from '../support/datasets.js';

const FIXTURES = fixturesOf('property');

const env = isolatedEnv();
const mirror = join(env.PUBLICDATA_DATA_DIR!, 'mirror');
beforeAll(async () => {
  mkdirSync(mirror, { recursive: true });
  await buildDataset('price-paid', join(FIXTURES, 'land-registry-ppd', 'pp-complete.csv'), mirror);
  await buildDataset('hpi', join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv'), mirror);
});
afterAll(() => cleanup([env.PUBLICDATA_DATA_DIR!]));
afterEach(() => vi.restoreAllMocks());

/** Every record of a query, page by page through the route (25 a page). */
async function pages(path: string, query: Record<string, string>, key?: string): Promise<{ pages: number; records: any[] }> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const env = (await getRoute(path, { ...query, page: String(page) }, ctxFor(mirror, FIXED_NOW.toISOString()))).envelope as any;
    const recs = key ? env.data[key] : env.data;
    records.push(...recs);
    if (recs.length < 25) return { pages: page, records };
  }
}

/** Queries that read `table` (count and page queries of the paged handlers, or the one streamed query). */
function spyQueries(table: string): string[] {
  const seen: string[] = [];
  const proto = DuckDBConnection.prototype as any;
  for (const m of ['stream', 'runAndReadAll', 'run', 'streamAndReadAll']) {
    const orig = proto[m];
    vi.spyOn(proto, m).mockImplementation(function (this: unknown, sql: unknown, ...rest: unknown[]) {
      if (typeof sql === 'string' && new RegExp(`FROM ${table}\\b`).test(sql)) seen.push(sql);
      return orig.call(this, sql, ...rest);
    });
  }
  return seen;
}

describe('--all on the local backend', () => {
  it('price-paid search --town LONDON: ndjson is the pages’ records, from one query', async () => {
    const expected = await pages('/v1/property/price-paid/search', { town: 'LONDON' }, 'transactions');
    expect(expected.pages).toBeGreaterThan(1); // the fixture has more than one page of London sales
    const seen = spyQueries('price_paid');
    const r = await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', 'ndjson', '--source', 'local'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected.records.map((t) => `${JSON.stringify(t)}\n`).join(''));
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toMatch(/LIMIT/);
  });

  it('csv and json equal the paged output (header once; one merged envelope)', async () => {
    const expected = await pages('/v1/property/price-paid/search', { town: 'LONDON' }, 'transactions');
    const csv = await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', 'csv', '--source', 'local'], { env });
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines).toHaveLength(expected.records.length + 1);
    expect(lines[0]!.split(',')).toContain('id');
    expect(lines.slice(1).every((l, i) => l.includes(expected.records[i].id))).toBe(true);
    const js = JSON.parse((await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', 'json', '--source', 'local'], { env })).stdout);
    expect(js.data.transactions).toEqual(expected.records);
    expect(js.data.pagination).toEqual({ page: 1, per_page: expected.records.length, total: expected.records.length });
    expect(js.meta.source).toBe('HM Land Registry');
  });

  it('hpi (top-level pagination) streams too; a town with no sales prints nothing', async () => {
    const expected = await pages('/v1/property/hpi', {});
    const seen = spyQueries('hpi');
    const r = await runCli(['property', 'hpi', '--all', '--format', 'ndjson', '--source', 'local'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected.records.map((t) => `${JSON.stringify(t)}\n`).join(''));
    expect(seen).toHaveLength(1);
    const none = await runCli(['property', 'price-paid', 'search', '--town', 'NOWHERE', '--all', '--format', 'ndjson', '--source', 'local'], { env });
    expect([none.code, none.stdout]).toEqual([0, '']);
  });

  it('bounds DuckDB memory while it streams (the buffer pool would keep every block of the scan)', async () => {
    const { openDataset } = await import('../../src/mirror/db.js');
    const r = await runCli(['property', 'price-paid', 'search', '--town', 'LONDON', '--all', '--format', 'ndjson', '--source', 'local'], { env });
    expect(r.code).toBe(0);
    const conn = await openDataset(ds('price-paid'), mirror);
    // 512 MB = 512e6 / 2^20 = 488.28 MiB, as DuckDB reports it (its default is 80% of the machine's RAM).
    const v = (await conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjects()[0]!.m;
    expect(v).toBe('488.2 MiB');
  });
});
