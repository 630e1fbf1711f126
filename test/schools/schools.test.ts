/**
 * schools: a sync from a real local HTTP server (GOV.UK Content API JSON → the management-information CSV,
 * served closing the connection after the body; the GIAS daily file of the clock's date), then the three
 * routes. Expected values are read from the fixtures here (test/schools/fixture.ts: own CSV parser,
 * own Windows-1252 table, grid conversion by hand), never from the code's output.
 */
import { SCHOOLS_INFO } from '../../src/domains/schools/datasets.js';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeAll, openDataset, query } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import type { SyncReport } from '../../sync/types.js';
import { ctxFor } from '../support/mirror-helper.js';
import { errorOf, getRoute } from '../support/route.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import {
  type CsvRow, expectedLatest, GIAS_GENERATED, GIAS_REAL, giasGenerated, giasReal, gridToWgs84ByHand, haversineKm, iso, MI_GRADED_GENERATED,
  MI_REAL, miGraded, miReal, val,
} from './fixture.js';

const up = useUpstreamServer('pd-schools-');
const MI_NAME = 'Management_information_-_state-funded_schools_-_latest_inspections_as_at_28_Feb_2026.csv';
const CONTENT = '/schools/api/content/government/statistical-data-sets/monthly-management-information-ofsteds-school-inspections-outcomes';
let mirror: string;
let report: SyncReport;
const real = giasReal();
const generated = giasGenerated();
const mi = miReal();
const byUrn = new Map<string, CsvRow>([...real, ...generated].map((r) => [r.URN!, r]));

/** The GIAS file served: the real extract's bytes, then the generated Leeds rows (header dropped). */
function giasBody(): Buffer {
  const gen = readFileSync(GIAS_GENERATED);
  const firstLineEnd = gen.indexOf(0x0a) + 1;
  return Buffer.concat([readFileSync(GIAS_REAL), Buffer.from('\r\n'), gen.subarray(firstLineEnd)]);
}

beforeAll(async () => {
  const s = up.server;
  s.set(CONTENT, JSON.stringify({
    title: 'State-funded schools inspections and outcomes: management information',
    details: { attachments: [
      { url: `${s.url}/media/0123456789abcdef01234567/Management_information_-_state-funded_schools_-_latest_inspections_as_at_31_Jan_2026.csv`, title: 'older' },
      { url: `${s.url}/media/fedcba9876543210fedcba98/${MI_NAME}`, title: 'latest', content_type: 'text/csv' },
      { url: `${s.url}/media/aaaaaaaaaaaaaaaaaaaaaaaa/Management_information_-_state-funded_schools_-_all_inspections_-_year_to_date_published_by_28_Feb_2026.csv` },
    ] },
  }), { contentType: 'application/json' });
  s.set(`/media/fedcba9876543210fedcba98/${MI_NAME}`, readFileSync(MI_REAL), { fault: { closeAfterBody: true } });
  s.set('/schools/edubase/downloads/public/edubasealldata20261121.csv', giasBody());
  const opts = up.syncOptions('2026-11-21T12:00:00Z');
  mirror = opts.mirrorDir;
  report = await syncDataset('schools', opts);
}, 60_000);

const get = (path: string, q: Record<string, string> = {}) => getRoute(path, q, ctxFor(mirror));
async function ok(path: string, q: Record<string, string> = {}): Promise<any> {
  const r = await get(path, q);
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope;
}

