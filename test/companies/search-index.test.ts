/**
 * Name search through the word index (company_name_words): the answers (match set, total, order, pages)
 * are computed here from the fixture rows with an independent normaliser and ranking, for one-, two- and
 * three-word queries (words cut mid-word at both ends), status filters and departed companies; and a mirror
 * without the index (synced by an older version) answers the same by scanning.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { conforming } from '../support/schema-check.js';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { cleanup, ctxFor, sqlOn, tempDir } from '../support/mirror-helper.js';
import { buildTwoMonths, companyLine, DEPARTING, GENERATED_LINES, parseRow, REAL_LINES } from './fixture.js';

// GENERATED rows whose names tie in rank, status and length (the order then rests on the company number),
// in an order that is not the answer's, with a shorter name, an inactive one and a word-prefix match.
const TIE_LINES = [
  ['ACME TIE B LIMITED', '14100003', 'Active'], ['ACME TIE A LIMITED', '14100002', 'Active'], ['ACME TIE E LTD', '14100001', 'Active'],
  ['ACME TIE D LIMITED', '14100004', 'Liquidation'], ['ACME TIE C LIMITED', '14100005', 'Active'], ['ACME TIES LIMITED', '14100006', 'Active'],
  ['THE ACME TIE F LIMITED', '14100007', 'Active'], ['ACME TIE G LIMITED', '14100008', 'Liquidation'],
].map(([CompanyName, CompanyNumber, CompanyStatus]) => companyLine({ CompanyName: CompanyName!, CompanyNumber: CompanyNumber!, CompanyStatus: CompanyStatus! }));
const LINES = [...REAL_LINES, ...GENERATED_LINES, ...TIE_LINES];
const ROWS = LINES.map(parseRow);
const GONE = DEPARTING;

// The normalisation as docs/companies.md states it, written again here (not the code under test).
const SUFFIXES = ['PUBLIC LIMITED COMPANY', 'LIMITED LIABILITY PARTNERSHIP', 'COMMUNITY INTEREST COMPANY', 'CWMNI CYFYNGEDIG CYHOEDDUS', 'LIMITED', 'LTD', 'PLC', 'LLP', 'CIC', 'CYFYNGEDIG', 'CYF', 'CCC', 'LP'];
function norm(name: string): string {
  const spaced = name.toUpperCase().replace(/&/g, ' AND ').replace(/['’.]/g, '').replace(/[^A-Z0-9]+/g, ' ').trim();
  let s = ` ${spaced}`;
  for (let again = true; again; ) {
    again = false;
    for (const suf of SUFFIXES) {
      if (s.endsWith(` ${suf}`)) {
        s = s.slice(0, -suf.length - 1);
        again = true;
      }
    }
  }
  return s.trim() || spaced;
}

interface Company { number: string; name: string; norm: string; status: string }
const companies: Company[] = ROWS.map((r) => ({
  number: r.CompanyNumber!,
  name: r.CompanyName!.trim(),
  norm: norm(r.CompanyName!),
  status: r.CompanyNumber === GONE ? 'dissolved' : r.CompanyStatus!.startsWith('Active') ? 'active' : 'other',
}));

/** Expected company numbers in answer order: contains-match, ranked exact, prefix, word prefix, contains; active first; shorter name; number. */
function expected(q: string, status?: string): string[] {
  const n = norm(q);
  const rank = (c: Company) => (c.norm === n ? 0 : c.norm.startsWith(n) ? 1 : ` ${c.norm}`.includes(` ${n}`) ? 2 : 3);
  return companies
    .filter((c) => c.norm.includes(n))
    .filter((c) => (status === 'active' ? c.status === 'active' : status === 'dissolved' ? c.status === 'dissolved' : true))
    .sort((a, b) => rank(a) - rank(b) || Number(b.status === 'active') - Number(a.status === 'active') || [...a.name].length - [...b.name].length || (a.number < b.number ? -1 : 1))
    .map((c) => c.number);
}

const dirs: string[] = [];
let mirror = '';
let noIndex = '';
beforeAll(async () => {
  const d = tempDir('pd-ch-search-');
  dirs.push(d);
  mirror = await buildTwoMonths(d, LINES);
  // The same mirror file without the index.
  noIndex = join(d, 'no-index');
  mkdirSync(noIndex);
  copyFileSync(join(mirror, 'companies.duckdb'), join(noIndex, 'companies.duckdb'));
  const db = await DuckDBInstance.create(join(noIndex, 'companies.duckdb'));
  const c = await db.connect();
  await c.run('DROP TABLE company_name_words');
  c.closeSync();
  db.closeSync();
}, 60_000);
afterAll(() => cleanup(dirs));

