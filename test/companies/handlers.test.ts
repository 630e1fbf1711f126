/**
 * Every offline /v1/companies route against a mirror synced (through the real framework) from the real
 * excerpts plus labelled GENERATED rows; expected values are computed here from the fixture files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { conforming } from '../support/schema-check.js';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { buildDataset, cleanup, ctxFor, readCsv, tempDir } from '../support/mirror-helper.js';
import { buildTwoMonths, chFixture, GENERATED_LINES, isoDate, parseRow, REAL_LINES } from './fixture.js';

const NOW = '2026-11-21T12:00:00Z';
const LINES = [...REAL_LINES, ...GENERATED_LINES];
const ROWS = LINES.map(parseRow);
const PSC_LINES = readFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), 'utf8').split('\n').filter(Boolean);
// GENERATED PSC lines: the same individual (name elements and birth month) controls a second company, and
// a corporate PSC with the same registration number (unpadded) controls a third.
const marc = JSON.parse(PSC_LINES[0]!) as { data: Record<string, unknown> };
const GENERATED_PSC = [
  JSON.stringify({ company_number: '11399177', data: { ...marc.data, notified_on: '2022-01-05', natures_of_control: ['voting-rights-25-to-50-percent'] } }),
  JSON.stringify({ company_number: '14000002', data: { kind: 'corporate-entity-person-with-significant-control', name: 'Robert Hitchins Ltd', identification: { registration_number: '686734', country_registered: 'England' }, natures_of_control: ['ownership-of-shares-25-to-50-percent'], notified_on: '2026-01-15' } }),
];

const dirs: string[] = [];
let mirror = '';
let pscOnly = '';
beforeAll(async () => {
  const d = tempDir('pd-ch-h-');
  dirs.push(d);
  // November: everything; December (the synced state): one real company (02714021) left the register.
  mirror = await buildTwoMonths(d, LINES);
  const psc = join(d, 'persons-with-significant-control-snapshot-2026-11-20.txt');
  writeFileSync(psc, [...PSC_LINES.slice(0, -1), ...GENERATED_PSC, PSC_LINES[PSC_LINES.length - 1]].join('\n') + '\n');
  await buildDataset('psc', psc, mirror);
  pscOnly = join(d, 'psc-only');
  await buildDataset('psc', psc, pscOnly);
}, 60_000);
afterAll(() => cleanup(dirs));

async function get(path: string, query: Record<string, string> = {}, dir = mirror) {
  return conforming('GET', path, await callLocal({ method: 'GET', path, query }, ctxFor(dir, NOW)));
}
async function ok(path: string, query: Record<string, string> = {}, dir = mirror) {
  const r = await get(path, query, dir);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}
const row = (n: string) => ROWS.find((r) => r.CompanyNumber === n)!;
const sicOf = (r: Record<string, string>) =>
  [1, 2, 3, 4].map((i) => /^(\d{4,5}) - /.exec(r[`SICCode.SicText_${i}`]!)?.[1]).filter((c): c is string => !!c);
const SIC_DESC = new Map(readCsv(readFileSync(chFixture('SIC07_CH_condensed_list_en.csv'), 'utf8')).map((r) => [r['SIC Code']!, r.Description!]));
const live = ROWS.filter((r) => r.CompanyNumber !== '02714021');

describe('sic-codes (no sync needed)', () => {
  const SIC = readCsv(readFileSync(chFixture('SIC07_CH_condensed_list_en.csv'), 'utf8'));
  it('lists all 731 codes of the Companies House file, paged, and filters by section', async () => {
    const all = await ok('/v1/companies/sic-codes', { per_page: '100', page: '8' }, '/nonexistent');
    expect(all.pagination).toEqual({ total: 731, page: 8, per_page: 100, total_pages: 8 });
    expect(all.data.map((c: any) => c.code)).toEqual(SIC.slice(700).map((r) => r['SIC Code']));
    const j = await ok('/v1/companies/sic-codes', { section: 'j', per_page: '100' }, '/nonexistent');
    const expected = SIC.filter((r) => { const d = Number(r['SIC Code']!.slice(0, 2)); return d >= 58 && d <= 63; });
    expect(j.data.map((c: any) => c.code)).toEqual(expected.map((r) => r['SIC Code']));
    expect((await get('/v1/companies/sic-codes', { section: 'Z' }, '/nonexistent')).status).toBe(400);
  });
  it('one code with its section; unknown and SIC 2003 codes are 404', async () => {
    const r = await ok('/v1/companies/sic-codes/62020', {}, '/nonexistent');
    expect(r.data).toEqual({ code: '62020', description: SIC.find((x) => x['SIC Code'] === '62020')!.Description, section: 'J', section_description: 'Information and communication' });
    expect(r.meta).toMatchObject({ source: 'Companies House', licence: 'Open Government Licence v3.0' });
    expect((await get('/v1/companies/sic-codes/12345', {}, '/nonexistent')).status).toBe(404);
    const old = await get('/v1/companies/sic-codes/7499', {}, '/nonexistent');
    expect(old.status).toBe(404);
    expect(JSON.stringify(old.envelope)).toMatch(/SIC 2003/);
  });
});

describe('detail', () => {
  it('maps every detail field from the CSV row', async () => {
    const src = row('07687209');
    const r = await ok('/v1/companies/07687209');
    expect(r.data).toEqual({
      company_number: '07687209',
      company_name: src.CompanyName,
      company_status: 'active',
      company_type: 'ltd',
      date_of_creation: isoDate(src.IncorporationDate),
      date_of_cessation: null,
      registered_office_address: { address_line_1: src['RegAddress.AddressLine1'], locality: src['RegAddress.PostTown'], postal_code: src['RegAddress.PostCode'], country: null },
      sic_codes: [{ code: '70229', description: 'Management consultancy activities other than financial management' }],
      accounts: { next_due: isoDate(src['Accounts.NextDueDate']), last_made_up_to: isoDate(src['Accounts.LastMadeUpDate']) },
      confirmation_statement: { next_due: isoDate(src.ConfStmtNextDueDate) },
      jurisdiction: 'england-wales',
      uri: '/company/07687209',
    });
    expect(r.meta).toMatchObject({ source: 'Companies House', source_url: 'https://download.companieshouse.gov.uk/en_output.html', licence: 'Open Government Licence v3.0', as_of: '2026-12-01' });
  });
  it('Scottish numbers, SIC 2003 codes, "None Supplied", short numbers padded', async () => {
    expect((await ok('/v1/companies/SC900003')).data).toMatchObject({ jurisdiction: 'scotland', company_status: 'active', sic_codes: [] });
    expect((await ok('/v1/companies/1000004')).data.sic_codes).toEqual([{ code: '7499', description: 'Non-trading company' }]);
  });
  it('a company that left the register: what is known, as dissolved, with a note; unknown is 404, malformed is 400', async () => {
    const r = await ok('/v1/companies/02714021');
    expect(r.data).toMatchObject({ company_number: '02714021', company_name: row('02714021').CompanyName, company_status: 'dissolved', date_of_cessation: null });
    expect(r.meta.note).toMatch(/snapshot of 2026-11-01 but not in that of 2026-12-01.*--source live/);
    const nf = await get('/v1/companies/12345678');
    expect(nf.status).toBe(404);
    expect(JSON.stringify(nf.envelope)).toMatch(/not on the live register in the Companies House snapshot of 2026-12-01.*--source live/);
    expect((await get('/v1/companies/ABC')).status).toBe(400);
  });
});

describe('search and list', () => {
  it('ranks exact, prefix, word prefix, contains; active first within a rank', async () => {
    const r = await ok('/v1/companies/search', { q: 'Nspired' });
    // hand-ranked: !NSPIRED LTD (exact, active), NSPIRED LIMITED (exact, liquidation), !NSPIRED INVESTMENTS LTD (prefix),
    // THE NSPIRED GROUP PLC (word prefix), UNNSPIRED LTD (contains)
    expect(r.data.map((c: any) => c.company_number)).toEqual(['SC421617', '14000001', 'SC606050', '14000002', 'SC900003']);
    expect(r.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
    expect(r.meta.query).toBe('Nspired');
    expect(r.data[0]).toEqual({
      company_number: 'SC421617', company_name: '!NSPIRED LTD', company_status: 'active', company_type: 'ltd',
      date_of_creation: isoDate(row('SC421617').IncorporationDate),
      registered_office_address: { postal_code: row('SC421617')['RegAddress.PostCode'], locality: row('SC421617')['RegAddress.PostTown'] },
      sic_codes: sicOf(row('SC421617')),
    });
    const p2 = await ok('/v1/companies/search', { q: 'nspired ltd', per_page: '2', page: '2' });
    expect(p2.data.map((c: any) => c.company_number)).toEqual(['SC606050', '14000002']);
    expect((await get('/v1/companies/search', { q: 'n' })).status).toBe(400);
    const gone = await ok('/v1/companies/search', { q: 'yozo', status: 'dissolved' });
    expect(gone.data.map((c: any) => [c.company_number, c.company_status])).toEqual([['02714021', 'dissolved']]);
    expect((await ok('/v1/companies/search', { q: 'yozo', status: 'active' })).data).toEqual([]);
  });
  it('lists by SIC code and by postcode area or district', async () => {
    const sic = await ok('/v1/companies', { sic_code: '62020' });
    expect(sic.data.map((c: any) => c.company_number)).toEqual(live.filter((r) => sicOf(r).includes('62020')).map((r) => r.CompanyNumber).sort());
    const ec1 = await ok('/v1/companies', { postcode: 'EC1' });
    const want = live.filter((r) => /^EC1[A-Z]?\s?\d/.test(r['RegAddress.PostCode']!)).map((r) => r.CompanyNumber).sort();
    expect(ec1.data.map((c: any) => c.company_number)).toEqual(want);
    expect(want).toHaveLength(4); // 3 generated + 1 real (11743365)
    expect(ec1.data.find((c: any) => c.company_number === '14000002').registered_office_address.postal_code).toBe('EC1V 4PY');
    expect((await ok('/v1/companies', { postcode: 'AB', status: 'active' })).pagination!.total).toBe(live.filter((r) => /^AB\d/.test(r['RegAddress.PostCode']!)).length);
    expect((await get('/v1/companies', { postcode: '12' })).status).toBe(400);
    expect((await get('/v1/companies', { sic_code: 'x' })).status).toBe(400);
  });
});

const TYPE: Record<string, string> = {
  'Private Limited Company': 'ltd', 'Public Limited Company': 'plc', 'Other company type': 'other',
  'Charitable Incorporated Organisation': 'charitable-incorporated-organisation',
  'PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)': 'private-limited-guarant-nsc',
};
const STATUS = (s: string) => (s.startsWith('Active') ? 'active' : s.toLowerCase());
const count = <T>(xs: T[], key: (x: T) => string) => xs.reduce<Record<string, number>>((a, x) => ((a[key(x)] = (a[key(x)] ?? 0) + 1), a), {});

describe('statistics, geography, sector analytics', () => {
  it('statistics of the register snapshot', async () => {
    const r = await ok('/v1/companies/statistics');
    expect(r.data).toEqual({
      total_companies: live.length,
      by_status: { ...count(live, (x) => STATUS(x.CompanyStatus!)), dissolved: null },
      by_type: count(live, (x) => TYPE[x.CompanyCategory!]!),
      incorporations_this_month: live.filter((x) => isoDate(x.IncorporationDate!)?.startsWith('2026-11')).length,
      incorporations_this_year: live.filter((x) => isoDate(x.IncorporationDate!)?.startsWith('2026')).length,
      data_as_of: '2026-12-01',
    });
    expect(r.data.incorporations_this_year).toBe(2);
    expect(r.meta.note).toMatch(/dissolved companies are not in the bulk file/);
  });
  it('geography of a postcode district', async () => {
    const inEc1 = live.filter((r) => /^EC1/.test(r['RegAddress.PostCode']!));
    const r = await ok('/v1/companies/geography/ec1');
    expect(r.data).toEqual({
      postcode_prefix: 'EC1',
      company_count: inEc1.length,
      active_count: inEc1.filter((x) => STATUS(x.CompanyStatus!) === 'active').length,
      by_status: count(inEc1, (x) => STATUS(x.CompanyStatus!)),
      top_sic_codes: Object.entries(count(inEc1.flatMap((x) => sicOf(x)), (c) => c))
        .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1))
        .map(([code, n]) => ({ code, description: SIC_DESC.get(code) ?? 'Non-trading company', count: n })),
      incorporations: { this_year: inEc1.filter((x) => isoDate(x.IncorporationDate!)?.startsWith('2026')).length, last_year: inEc1.filter((x) => isoDate(x.IncorporationDate!)?.startsWith('2025')).length },
    });
    expect(r.data.top_sic_codes[0]).toMatchObject({ code: '62020', count: 2 });
    expect((await get('/v1/companies/geography/ZZ')).status).toBe(404);
    expect((await get('/v1/companies/geography/9')).status).toBe(400);
  });
  it('sector analytics: the register part, financial fields null with a note', async () => {
    const r = await ok('/v1/companies/sectors/62020/analytics');
    expect(r.data).toEqual({
      sic_code: '62020', sic_description: 'Information technology consultancy activities', sic_section: 'J',
      company_count: 2, active_count: 1, by_status: { active: 1, liquidation: 1 }, incorporations: { this_year: 1, last_year: 0 },
      financial_benchmarks: null, filing_count: null, benchmark_calculated_at: null,
    });
    expect(r.meta.note).toMatch(/accounts data, which is not in the local mirror/);
    expect((await get('/v1/companies/sectors/12345/analytics')).status).toBe(404);
  });
});

describe('filing-status', () => {
  const days = (to: string) => Math.round((Date.parse(to) - Date.parse('2026-11-21')) / 86_400_000);
  it('due soon, overdue, up to date and not applicable, from the due dates against the clock', async () => {
    const soon = await ok('/v1/companies/14000002/filing-status');
    expect(soon.data).toMatchObject({ compliance_status: 'due_soon', confirmation_next_due: '2026-12-10', accounts_next_due: '2027-10-15', days_until_due: days('2026-12-10'), is_overdue: false, latest_filing: null, days_since_last_filing: null });
    const late = await ok('/v1/companies/08209948/filing-status');
    const src = row('08209948');
    const due = [isoDate(src['Accounts.NextDueDate']!)!, isoDate(src.ConfStmtNextDueDate!)!].sort()[0]!;
    expect(late.data).toMatchObject({ compliance_status: 'overdue', days_until_due: days(due), is_overdue: true });
    expect((await ok('/v1/companies/01000004/filing-status')).data).toMatchObject({ compliance_status: 'up_to_date', days_until_due: days('2027-09-30') });
    expect((await ok('/v1/companies/14000001/filing-status')).data).toMatchObject({ company_status: 'liquidation', compliance_status: 'not_applicable', days_until_due: null, is_overdue: false });
  });
});

describe('psc, changes, network, timeline', () => {
  const recs = PSC_LINES.slice(0, -1).map((l) => JSON.parse(l) as { company_number: string; data: Record<string, any> });
  it('psc records of a company (statements excluded), with the company name from the register', async () => {
    const r = await ok('/v1/companies/08209948/psc');
    const mine = recs.filter((x) => x.company_number === '08209948' && x.data.kind.startsWith('individual'));
    expect(r.data).toEqual({
      company_number: '08209948', company_name: '! LTD', psc_count: 1,
      psc_records: mine.map((x) => ({ psc_type: 'individual', kind: x.data.kind, name: x.data.name, nationality: x.data.nationality, country_of_residence: x.data.country_of_residence, natures_of_control: x.data.natures_of_control, notified_on: x.data.notified_on, ceased_on: null })),
    });
    expect(r.meta).toMatchObject({ source: 'Companies House', source_url: 'https://download.companieshouse.gov.uk/en_pscdata.html', as_of: '2026-11-20' });
    const ss = await ok('/v1/companies/02443921/psc');
    expect(ss.data.psc_records).toEqual([{ psc_type: 'super_secure', kind: 'super-secure-person-with-significant-control', name: null, nationality: null, country_of_residence: null, natures_of_control: [], notified_on: null, ceased_on: null }]);
    expect(ss.meta.note).toMatch(/super-secure/);
  });
  it('psc without the companies dataset: null names and a note', async () => {
    const r = await ok('/v1/companies/08209948/psc', {}, pscOnly);
    expect(r.data.company_name).toBeNull();
    expect(r.data.psc_count).toBe(1);
    expect(r.meta.note).toMatch(/companies dataset, which is not synced/);
  });
  it('psc of a company the loaded register does not hold: company_name null, said in meta.note (docs/companies.md)', async () => {
    // Counted from the fixtures: PSC snapshot companies with a person record that no register row holds.
    const onRegister = new Set(ROWS.map((r) => r.CompanyNumber));
    const missing = [...new Set(recs.filter((r) => !r.data.kind.includes('statement') && !onRegister.has(r.company_number)).map((r) => r.company_number))];
    expect(missing).toContain('07434180');
    for (const n of missing) {
      for (const path of [`/v1/companies/${n}/psc`, `/v1/companies/${n}/psc/changes`, `/v1/companies/${n}/network`]) {
        const r = await ok(path);
        expect(r.data.company_name, path).toBeNull();
        expect(r.meta.note, path).toContain(`company ${n} is not in the loaded register snapshot`);
      }
    }
    // On the register: a name, and no such note.
    const named = await ok('/v1/companies/08209948/psc');
    expect(named.data.company_name).toBe(row('08209948').CompanyName);
    expect(String(named.meta.note ?? '')).not.toMatch(/not in the loaded register/);
    // network: related companies the register lacks are named in the note.
    const b = await ok('/v1/companies/07434180/network');
    const unnamed = b.data.related_companies.flatMap((g: { companies: Array<{ company_number: string }> }) => g.companies).filter((c: { company_number: string }) => !onRegister.has(c.company_number));
    expect(unnamed.map((c: { company_number: string }) => c.company_number)).toEqual(['00686734']);
    expect(b.meta.note).toContain('null company_name and company_status: 00686734.');
  });
  it('psc changes in date order from notified and ceased dates', async () => {
    const x = recs.find((r) => r.company_number === '09145694')!.data;
    const r = await ok('/v1/companies/09145694/psc/changes');
    expect(r.data).toEqual({
      company_number: '09145694', company_name: null, total_events: 2,
      events: [
        { event: 'appointed', date: x.notified_on, name: x.name, psc_type: 'individual', natures_of_control: x.natures_of_control },
        { event: 'ceased', date: x.ceased_on, name: x.name, psc_type: 'individual' },
      ],
    });
    expect((await get('/v1/companies/77777777/psc/changes')).status).toBe(404);
  });
  it('network: an individual matched on name and birth month, a corporate controller on registration number', async () => {
    const a = await ok('/v1/companies/08209948/network');
    expect(a.data).toEqual({
      company_number: '08209948', company_name: '! LTD', psc_count: 1,
      controllers: [{ name: 'Mr Marc Anthony Feldman', psc_type: 'individual', nationality: 'British', natures_of_control: ['ownership-of-shares-75-to-100-percent'] }],
      related_companies: [{ controller_name: 'Mr Marc Anthony Feldman', companies: [{ company_number: '11399177', company_name: '!? LTD', company_status: 'active' }] }],
      network_size: 1,
    });
    const b = await ok('/v1/companies/07434180/network');
    expect(b.data.related_companies).toEqual([
      {
        controller_name: 'Robert Hitchins Limited',
        companies: [
          { company_number: '00686734', company_name: null, company_status: null },
          { company_number: '14000002', company_name: 'THE NSPIRED GROUP PLC', company_status: 'active' },
        ],
      },
    ]);
    expect(b.data.network_size).toBe(2);
  });
  it('timeline newest first: PSC events and incorporation; accounts events noted as not synced', async () => {
    const r = await ok('/v1/companies/11399177/timeline');
    expect(r.data).toEqual({
      company_number: '11399177', company_name: '!? LTD', event_count: 2,
      events: [
        { date: '2022-01-05', type: 'psc_notified', description: 'PSC notified: Mr Marc Anthony Feldman', details: { name: 'Mr Marc Anthony Feldman', psc_type: 'individual' } },
        { date: isoDate(row('11399177').IncorporationDate!), type: 'incorporation', description: '!? LTD incorporated' },
      ],
    });
    expect(r.meta.note).toMatch(/accounts_filed events come from Companies House accounts data/);
    const gone = await ok('/v1/companies/02714021/timeline');
    expect(gone.data.events[0]).toMatchObject({ date: '2026-12-01', type: 'cessation', details: { date_precision: 'snapshot', last_seen_on_register: '2026-11-01' } });
  });
});