describe('sync', () => {
  it('loads both files, found through the Content API, with their dates', async () => {
    expect(report.status).toBe('synced');
    expect(report.files.map((f) => f.name).sort()).toEqual(['edubasealldata20261121.csv', MI_NAME].sort());
    expect(report.as_of).toBe('2026-02-28');
    const conn = await openDataset(SCHOOLS_INFO, mirror);
    const rows = await query(conn, "SELECT source, strftime(published, '%Y-%m-%d') AS published, layout, encoding, rows FROM sources ORDER BY source");
    expect(rows).toEqual([
      { source: 'gias', published: '2026-11-21', layout: null, encoding: 'windows-1252', rows: real.length + generated.length },
      { source: 'mi', published: '2026-02-28', layout: 'report_card', encoding: 'utf-8', rows: mi.length },
    ]);
  });

  it('answers up_to_date for the same files', async () => {
    const again = await syncDataset('schools', { ...up.syncOptions('2026-11-21T12:00:00Z'), mirrorDir: mirror });
    expect(again.status).toBe('up_to_date');
  });

  it('a changed register with an unchanged management-information file: only the register is read again', async () => {
    const conn0 = await openDataset(SCHOOLS_INFO, mirror);
    const before = await query(conn0, 'SELECT source, CAST(loaded_at AS VARCHAR) AS t FROM sources ORDER BY source');
    await closeAll();
    up.server.set('/schools/edubase/downloads/public/edubasealldata20261121.csv', Buffer.concat([giasBody(), Buffer.from('\r\n')]));
    const again = await syncDataset('schools', { ...up.syncOptions('2026-11-21T12:00:00Z'), mirrorDir: mirror });
    expect(again.status).toBe('synced');
    await closeAll();
    const after = await query(await openDataset(SCHOOLS_INFO, mirror), 'SELECT source, CAST(loaded_at AS VARCHAR) AS t FROM sources ORDER BY source');
    expect(after[1]).toEqual(before[1]); // mi: copied, same load time
    expect(after[0]!.t).not.toBe(before[0]!.t); // gias: loaded again
  });

  it("before GIAS's overnight build: today's edubasealldata file is missing, the previous day's is loaded and the summary says so", async () => {
    // the server holds edubasealldata20261121.csv only; at 06:00 UK time on 22 November today's file is not built yet
    const o = up.syncOptions('2026-11-22T06:00:00Z');
    const before = up.server.requests.length;
    const r = await syncDataset('schools', o);
    expect(r.status).toBe('synced');
    expect(r.files.map((f) => f.name)).toContain('edubasealldata20261121.csv');
    expect(r.note).toMatch(/GIAS had not yet published today's edubasealldata20261122\.csv \(it is built overnight\): loaded the previous day's edubasealldata20261121\.csv/);
    // today's was asked for (and missing) before the previous day's was taken
    const asked = up.server.requests.slice(before).filter((q) => q.path.includes('edubasealldata')).map((q) => [q.path.split('/').pop(), q.status]);
    expect(asked[0]).toEqual(['edubasealldata20261122.csv', 404]);
    await closeAll();
    const rows = await query(await openDataset(SCHOOLS_INFO, o.mirrorDir), "SELECT strftime(published, '%Y-%m-%d') AS p FROM sources WHERE source = 'gias'");
    expect(rows).toEqual([{ p: '2026-11-21' }]);
    await closeAll();
  });
});

