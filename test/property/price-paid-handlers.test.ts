/**
 * Every price-paid route against values computed independently from the fixture files with plain JS
 * (test/property/ppd-fixture.ts): the mirror is built by the real sync path from the real excerpts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { conforming } from '../support/schema-check.js';
import type { HandlerContext } from '../../src/contract/types.js';
import { formatAddress } from '../../src/domains/property/price-paid.js';
import { classifyPostcode } from '../../src/mirror/postcode.js';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { applyUpdate, fixture, readPpd, type PpdRow } from './ppd-fixture.js';

let root: string;
let ctx: HandlerContext;
const data: PpdRow[] = applyUpdate(readPpd('pp-complete.csv'), readPpd('pp-monthly-update-new-version.csv'));
const TYPES: Record<string, string> = { D: 'detached', S: 'semi_detached', T: 'terraced', F: 'flat', O: 'other' };

const get = async (path: string, query: Record<string, string> = {}) => conforming('GET', path, await getRoute(path, query, ctx));

/** Expected list item, built from the raw fields with the documented address rule. */
function expectedItem(r: PpdRow) {
  return {
    id: r.id, price: r.price, date: r.date, postcode: r.postcode || null, property_type: TYPES[r.type],
    new_build: r.oldNew === 'Y', tenure: r.duration === 'F' ? 'freehold' : r.duration === 'L' ? 'leasehold' : 'unknown',
    address: expectedAddress(r),
  };
}
function expectedAddress(r: PpdRow): string {
  const parts: string[] = [];
  if (r.saon) parts.push(r.saon);
  const numbered = /(^|[\s,])\d+[A-Z]?(\s*-\s*\d+[A-Z]?)?$/.test(r.paon);
  const line = r.paon && r.street ? (numbered ? `${r.paon} ${r.street}` : `${r.paon}, ${r.street}`) : r.paon || r.street;
  if (line) parts.push(line);
  if (r.locality && r.locality !== r.town) parts.push(r.locality);
  if (r.town) parts.push(r.town);
  return parts.join(', ');
}
const newestFirst = (a: PpdRow, b: PpdRow) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const outward = (pc: string) => pc.split(' ')[0]!;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pd-pph-'));
  const mirrorDir = join(root, 'mirror');
  const cacheDir = join(root, 'cache');
  await syncDataset('price-paid', { mirrorDir, cacheDir, env: {}, from: fixture('pp-complete.csv'), now: () => new Date('2026-11-21T10:00:00Z') });
  await syncDataset('price-paid', { mirrorDir, cacheDir, env: {}, from: fixture('pp-monthly-update-new-version.csv'), now: () => new Date('2026-11-21T10:01:00Z') });
  ctx = { now: () => new Date('2026-11-21T12:00:00Z'), env: {}, mirrorDir, cacheDir };
});
afterAll(async () => {
  await closeAll();
  rmSync(root, { recursive: true, force: true });
});

const META = {
  api_version: 'v1', licence: 'Open Government Licence v3.0', source: 'HM Land Registry',
  source_url: 'https://www.gov.uk/government/collections/price-paid-data',
};