async function search(query: Record<string, string>, dir = mirror) {
  const r = await conforming('GET', '/v1/companies/search', await callLocal({ method: 'GET', path: '/v1/companies/search', query }, ctxFor(dir, '2026-12-05T12:00:00Z')));
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}

describe('name search through the word index', () => {
  it('the index holds one row per distinct word of each register name, sorted on the word', async () => {
    const rows = await sqlOn(join(mirror, 'companies.duckdb'), 'SELECT word, company_number FROM company_name_words');
    const want = companies
      .filter((c) => c.number !== GONE)
      .flatMap((c) => [...new Set(c.norm.split(' '))].map((w) => `${w}|${c.number}`))
      .sort();
    expect(rows.map((r) => `${r.word}|${r.company_number}`).sort()).toEqual(want);
    const words = rows.map((r) => r.word as string);
    expect(words).toEqual([...words].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  const queries: Array<[string, Record<string, string>]> = [
    ['one word (exact, prefix, word prefix, inside a word)', { q: 'nspired' }],
    ['one word, active only', { q: 'nspired', status: 'active' }],
    ['two words', { q: 'nspired investments' }],
    ['two words cut mid-word at both ends', { q: 'pired inv' }],
    ['three words (middle word exact)', { q: 'big impact graph' }],
    ['a legal-form word alone', { q: 'limited' }],
    ['punctuation and ampersand', { q: '"7s&s" ltd' }],
    ['digits and a hyphen', { q: '20-20 voi' }],
    ['departed company (dissolved)', { q: 'yozo', status: 'dissolved' }],
    ['departed company in the default search', { q: 'yozo fass' }],
    ['no match', { q: 'zzzz qqqq' }],
  ];
  for (const [label, query] of queries) {
    it(`${label}: ${query.q}`, async () => {
      const want = expected(query.q!, query.status);
      if (query.q !== 'zzzz qqqq') expect(want.length).toBeGreaterThan(0);
      const r = await search({ ...query, per_page: '100' });
      expect(r.data.map((c: any) => c.company_number)).toEqual(want);
      expect(r.pagination!.total).toBe(want.length);
      expect(await search({ ...query, per_page: '100' }, noIndex)).toEqual(r);
    });
  }

  it('pages of an indexed search, and the total on a page past the end', async () => {
    const want = expected('nspired');
    expect(want.length).toBeGreaterThan(4);
    const p2 = await search({ q: 'nspired', per_page: '2', page: '2' });
    expect(p2.data.map((c: any) => c.company_number)).toEqual(want.slice(2, 4));
    expect(p2.pagination!.total).toBe(want.length);
    const past = await search({ q: 'nspired', per_page: '100', page: '9' });
    expect(past.data).toEqual([]);
    expect(past.pagination!.total).toBe(want.length);
  });

  it('every page of a search whose names tie, for several page sizes, joins up to the whole ranked answer', async () => {
    const queries: Array<{ q: string; status?: string }> = [{ q: 'acme tie' }, { q: 'acme tie', status: 'active' }, { q: 'tie' }];
    for (const query of queries) {
      const want = expected(query.q, query.status);
      // The fixture really has ties: neighbours in the answer with the same rank, status and name length.
      const key = (n: string) => {
        const c = companies.find((x) => x.number === n)!;
        const q = norm(query.q);
        return `${c.norm === q ? 0 : c.norm.startsWith(q) ? 1 : ` ${c.norm}`.includes(` ${q}`) ? 2 : 3}|${c.status}|${[...c.name].length}`;
      };
      expect(want.some((n, i) => i > 0 && key(n) === key(want[i - 1]!))).toBe(true);
      for (const perPage of [1, 2, 3]) {
        const got: string[] = [];
        for (let p = 1; p <= Math.ceil(want.length / perPage); p++) {
          const r = await search({ ...query, per_page: String(perPage), page: String(p) });
          expect(r.pagination!.total).toBe(want.length);
          got.push(...r.data.map((c: any) => c.company_number));
        }
        expect(got).toEqual(want);
      }
    }
  });
});