describe('GET /v1/schools/{urn}: the real GIAS rows field by field', () => {
  for (const urn of ['100000', '100004']) {
    it(`URN ${urn}`, async () => {
      const g = byUrn.get(urn)!;
      const env = await ok(`/v1/schools/${urn}`);
      const d = env.data;
      const numOrNull = (v: string | undefined) => (val(v) === null ? null : Number(v));
      expect(d).toMatchObject({
        urn: Number(g.URN), name: g.EstablishmentName, phase: g['PhaseOfEducation (name)']!.toLowerCase(), type: g['TypeOfEstablishment (name)'],
        status: g['EstablishmentStatus (name)']!.toLowerCase(),
        local_authority: { code: g['LA (code)'], name: g['LA (name)'] }, postcode: g.Postcode,
        address: { lines: [g.Street, g.Locality, g.Address3].filter((x) => x), town: g.Town },
        open_date: iso(g.OpenDate), close_date: iso(g.CloseDate),
        age_range: { low: Number(g.StatutoryLowAge), high: Number(g.StatutoryHighAge) },
        gender: g['Gender (name)'], religious_character: g['ReligiousCharacter (name)'], admissions_policy: g['AdmissionsPolicy (name)'],
        pupils: numOrNull(g.NumberOfPupils), capacity: numOrNull(g.SchoolCapacity),
        latest_inspection: null, previous_graded_inspection: null, report_url: null,
      });
      const want = gridToWgs84ByHand(Number(g.Easting), Number(g.Northing));
      expect(Math.abs(d.location.latitude - want.latitude)).toBeLessThan(1e-5);
      expect(Math.abs(d.location.longitude - want.longitude)).toBeLessThan(1e-5);
      expect(env.meta.note).toMatch(/no inspection of this school/);
      expect(env.meta.warning).toMatch(/inspection date/);
      expect(env.meta.register_as_of).toBe('2026-11-21');
    });
  }

  it("carries the register's LSOA and ward codes (values read by hand from the real GIAS excerpt)", async () => {
    // gias-edubasealldata-ExampleImportFile.csv: URN 100000 `LSOA (code)` E01032739, `LSOA (name)` City of London 001F,
    // `AdministrativeWard (code)` E05009308, `(name)` Portsoken; URN 100004: E01000901 Camden 007D, E05000136 Haverstock
    expect((await ok('/v1/schools/100000')).data).toMatchObject({
      lsoa: { code: 'E01032739', name: 'City of London 001F' }, ward: { code: 'E05009308', name: 'Portsoken' },
    });
    const list = (await ok('/v1/schools', { name: 'sherborne', status: 'all' })).data;
    expect(list.map((s: any) => [s.urn, s.lsoa, s.ward])).toEqual([
      [100004, { code: 'E01000901', name: 'Camden 007D' }, { code: 'E05000136', name: 'Haverstock' }],
    ]);
    // the generated Leeds rows leave both columns blank: null, never an invented area
    expect((await ok('/v1/schools/107809')).data).toMatchObject({ lsoa: null, ward: null });
  });

  it('the closed school is closed, with its close date', async () => {
    const d = (await ok('/v1/schools/100004')).data;
    expect([d.status, d.close_date]).toEqual(['closed', '1992-08-31']);
  });

  it('a Windows-1252 name (curly quotes, dash, accents) is decoded', async () => {
    expect((await ok('/v1/schools/149901')).data.name).toBe('St Thérèse’s Catholic Primary School – “Généré”');
  });
});

