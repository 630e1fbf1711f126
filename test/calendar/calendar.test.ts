/**
 * /v1/calendar routes against the shipped GOV.UK snapshot. Expected values are computed here from the
 * fixture file with plain JS, independently of src/domains/calendar.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import type { HandlerContext, SuccessEnvelope } from '../../src/contract/types.js';

const FIXTURE = join(__dirname, '..', 'fixtures', 'calendar', 'bank-holidays.json');
const raw = readFileSync(FIXTURE, 'utf8');
const govuk = JSON.parse(raw) as Record<string, { events: Array<{ title: string; date: string; notes: string; bunting: boolean }> }>;

const SLUGS: Array<[string, string]> = [
  ['england-and-wales', 'england_and_wales'],
  ['scotland', 'scotland'],
  ['northern-ireland', 'northern_ireland'],
];
type Item = { date: string; title: string; region: string; notes: string | null; bunting: boolean };
const ALL: Item[] = [];
for (const [div, slug] of SLUGS) {
  for (const e of govuk[div]!.events) ALL.push({ date: e.date, title: e.title, region: slug, notes: e.notes === '' ? null : e.notes, bunting: e.bunting });
}
const order = SLUGS.map((s) => s[1]);
ALL.sort((a, b) => a.date.localeCompare(b.date) || order.indexOf(a.region) - order.indexOf(b.region));

const dirs: string[] = [];
function ctxAt(iso: string): HandlerContext {
  const d = mkdtempSync(join(tmpdir(), 'pd-cal-'));
  dirs.push(d);
  return { now: () => new Date(iso), env: {}, mirrorDir: d, cacheDir: d };
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function get(path: string, query: Record<string, string>, iso = '2026-11-21T12:00:00Z') {
  return getRoute(path, query, ctxAt(iso));
}
function okData(r: Awaited<ReturnType<typeof get>>) {
  expect(r.status).toBe(200);
  return r.envelope as SuccessEnvelope<any>;
}

describe('snapshot', () => {
  it('is the fixture, byte for byte', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'data', 'calendar', 'bank-holidays.json'), 'utf8')).toBe(raw);
  });
});

describe('GET /v1/calendar/regions', () => {
  it('lists the three regions with GOV.UK meta', async () => {
    const env = okData(await get('/v1/calendar/regions', {}));
    expect(env).toEqual({
      data: {
        regions: [
          { slug: 'england_and_wales', name: 'England and Wales' },
          { slug: 'scotland', name: 'Scotland' },
          { slug: 'northern_ireland', name: 'Northern Ireland' },
        ],
      },
      meta: {
        api_version: 'v1',
        licence: 'Open Government Licence v3.0',
        source: 'GOV.UK',
        source_url: 'https://www.gov.uk/bank-holidays',
      },
    });
  });
});

describe('GET /v1/calendar/bank-holidays', () => {
  it('returns the current and next calendar year, all regions, date then region', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays', {}));
    const expected = ALL.filter((h) => h.date >= '2026-01-01' && h.date <= '2027-12-31');
    expect(env.data.bank_holidays).toEqual(expected);
    expect(expected.length).toBeGreaterThan(50);
    expect(env.meta).toMatchObject({ api_version: 'v1', source: 'GOV.UK', source_url: 'https://www.gov.uk/bank-holidays', as_of: '2025-08-17' });
    expect(env.meta.warnings).toBeUndefined();
  });

  it('filters by region (the GOVDATA-NOTES example: Scotland 2026 starts with 1 and 2 January)', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays', { region: 'scotland' }));
    expect(env.data.bank_holidays.slice(0, 2)).toEqual([
      { date: '2026-01-01', title: 'New Year’s Day', region: 'scotland', notes: null, bunting: true },
      { date: '2026-01-02', title: '2nd January', region: 'scotland', notes: null, bunting: true },
    ]);
    expect(env.data.bank_holidays).toEqual(ALL.filter((h) => h.region === 'scotland' && h.date.startsWith('2026') || h.region === 'scotland' && h.date.startsWith('2027')));
  });

  it('maps notes "" to null and keeps real notes', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays', {}));
    const notes = new Set(env.data.bank_holidays.map((h: Item) => h.notes));
    expect(notes.has('')).toBe(false);
    expect(notes.has(null)).toBe(true);
    const withNotes = ALL.filter((h) => h.notes !== null && h.date >= '2026-01-01' && h.date <= '2027-12-31');
    expect(env.data.bank_holidays.filter((h: Item) => h.notes !== null)).toEqual(withNotes);
  });

  it('uses the UK date: 31 Dec 2025 23:30 UTC is still 2025', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays', {}, '2025-12-31T23:30:00Z'));
    const expected = ALL.filter((h) => h.date >= '2025-01-01' && h.date <= '2026-12-31');
    expect(env.data.bank_holidays).toEqual(expected);
  });

  it('rejects an unknown region with 400 invalid_parameter', async () => {
    // (GOV.UK's own 'england-and-wales' and 'wales' are accepted since the region vocabulary, issue 37: below)
    const r = await get('/v1/calendar/bank-holidays', { region: 'narnia' });
    expect(r.status).toBe(400);
    expect((r.envelope as any).error.code).toBe('invalid_parameter');
  });

  it('warns when the data ends less than six months ahead', async () => {
    // last date in the fixture
    const last = ALL[ALL.length - 1]!.date;
    expect(last).toBe('2027-12-28');
    const before = okData(await get('/v1/calendar/bank-holidays/2027', {}, '2027-06-27T12:00:00Z'));
    expect(before.meta.warnings).toBeUndefined();
    const after = okData(await get('/v1/calendar/bank-holidays/2027', {}, '2027-06-29T12:00:00Z'));
    expect(after.meta.warnings).toEqual([expect.stringContaining('ends on 2027-12-28')]);
    // in 2027 the list of "current and next year" also says that 2028 is not covered
    const list = okData(await get('/v1/calendar/bank-holidays', {}, '2027-09-01T12:00:00Z'));
    expect(list.data.bank_holidays).toEqual(ALL.filter((h) => h.date.startsWith('2027-')));
    expect(list.meta.warnings).toEqual([expect.stringContaining('nothing for 2028'), expect.stringContaining('ends on 2027-12-28')]);
  });
});

describe('GET /v1/calendar/bank-holidays/{year}', () => {
  it('returns one year', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays/2027', {}));
    expect(env.data.bank_holidays).toEqual(ALL.filter((h) => h.date.startsWith('2027-')));
  });

  it('one year and one region', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays/2024', { region: 'northern_ireland' }));
    const exp = ALL.filter((h) => h.date.startsWith('2024-') && h.region === 'northern_ireland');
    expect(env.data.bank_holidays).toEqual(exp);
    expect(exp.map((h) => h.title)).toContain('Battle of the Boyne (Orangemen’s Day)');
  });

  it('answers an uncovered year with an empty list and a warning', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays/2030', {}));
    expect(env.data.bank_holidays).toEqual([]);
    expect(env.meta.warnings).toEqual([expect.stringContaining('2030')]);
  });

  it.each(['26', '20260', 'abcd', '2026-27'])('rejects year %s with 400 invalid_year', async (y) => {
    const r = await get(`/v1/calendar/bank-holidays/${y}`, {});
    expect(r.status).toBe(400);
    expect((r.envelope as any).error.code).toBe('invalid_year');
  });
});

describe('GET /v1/calendar/bank-holidays/next', () => {
  function expectedNext(today: string, region?: string) {
    return order
      .filter((r) => region === undefined || r === region)
      .map((r) => ALL.find((h) => h.region === r && h.date >= today))
      .filter((h): h is Item => h !== undefined)
      .map((h) => ({ ...h, days_until: Math.round((Date.parse(h.date) - Date.parse(today)) / 86400000) }));
  }

  it('gives the next holiday per region with days_until', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays/next', {}));
    const exp = expectedNext('2026-11-21');
    expect(env.data.bank_holidays).toEqual(exp);
    // Scotland has St Andrew's Day (substitute) before Christmas
    expect(exp.map((h) => h.region)).toEqual(order);
    expect(exp[1]!.date < exp[0]!.date).toBe(true);
  });

  it('counts today as upcoming (days_until 0)', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays/next', { region: 'england_and_wales' }, '2026-12-25T09:00:00Z'));
    expect(env.data.bank_holidays).toEqual(expectedNext('2026-12-25', 'england_and_wales'));
    expect(env.data.bank_holidays[0].days_until).toBe(0);
  });

  it('is empty with warnings past the end of the data', async () => {
    const env = okData(await get('/v1/calendar/bank-holidays/next', {}, '2028-01-05T09:00:00Z'));
    expect(env.data.bank_holidays).toEqual([]);
    expect((env.meta.warnings as string[]).length).toBeGreaterThanOrEqual(1);
  });

  it('rejects an unknown region', async () => {
    const r = await get('/v1/calendar/bank-holidays/next', { region: 'isle of man' });
    expect(r.status).toBe(400);
    expect((r.envelope as any).error.code).toBe('invalid_parameter');
  });
});

describe('region in the region vocabulary (issue 37; data/calendar/regions.yaml)', () => {
  it('a country or English region by name or GSS code is its bank-holiday region', async () => {
    // on 2026-11-21 the next bank holiday in Scotland is St Andrew's Day (30 November, GOV.UK); in England and Wales Christmas Day
    const next = async (region: string) => okData(await get('/v1/calendar/bank-holidays/next', { region })).data.bank_holidays.map((h: any) => [h.date, h.region]);
    for (const region of ['S92000003', 'scotland', 'SCOTLAND']) expect(await next(region)).toEqual([['2026-11-30', 'scotland']]);
    for (const region of ['Wales', 'W92000004', 'North West', 'e12000007', 'england-and-wales']) expect(await next(region)).toEqual([['2026-12-25', 'england_and_wales']]);
    expect(await next('N92000002')).toEqual([['2026-12-25', 'northern_ireland']]);
  });
  it('Great Britain holds three divisions: refused, saying so', async () => {
    const r = await get('/v1/calendar/bank-holidays/next', { region: 'Great Britain' });
    expect(r.status).toBe(400);
    expect((r.envelope as any).error.message).toContain('holds more than one bank-holiday region');
  });
});