describe('price-paid search', () => {
  it('a full postcode matches exactly, in any case and spacing', async () => {
    const want = data.filter((r) => r.postcode === 'NE4 9DN');
    for (const pc of ['NE4 9DN', 'ne49dn', ' ne4  9dn ']) {
      const r = await get('/v1/property/price-paid/search', { postcode: pc });
      expect(r.status).toBe(200);
      expect(r.envelope).toEqual({
        data: { transactions: want.map(expectedItem), pagination: { page: 1, per_page: 25, total: want.length } },
        meta: { ...META, as_of: data.map((x) => x.date).sort().pop() },
      });
    }
  });

  it('an outward code matches that district only (and lettered sub-districts of a digit-ending one)', async () => {
    const counts = new Map<string, number>();
    for (const r of data) if (r.postcode) counts.set(outward(r.postcode), (counts.get(outward(r.postcode)) ?? 0) + 1);
    const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    const code = best![0];
    const want = data.filter((r) => r.postcode && (outward(r.postcode) === code || (/\d$/.test(code) && new RegExp(`^${code}[A-Z]$`).test(outward(r.postcode)))));
    const r = await get('/v1/property/price-paid/search', { postcode: code.toLowerCase() });
    const body = r.envelope as any;
    expect(body.data.pagination.total).toBe(want.length);
    expect(body.data.transactions).toEqual(want.sort(newestFirst).slice(0, 25).map(expectedItem));
    // B1 must not match B10..B19 etc.
    // The fixture must hold B postcodes with two-digit districts, or this check would pass vacuously.
    const b = data.filter((x) => /^B\d/.test(x.postcode));
    const shorts = [...new Set(b.map((x) => outward(x.postcode).replace(/\d$/, '')))].filter((s) => /\d/.test(s));
    expect(shorts.length).toBeGreaterThan(0);
    for (const short of shorts) {
      const w = data.filter((x) => x.postcode && (outward(x.postcode) === short || new RegExp(`^${short}[A-Z]$`).test(outward(x.postcode))));
      const rr = (await get('/v1/property/price-paid/search', { postcode: short })).envelope as any;
      expect(rr.data.pagination.total).toBe(w.length);
    }
  });

  it('a postcode area matches area letters followed by a digit', async () => {
    const area = 'S';
    const want = data.filter((r) => /^S\d/.test(r.postcode));
    const r = (await get('/v1/property/price-paid/search', { postcode: area })).envelope as any;
    expect(want.length).toBeGreaterThan(0);
    expect(r.data.pagination.total).toBe(want.length);
  });

  it('town search pages 25 at a time, newest first, including type O as "other"', async () => {
    const want = data.filter((r) => r.town === 'LONDON').sort(newestFirst);
    expect(want.length).toBeGreaterThan(25);
    expect(want.some((r) => r.type === 'O')).toBe(true);
    const p1 = (await get('/v1/property/price-paid/search', { town: 'london' })).envelope as any;
    const p2 = (await get('/v1/property/price-paid/search', { town: 'London', page: '2' })).envelope as any;
    expect(p1.data.pagination).toEqual({ page: 1, per_page: 25, total: want.length });
    expect(p1.data.transactions).toEqual(want.slice(0, 25).map(expectedItem));
    expect(p2.data.pagination).toEqual({ page: 2, per_page: 25, total: want.length });
    expect(p2.data.transactions).toEqual(want.slice(25, 50).map(expectedItem));
    const p9 = (await get('/v1/property/price-paid/search', { town: 'london', page: '9' })).envelope as any;
    expect(p9.data).toEqual({ transactions: [], pagination: { page: 9, per_page: 25, total: want.length } });
  });

  it('property_type filters D/S/T/F and never returns O', async () => {
    for (const [name, code] of Object.entries({ detached: 'D', semi_detached: 'S', terraced: 'T', flat: 'F' })) {
      const want = data.filter((r) => r.town === 'LONDON' && r.type === code).sort(newestFirst);
      const r = (await get('/v1/property/price-paid/search', { town: 'LONDON', property_type: name })).envelope as any;
      expect(r.data.pagination.total).toBe(want.length);
      expect(r.data.transactions).toEqual(want.slice(0, 25).map(expectedItem));
    }
    const bad = await get('/v1/property/price-paid/search', { town: 'LONDON', property_type: 'other' });
    expect(bad.status).toBe(400);
    expect((bad.envelope as any).error.code).toBe('invalid_parameter');
  });

  it('district search, and no filter at all is a 400', async () => {
    const want = data.filter((r) => r.district === 'BIRMINGHAM').sort(newestFirst);
    const r = (await get('/v1/property/price-paid/search', { district: 'birmingham' })).envelope as any;
    expect(r.data.pagination.total).toBe(want.length);
    expect(r.data.transactions).toEqual(want.map(expectedItem));
    const none = await get('/v1/property/price-paid/search', {});
    expect(none.status).toBe(400);
    // a blank filter passes the route's requireOneOf but is no filter: still a 400, not a scan of every sale
    expect((await get('/v1/property/price-paid/search', { postcode: '  ' })).status).toBe(400);
    expect((await get('/v1/property/price-paid/statistics', { town: ' ' })).status).toBe(400);
    const empty = (await get('/v1/property/price-paid/search', { postcode: 'ZZ99 9ZZ' })).envelope as any;
    expect(empty.data).toEqual({ transactions: [], pagination: { page: 1, per_page: 25, total: 0 } });
  });
});