describe('the real management-information rows', () => {
  it('every Leeds school has the latest inspection worked out from the row (framework, number, date)', async () => {
    const env = await ok('/v1/schools', { local_authority: 'Leeds', per_page: '100' });
    expect(env.pagination.total).toBe(mi.length + 1);
    const got = new Map<number, any>(env.data.map((s: any) => [s.urn, s.latest_inspection]));
    for (const m of mi) {
      const want = expectedLatest(m);
      const li = got.get(Number(m.URN));
      expect(li ? { framework: li.framework, number: li.inspection_number, start: li.start_date } : null).toEqual(want);
    }
    expect(got.get(149901)).toBeNull();
  });

  it('the report-card school: grades as published, no overall judgement, with meta.note, the OEIF inspection as previous', async () => {
    const m = mi.find((r) => val(r['Inspection number of latest full inspection']) !== null)!;
    const env = await ok(`/v1/schools/${m.URN}`);
    const li = env.data.latest_inspection;
    expect(li).toMatchObject({
      framework: 'report_card', inspection_number: m['Inspection number of latest full inspection'], start_date: iso(m['Inspection start date']),
      publication_date: iso(m['Publication date']), overall_effectiveness: null, category_of_concern: val(m['Category of concern']),
    });
    expect(li.grades).toEqual({
      safeguarding: m['Safeguarding standards'] === 'Met' ? 'met' : m['Safeguarding standards'], inclusion: val(m.Inclusion),
      curriculum_and_teaching: val(m['Curriculum and teaching']), achievement: val(m.Achievement), attendance_and_behaviour: val(m['Attendance and behaviour']),
      personal_development_and_wellbeing: val(m['Personal development and wellbeing']), early_years: val(m['Early years (where applicable)']),
      post_16: val(m['Post-16 provision (where applicable)']), leadership_and_governance: val(m['Leadership and governance']),
    });
    expect(env.meta.note).toMatch(/Report-card/);
    const labels = ['outstanding', 'good', 'requires_improvement', 'inadequate'];
    expect(env.data.previous_graded_inspection).toMatchObject({
      framework: 'graded', inspection_number: m['Inspection number of latest OEIF graded inspection'],
      start_date: iso(m['Inspection start date of latest OEIF graded inspection']),
      overall_effectiveness: labels[Number(m['Latest OEIF overall effectiveness']) - 1],
    });
  });

  it("a graded inspection published 'Not judged' has overall_effectiveness null and says why", async () => {
    const m = mi.find((r) => r['Latest OEIF overall effectiveness'] === 'Not judged' && expectedLatest(r)?.framework === 'graded')!;
    const env = await ok(`/v1/schools/${m.URN}`);
    expect(env.data.latest_inspection).toMatchObject({ framework: 'graded', overall_effectiveness: null });
    expect(env.data.latest_inspection.grades.quality_of_education).toEqual(
      val(m['Latest OEIF quality of education']) === null ? null : expect.objectContaining({ grade: Number(m['Latest OEIF quality of education']) }),
    );
    expect(env.meta.note).toMatch(/September 2024/);
  });

  it('an ungraded outcome is given as published; NULL and blank markers are null', async () => {
    const m = mi.find((r) => expectedLatest(r)?.framework === 'ungraded')!;
    const env = await ok(`/v1/schools/${m.URN}`);
    expect(env.data.latest_inspection).toMatchObject({ framework: 'ungraded', outcome: m['Ungraded inspection overall outcome'], overall_effectiveness: null, category_of_concern: null });
    expect(env.meta.note).toMatch(/ungraded inspection/);
    // the report-card school's category of concern is blank in the file, others NULL: all null
    const all = (await ok('/v1/schools', { local_authority: '383', per_page: '100' })).data;
    expect(all.every((s: any) => s.latest_inspection === null || s.latest_inspection.category_of_concern === null)).toBe(true);
  });

  it('statistics count what the rows say', async () => {
    const d = (await ok('/v1/schools/inspections/statistics', { local_authority: 'E08000035' })).data;
    const fw: Record<string, number> = { report_card: 0, graded: 0, ungraded: 0 };
    const overall: Record<string, number> = { outstanding: 0, good: 0, requires_improvement: 0, inadequate: 0, not_judged: 0 };
    const rc: Record<string, Record<string, number>> = {};
    const keys = ['outstanding', 'good', 'requires_improvement', 'inadequate'];
    for (const m of mi) {
      const l = expectedLatest(m)!;
      fw[l.framework]!++;
      if (l.framework === 'graded') overall[keys[Number(m['Latest OEIF overall effectiveness']) - 1] ?? 'not_judged']!++;
      if (l.framework === 'report_card') {
        for (const [k, h] of [['safeguarding', 'Safeguarding standards'], ['inclusion', 'Inclusion'], ['achievement', 'Achievement'], ['post_16', 'Post-16 provision (where applicable)']]) {
          // safeguarding as the spec's slug (Met -> met), the other areas' grades as published
          const g = k === 'safeguarding' ? m[h!]!.trim().toLowerCase().replace(/ /g, '_') : m[h!]!;
          if (val(m[h!]) !== null) ((rc[k!] ??= {})[g] = ((rc[k!] ?? {})[g] ?? 0) + 1);
        }
      }
    }
    expect(d).toMatchObject({ school_count: mi.length + 1, inspected_count: mi.length, by_framework: fw, overall_effectiveness: overall, as_of: '2026-02-28' });
    for (const [k, v] of Object.entries(rc)) expect(d.report_card[k]).toEqual(v);
  });
});

