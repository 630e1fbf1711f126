/**
 * Reviewer defects of the schools domain, over a mirror synced from the fixtures (the generated GIAS rows of
 * the real Leeds MI excerpt's schools, and the real MI rows). Expected values are read from the fixtures with
 * the tests' own CSV parser (test/schools/fixture.ts), never from the code's output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteCall } from '../../src/contract/types.js';
import { GOR_REGIONS, SCHOOL_PHASES } from '../../src/domains/schools/routes.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, ctxFor, tempDir } from '../support/mirror-helper.js';
import { runCli } from '../support/cli.js';
import { errorOf, getRoute } from '../support/route.js';
import { expectedLatest, GIAS_GENERATED, giasGenerated, MI_REAL, miReal, val } from './fixture.js';

const dirs: string[] = [];
let dataDir: string;
const gias = giasGenerated();
const open = gias.filter((g) => g['EstablishmentStatus (name)'] === 'Open');
const mi = miReal();
const none = ctxFor('/nonexistent-mirror');

beforeAll(async () => {
  dataDir = tempDir('pd-schools-fixes-');
  dirs.push(dataDir);
  await syncDataset('schools', { mirrorDir: `${dataDir}/mirror`, cacheDir: `${dataDir}/cache`, env: {}, from: [GIAS_GENERATED, MI_REAL] } as never);
}, 60_000);
afterAll(() => cleanup(dirs));

const get = (q: Record<string, string>, path = '/v1/schools') => getRoute(path, q, ctxFor(`${dataDir}/mirror`));
const urns = async (q: Record<string, string>) => {
  const r = await get({ ...q, per_page: '100' });
  expect(r.status).toBe(200);
  return ((r.envelope as any).data as Array<{ urn: number }>).map((s) => s.urn).sort();
};
/** The open fixture schools whose postcode passes `keep`, read from the GIAS file here. */
const openWhere = (keep: (postcode: string) => boolean) => open.filter((g) => keep(g.Postcode!)).map((g) => Number(g.URN)).sort();
/** The route call a command would make (captured, not run), its exit code and stderr. */
async function callOf(args: string[]): Promise<{ call?: RouteCall; code: number; stderr: string }> {
  let call: RouteCall | undefined;
  const r = await runCli(args, { runCall: async (c) => { call = c; return 0; } });
  return { ...(call ? { call } : {}), code: r.code, stderr: r.stderr };
}

describe('postcode: a space ends the outward code', () => {
  it("'LS2 ' is LS2 only (not LS20-LS28); 'LS1 ' matches nothing in LS15-LS19", async () => {
    const ls2 = openWhere((p) => p.split(' ')[0] === 'LS2');
    expect(ls2.length).toBe(1); // LS2 9EX
    expect(await urns({ postcode: 'LS2 ' })).toEqual(ls2);
    expect(await urns({ postcode: 'ls2 9' })).toEqual(ls2);
    expect(await urns({ postcode: 'LS2 9EX' })).toEqual(ls2);
    expect(await urns({ postcode: 'LS2 8' })).toEqual([]);
    expect(openWhere((p) => p.split(' ')[0] === 'LS1')).toEqual([]);
    expect(await urns({ postcode: 'LS1 ' })).toEqual([]);
  });
  it('without a space it is still a prefix of the postcode with its spaces taken out', async () => {
    const prefix = openWhere((p) => p.replace(/ /g, '').startsWith('LS2'));
    expect(prefix.length).toBeGreaterThan(10); // LS2 and LS20 to LS28
    expect(await urns({ postcode: 'LS2' })).toEqual(prefix);
    expect(await urns({ postcode: 'ls289' })).toEqual(openWhere((p) => p.replace(/ /g, '').startsWith('LS289')));
  });
});

describe('a blank or one-character name, authority, type or postcode is refused before the mirror is opened', () => {
  it('the CLI: spaces only is invalid_parameter, exit 2, no call made', async () => {
    for (const args of [['schools', '   '], ['schools', '--authority', '  '], ['schools', 'stats', '--authority', ' '], ['schools', '--postcode', ' ']]) {
      const r = await callOf(args);
      expect(r.call).toBeUndefined();
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/invalid_parameter: Invalid (argument <name>|option --authority|option --postcode): empty/);
    }
  });
  it('the API: one character besides spaces is 400 (the length is that of the trimmed value), with no mirror', async () => {
    const bad: Array<Record<string, string>> = [{ name: ' a ' }, { local_authority: ' L  ' }, { type: '  0 ' }, { postcode: ' L ' }];
    for (const q of bad) {
      expect(errorOf(await getRoute('/v1/schools', q, none))).toMatchObject({ status: 400, code: 'invalid_parameter' });
    }
    expect(errorOf(await getRoute('/v1/schools/inspections/statistics', { local_authority: ' x ' }, none))).toMatchObject({ status: 400 });
  });
  it('two characters besides spaces are a filter (trimmed): the real mirror answers', async () => {
    expect(await urns({ local_authority: '  leeds ' })).toEqual(openWhere(() => true));
  });
});