describe('price-paid address', () => {
  it('street, number (PAON or SAON), postcode, town and dates', async () => {
    const street = data.find((r) => r.street && data.filter((x) => x.street === r.street).length > 1)!.street;
    const want = data.filter((r) => r.street === street).sort(newestFirst);
    const r = (await get('/v1/property/price-paid/address', { street: street.toLowerCase() })).envelope as any;
    expect(r.data.pagination.total).toBe(want.length);
    expect(r.data.transactions).toEqual(want.map(expectedItem));
    const one = want[0]!;
    const n = (await get('/v1/property/price-paid/address', { street, number: one.paon, postcode: one.postcode, town: one.town })).envelope as any;
    expect(n.data.transactions).toEqual(data.filter((x) => x.street === street && (x.paon === one.paon || x.saon === one.paon) && x.postcode === one.postcode && x.town === one.town).sort(newestFirst).map(expectedItem));
  });

  it('number matches the SAON too; from/to bound the dates inclusively', async () => {
    const flat = data.find((r) => r.saon && r.street)!;
    const r = (await get('/v1/property/price-paid/address', { street: flat.street, number: flat.saon })).envelope as any;
    expect(r.data.transactions.map((t: any) => t.id)).toContain(flat.id);
    const street = 'KINGFISHER DRIVE';
    const all = data.filter((x) => x.street === street);
    expect(all.length).toBeGreaterThan(0);
    const d = all[0]!.date;
    const w = (await get('/v1/property/price-paid/address', { street, from: d, to: d })).envelope as any;
    expect(w.data.pagination.total).toBe(all.filter((x) => x.date === d).length);
    const bad = await get('/v1/property/price-paid/address', { street, from: '2026-02-30' });
    expect(bad.status).toBe(400);
    const rev = await get('/v1/property/price-paid/address', { street, from: '2026-01-02', to: '2026-01-01' });
    expect(rev.status).toBe(400);
    const missing = await get('/v1/property/price-paid/address', {});
    expect(missing.status).toBe(400);
    expect((await get('/v1/property/price-paid/address', { street: '  ' })).status).toBe(400);
  });
});