describe('GET /v1/schools filters', () => {
  it('near: within the radius, nearest first, distances as computed here', async () => {
    const centre = gridToWgs84ByHand(Number(byUrn.get('107809')!.Easting), Number(byUrn.get('107809')!.Northing));
    const env = await ok('/v1/schools', { lat: String(centre.latitude), lng: String(centre.longitude), radius_km: '5', per_page: '100' });
    const want = [...byUrn.values()]
      .filter((g) => g['EstablishmentStatus (name)'] === 'Open')
      .map((g) => ({ urn: Number(g.URN), km: haversineKm(centre, gridToWgs84ByHand(Number(g.Easting), Number(g.Northing))) }))
      .filter((x) => x.km <= 5 - 0.01).sort((a, b) => a.km - b.km);
    const got = env.data.map((s: any) => s.urn);
    expect(got.slice(0, want.length)).toEqual(want.map((w) => w.urn));
    // nothing beyond the radius by the distance computed here from the register's own grid references
    for (const s of env.data) {
      const g = byUrn.get(String(s.urn))!;
      expect(haversineKm(centre, gridToWgs84ByHand(Number(g.Easting), Number(g.Northing)))).toBeLessThanOrEqual(5.01);
    }
    for (const s of env.data) expect(Math.abs(s.distance_km - haversineKm(centre, s.location))).toBeLessThan(0.002);
    expect(env.data.every((s: any, i: number) => i === 0 || s.distance_km >= env.data[i - 1].distance_km)).toBe(true);
  });

  it('status, phase, name, postcode', async () => {
    expect((await ok('/v1/schools', { name: 'sherborne' })).data).toEqual([]);
    expect((await ok('/v1/schools', { name: 'sherborne', status: 'closed' })).data.map((s: any) => s.urn)).toEqual([100004]);
    expect((await ok('/v1/schools', { phase: 'nursery', status: 'all' })).data.map((s: any) => s.urn)).toEqual([100004]);
    const pc = [...byUrn.values()].filter((g) => g.Postcode!.replace(/\s/g, '').startsWith('LS20')).map((g) => Number(g.URN)).sort();
    expect((await ok('/v1/schools', { postcode: 'ls20' })).data.map((s: any) => s.urn).sort()).toEqual(pc);
    expect(pc.length).toBeGreaterThan(0);
  });

  it('type (code or name substring) and statistics by region', async () => {
    const byType = (t: string) => [...byUrn.values()].filter((g) => g['EstablishmentStatus (name)'] === 'Open' &&
      (g['TypeOfEstablishment (code)'] === t || g['TypeOfEstablishment (name)']!.toLowerCase().includes(t.toLowerCase()))).map((g) => Number(g.URN)).sort();
    for (const t of ['02', 'foundation']) {
      const got = (await ok('/v1/schools', { type: t, per_page: '100' })).data.map((s: any) => s.urn).sort();
      expect(got).toEqual(byType(t));
      expect(got.length).toBeGreaterThan(0);
    }
    const london = [...byUrn.values()].filter((g) => g['GOR (name)'] === 'London' && g['EstablishmentStatus (name)'] === 'Open').length;
    expect((await ok('/v1/schools/inspections/statistics', { region: 'london' })).data).toMatchObject({ school_count: london, inspected_count: 0 });
    expect((await ok('/v1/schools/inspections/statistics', { region: 'D' })).data.school_count).toBe(mi.length + 1);
  });
});

describe('bad input: 400 before any data access, 404 for an unknown URN', () => {
  const none = ctxFor('/nonexistent-mirror');
  const cases: Array<[string, Record<string, string>]> = [
    ['/v1/schools/abc', {}], ['/v1/schools/12.5', {}], ['/v1/schools', { phase: 'college' }], ['/v1/schools', { status: 'shut' }],
    ['/v1/schools', { lat: '51.5', lng: '-0.1', radius_km: '26' }], ['/v1/schools', { lat: '51.5' }], ['/v1/schools', { lng: '-0.1' }],
    ['/v1/schools/inspections/statistics', { phase: 'x' }],
  ];
  for (const [path, q] of cases) {
    it(`${path} ${JSON.stringify(q)}`, async () => {
      expect(errorOf(await getRoute(path, q, none))).toMatchObject({ status: 400, code: 'invalid_parameter' });
    });
  }
  it('unknown URN', async () => {
    expect(errorOf(await get('/v1/schools/999999'))).toMatchObject({ status: 404, code: 'not_found' });
  });
  it('not synced: dataset_not_synced', async () => {
    expect(errorOf(await getRoute('/v1/schools/100000', {}, none))).toMatchObject({ status: 503, code: 'dataset_not_synced' });
  });
});