describe('--near and --radius-km', () => {
  it('--near out of range names --near, not --lat or --lng, before data access (no mirror here)', async () => {
    // the route's bounds (lat 49 to 61, lng -9 to 2.5)
    for (const [args, bound] of [
      [['schools', '--near', '40,-1.5'], 'at least 49'],
      [['schools', '--near', '53.8,5'], 'at most 2.5'],
    ] as const) {
      const r = await runCli([...args, '--source', 'local'], { env: { PUBLICDATA_DATA_DIR: join(dataDir, 'none') } });
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
      expect(r.stderr).toContain(`invalid_parameter: Invalid option --near: must be ${bound}.`);
      expect(r.stderr).not.toMatch(/--lat|--lng/);
    }
  });
  it('--radius-km without --near is refused (CLI and API), before data access', async () => {
    // the route's `requires` (radius_km needs lat), checked before the mirror: none here
    const r = await runCli(['schools', '--radius-km', '5', '--source', 'local'], { env: { PUBLICDATA_DATA_DIR: join(dataDir, 'none') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid_parameter: Invalid option --radius-km: needs --near as well.');
    expect(errorOf(await getRoute('/v1/schools', { radius_km: '5' }, none))).toMatchObject({ status: 400, code: 'invalid_parameter' });
    // with a point it is a radius, and the default (not sent) needs none
    expect((await callOf(['schools', '--near', '53.8,-1.55', '--radius-km', '5'])).call).toMatchObject({ query: { lat: '53.8', lng: '-1.55', radius_km: '5' } });
    expect((await get({})).status).toBe(200);
  });
  it('the --near table always shows distance_km', async () => {
    const r = await runCli(['schools', '--near', '53.8,-1.55', '--radius-km', '5', '--per-page', '3'], { tty: true, columns: 100, env: { PUBLICDATA_DATA_DIR: dataDir } });
    expect(r.code).toBe(0);
    const header = r.stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.includes('urn'))!;
    expect(header).toMatch(/distance_km/);
  });
});

describe('statistics: region from the GIAS list; safeguarding as the spec slug', () => {
  it('an unknown region is 400 before data access; a known one any case, code or name', async () => {
    expect(errorOf(await getRoute('/v1/schools/inspections/statistics', { region: 'Narnia' }, none))).toMatchObject({ status: 400, code: 'invalid_parameter' });
    const yorkshire = open.filter((g) => g['GOR (name)'] === 'Yorkshire and the Humber').length;
    expect(yorkshire).toBe(open.length);
    for (const region of ['yorkshire and the humber', 'D', 'd']) {
      expect(((await get({ region }, '/v1/schools/inspections/statistics')).envelope as any).data.school_count).toBe(yorkshire);
    }
    // a region of the list with no school in the mirror: an empty 200
    expect(((await get({ region: 'london' }, '/v1/schools/inspections/statistics')).envelope as any).data.school_count).toBe(0);
  });
  it('the region vocabulary (issue 37): the ONS name, slug or GSS code of a region is its GIAS region; Scotland is refused', async () => {
    const yorkshire = open.filter((g) => g['GOR (name)'] === 'Yorkshire and the Humber').length;
    for (const region of ['E12000003', 'e12000003', 'Yorkshire and The Humber', 'yorkshire_and_the_humber', 'Yorkshire & the Humber']) {
      const r = await get({ region }, '/v1/schools/inspections/statistics');
      expect([region, r.status, (r.envelope as any).data?.school_count]).toEqual([region, 200, yorkshire]);
    }
    // London's GSS code is GIAS's London: no Leeds school there
    expect(((await get({ region: 'E12000007' }, '/v1/schools/inspections/statistics')).envelope as any).data.school_count).toBe(0);
    // GIAS holds no Scottish region: refused before data access, saying why
    const scot = errorOf(await getRoute('/v1/schools/inspections/statistics', { region: 'S92000003' }, none));
    expect(scot).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(scot.message).toContain("'S92000003' is the ONS country Scotland (S92000003), which is not one of the register's regions");
    expect(errorOf(await getRoute('/v1/schools/inspections/statistics', { region: 'Londn' }, none)).message).toContain("did you mean 'London'?");
  });
  it('the route lists the regions of data/schools/reference.json (and its phases)', () => {
    const ref = JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'schools', 'reference.json'), 'utf8'));
    expect(GOR_REGIONS.map(([code, name]) => ({ code, name }))).toEqual(ref.regions.codes.map((c: any) => ({ code: c.code, name: c.name })));
    expect([...SCHOOL_PHASES]).toEqual(ref.phases.codes.map((c: any) => c.slug));
  });
  it("safeguarding counts are keyed 'met' / 'not_met' as the detail's grades are", async () => {
    const rc = mi.filter((m) => expectedLatest(m)?.framework === 'report_card');
    expect(rc.length).toBeGreaterThan(0);
    const want: Record<string, number> = {};
    for (const m of rc) {
      const v = val(m['Safeguarding standards']);
      if (v !== null) {
        const k = v.trim().toLowerCase() === 'met' ? 'met' : v.trim().toLowerCase() === 'not met' ? 'not_met' : v;
        want[k] = (want[k] ?? 0) + 1;
      }
    }
    const d = ((await get({}, '/v1/schools/inspections/statistics')).envelope as any).data;
    expect(d.report_card.safeguarding).toEqual(want);
    const detail = ((await get({}, `/v1/schools/${rc[0]!.URN}`)).envelope as any).data;
    expect(Object.keys(want)).toContain(detail.latest_inspection.grades.safeguarding);
  });
});