describe('price-paid get', () => {
  it('by UUID with or without braces, any case', async () => {
    const r = data.find((x) => x.saon && x.locality)!;
    for (const id of [r.id, `{${r.id.toUpperCase()}}`]) {
      const res = await get(`/v1/property/price-paid/${encodeURIComponent(id)}`);
      expect(res.status).toBe(200);
      expect(res.envelope).toEqual({
        data: {
          ...expectedItem(r), paon: r.paon || null, saon: r.saon || null, street: r.street || null, locality: r.locality || null,
          town: r.town || null, district: r.district || null, county: r.county || null, ppd_category: r.category,
          // the CSV's Duration (F/L/U), under HM Land Registry's linked-data name
          estate_type: { F: 'freehold', L: 'leasehold' }[r.duration] ?? 'unknown',
        },
        meta: { ...META, as_of: data.map((x) => x.date).sort().pop(), ...(r.duration === 'U' ? { note: expect.stringContaining('estate_type is unknown') } : {}) },
      });
    }
  });

  it('finds rows added by a monthly update (id lookup table maintained incrementally)', async () => {
    const added = readPpd('pp-monthly-update-new-version.csv').filter((r) => r.status === 'A');
    for (const r of added.slice(0, 5)) {
      const res = await get(`/v1/property/price-paid/${r.id}`);
      expect(res.status).toBe(200);
      expect((res.envelope as any).data).toMatchObject(expectedItem(r));
    }
  });

  it("a sale whose tenure HM Land Registry publishes as U: tenure and estate_type are both the string 'unknown' (spec: strings), with a meta.note", async () => {
    // GENERATED: the first real row of pp-complete.csv with its Duration set to U and a new id (no U row is in the excerpt).
    const real = readFileSync(fixture('pp-complete.csv'), 'utf8').split('\n')[0]!;
    const cells = real.split('","');
    const id = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    cells[0] = `"{${id.toUpperCase()}}`;
    cells[6] = 'U';
    const mirrorDir = join(root, 'mirror-u');
    const csv = join(root, 'pp-u.csv');
    writeFileSync(csv, cells.join('","') + '\n');
    await syncDataset('price-paid', { mirrorDir, cacheDir: join(root, 'cache-u'), env: {}, from: csv, now: () => new Date('2026-11-21T10:00:00Z') });
    const res = await conforming('GET', `/v1/property/price-paid/${id}`, await getRoute(`/v1/property/price-paid/${id}`, {}, { ...ctx, mirrorDir }));
    expect(res.status).toBe(200);
    expect([res.envelope.data.tenure, res.envelope.data.estate_type]).toEqual(['unknown', 'unknown']);
    expect(res.envelope.meta.note).toMatch(/estate_type is unknown: HM Land Registry publishes this sale's tenure \(Duration\) as U/);
  });

  it('unknown or malformed ids are 404 not_found', async () => {
    for (const id of ['00000000-0000-4000-8000-00000000dead', 'not-a-uuid']) {
      const res = await get(`/v1/property/price-paid/${id}`);
      expect(res.status).toBe(404);
      expect((res.envelope as any).error.code).toBe('not_found');
    }
  });
});

describe('price-paid statistics (spec doc 2 "Sold-price statistics")', () => {
  const mean = (q: number[]) => (q.length ? Math.round(q.reduce((a, b) => a + b, 0) / q.length) : null);
  function expectedStats(rows: PpdRow[]) {
    const p = rows.map((r) => r.price);
    const by: Record<string, unknown> = {};
    for (const [code, name] of Object.entries(TYPES)) {
      if (name === 'other') continue; // the spec keys by_type by the four property types only
      const q = rows.filter((r) => r.type === code).map((r) => r.price);
      by[name] = { average: mean(q), median: q.length ? Math.round(median(q)) : null, count: q.length };
    }
    return {
      transaction_count: p.length,
      overall: { average: mean(p), median: p.length ? Math.round(median(p)) : null, min: p.length ? Math.min(...p) : null, max: p.length ? Math.max(...p) : null },
      by_type: by,
    };
  }
  const otherNote = (rows: PpdRow[]) => {
    const n = rows.filter((r) => r.type === 'O').length;
    return n ? { note: `overall includes ${n} sale(s) of type 'other' (commercial or unclassified, category B), which by_type does not list` } : {};
  };

  it('town: area echoed as a string, count, overall, by type (O in overall only, said in meta.note)', async () => {
    const rows = data.filter((r) => r.town === 'LONDON');
    const r = await get('/v1/property/price-paid/statistics', { town: 'london' });
    expect(r.status).toBe(200);
    expect(r.envelope).toEqual({ data: { area: 'LONDON', ...expectedStats(rows) }, meta: { ...META, as_of: data.map((x) => x.date).sort().pop(), ...otherNote(rows) } });
    expect(Object.keys((r.envelope as any).data.by_type).sort()).toEqual(['detached', 'flat', 'semi_detached', 'terraced']);
  });

  it('postcode area with a date range', async () => {
    const rows = data.filter((r) => /^S\d/.test(r.postcode) && r.date >= '1995-06-01' && r.date <= '2021-12-31');
    const r = (await get('/v1/property/price-paid/statistics', { postcode: 's', from: '1995-06-01', to: '2021-12-31' })).envelope as any;
    expect(r.data).toEqual({ area: 'S', period: { from: '1995-06-01', to: '2021-12-31' }, ...expectedStats(rows) });
  });

  it('an area with no sales has count 0 and null prices', async () => {
    const r = (await get('/v1/property/price-paid/statistics', { district: 'NOWHERE' })).envelope as any;
    expect(r.data).toEqual({ area: 'NOWHERE', ...expectedStats([]) });
  });
});

describe('price-paid rules', () => {
  it('address format', () => {
    expect(formatAddress({ saon: 'FLAT 3', paon: '12', street: 'DOWNING STREET', locality: null, town: 'LONDON' })).toBe('FLAT 3, 12 DOWNING STREET, LONDON');
    expect(formatAddress({ saon: null, paon: 'THE OLD RECTORY', street: 'BIDSTON ROAD', locality: 'CLAUGHTON', town: 'BIRKENHEAD' })).toBe('THE OLD RECTORY, BIDSTON ROAD, CLAUGHTON, BIRKENHEAD');
    expect(formatAddress({ saon: 'FLAT 2', paon: 'MAXWELL COURT, 8', street: 'SCHREIBER GRANGE', locality: null, town: 'WATFORD' })).toBe('FLAT 2, MAXWELL COURT, 8 SCHREIBER GRANGE, WATFORD');
    expect(formatAddress({ saon: null, paon: 'EDEN DALE', street: null, locality: 'CHILTON', town: 'FERRYHILL' })).toBe('EDEN DALE, CHILTON, FERRYHILL');
    expect(formatAddress({ saon: null, paon: '8', street: 'MATFEN PLACE', locality: 'NEWCASTLE UPON TYNE', town: 'NEWCASTLE UPON TYNE' })).toBe('8 MATFEN PLACE, NEWCASTLE UPON TYNE');
  });
  it('postcode classification', () => {
    expect(classifyPostcode('sw1a1aa')).toEqual({ kind: 'full', postcode: 'SW1A 1AA' });
    expect(classifyPostcode('SW1A')).toEqual({ kind: 'outward', outward: 'SW1A' });
    expect(classifyPostcode('ls')).toEqual({ kind: 'area', area: 'LS' });
    expect(classifyPostcode('LS8 3')).toEqual({ kind: 'prefix', prefix: 'LS8 3' });
  });
  it('no mirror → 503 dataset_not_synced with the sync command', async () => {
    const r = await getRoute('/v1/property/price-paid/search', { postcode: 'LS8' }, { ...ctx, mirrorDir: join(root, 'empty') });
    expect(r.status).toBe(503);
    expect((r.envelope as any).error.code).toBe('dataset_not_synced');
    expect((r.envelope as any).error.message).toContain('publicdata sync price-paid');
  });
});