describe('a second sync with only the graded-layout file (--from)', () => {
  let second: SyncReport;
  const graded = miGraded();
  beforeAll(async () => {
    await closeAll();
    second = await syncDataset('schools', { ...up.syncOptions('2026-11-22T12:00:00Z'), mirrorDir: mirror, from: [MI_GRADED_GENERATED], allowShrink: true });
    await closeAll();
  }, 60_000);

  it('keeps the register from the previous sync and loads the graded layout', async () => {
    expect(second.status).toBe('synced');
    const conn = await openDataset(SCHOOLS_INFO, mirror);
    const rows = await query(conn, "SELECT source, layout, strftime(published, '%Y-%m-%d') AS published FROM sources ORDER BY source");
    expect(rows).toEqual([{ source: 'gias', layout: null, published: '2026-11-21' }, { source: 'mi', layout: 'graded', published: null }]);
    // a file whose name states no date: as_of null (the sync date would pass for the outcomes' date), and the warning says why
    const env = await ok('/v1/schools/100000');
    expect(env.meta.as_of).toBeNull();
    expect(env.meta.warning).toMatch(/date is not known/);
  });

  it('graded judgements with grade and label, safeguarding as a boolean, the previous graded inspection', async () => {
    const m = graded.find((r) => r['Overall effectiveness'] === '1')!;
    const d = (await ok(`/v1/schools/${m.URN}`)).data;
    const labels = ['Outstanding', 'Good', 'Requires improvement', 'Inadequate'];
    const j = (v: string | undefined) => (val(v) !== null && /^[1-4]$/.test(v!) ? { grade: Number(v), label: labels[Number(v) - 1] } : null);
    expect(d.latest_inspection).toMatchObject({ framework: 'graded', overall_effectiveness: 'outstanding', inspection_number: m['Inspection number of latest graded inspection'], start_date: iso(m['Inspection start date']) });
    expect(d.latest_inspection.grades).toEqual({
      overall_effectiveness: j(m['Overall effectiveness']), quality_of_education: j(m['Quality of education']), behaviour_and_attitudes: j(m['Behaviour and attitudes']),
      personal_development: j(m['Personal development']), leadership_and_management: j(m['Effectiveness of leadership and management']),
      early_years: j(m['Early years provision (where applicable)']), sixth_form: j(m['Sixth form provision (where applicable)']),
      safeguarding_effective: m['Safeguarding is effective?'] === 'Yes',
    });
    expect(d.previous_graded_inspection).toMatchObject({ inspection_number: m['Previous graded inspection number'], start_date: iso(m['Previous inspection start date']), overall_effectiveness: 'good' });
    const sm = graded.find((r) => r['Category of concern'] === 'SM')!;
    expect((await ok(`/v1/schools/${sm.URN}`)).data.latest_inspection).toMatchObject({ overall_effectiveness: 'inadequate', category_of_concern: 'SM' });
    expect((await ok(`/v1/schools/${sm.URN}`)).data.latest_inspection.grades.safeguarding_effective).toBe(false);
  });

  it('a Leeds school the graded file does not list now has no inspection', async () => {
    const listed = new Set(graded.map((r) => r.URN));
    const missing = mi.find((r) => !listed.has(r.URN!))!;
    expect((await ok(`/v1/schools/${missing.URN}`)).data.latest_inspection).toBeNull();
  });

  it('an unrecognised file fails the sync and the previous data still answers', async () => {
    const bad = await syncDataset('schools', { ...up.syncOptions('2026-11-23T12:00:00Z'), mirrorDir: mirror, from: [GIAS_REAL.replace('gias-edubasealldata-ExampleImportFile.csv', 'README.md')] }).catch((e: Error) => e);
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toMatch(/header not recognised/);
    await closeAll();
    expect((await ok('/v1/schools/100000')).data.name).toBe(real[0]!.EstablishmentName);
  });
});
