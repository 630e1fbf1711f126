/**
 * Issue 37: with the real GIAS and Ofsted excerpts, none of the 40 inspected Leeds schools is in the register
 * extract. They used to load and vanish ("42 rows loaded, 0 rejected", no school answered). Now the sync
 * summary and `mirror status` count them, and the routes answer them from the management information's own
 * name, postcode and local authority, marked `in_register: false`. Expected values are read from the CSV here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncReport } from '../../sync/types.js';
import { syncDataset } from '../../src/sync-runner.js';
import { closeAll } from '../../src/mirror/db.js';
import { cleanup, ctxFor, tempDir } from '../support/mirror-helper.js';
import { runCli } from '../support/cli.js';
import { getRoute } from '../support/route.js';
import { GIAS_REAL, MI_REAL, giasReal, miReal } from './fixture.js';

let dataDir: string;
let report: SyncReport;
const mi = miReal();
const registered = new Set(giasReal().map((g) => g.URN));
const outside = mi.filter((m) => !registered.has(m.URN));

beforeAll(async () => {
  dataDir = tempDir('pd-schools-outside-');
  report = await syncDataset('schools', { mirrorDir: `${dataDir}/mirror`, cacheDir: `${dataDir}/cache`, env: {}, from: [GIAS_REAL, MI_REAL] });
  await closeAll();
}, 60_000);
afterAll(async () => {
  await closeAll();
  cleanup([dataDir]);
});

describe('inspections of schools not in the register', () => {
  it('every one of the real excerpt is outside the register extract', () => {
    expect(outside).toHaveLength(40);
  });

  it('the sync summary and mirror status count them', async () => {
    expect(report.note).toContain(`${outside.length} inspections of schools not in the register`);
    const st = await runCli(['mirror', 'status', 'schools', '--format', 'json'], { env: { PUBLICDATA_DATA_DIR: dataDir, PUBLICDATA_CACHE_DIR: `${dataDir}/cache` } });
    expect(JSON.parse(st.stdout).data[0].note).toContain(`${outside.length} inspection(s) of schools not in the register`);
  });

  it('the detail answers one from the management information, marked not in the register', async () => {
    const m = outside[0]!;
    const r = await getRoute(`/v1/schools/${m.URN}`, {}, ctxFor(`${dataDir}/mirror`));
    expect(r.status).toBe(200);
    const d = (r.envelope as any).data;
    expect(d).toMatchObject({
      urn: Number(m.URN), name: m['School name'], postcode: m.Postcode, in_register: false,
      local_authority: { code: null, name: m['Local authority'] }, status: null, phase: null,
    });
    expect(d.latest_inspection).not.toBeNull();
    expect(String((r.envelope as any).meta.note)).toContain(`URN ${m.URN} is not in the GIAS register`);
  });

  it('the search finds them by name and postcode (status open, the default), and the register school is marked in it', async () => {
    const m = outside[1]!;
    const byName = await getRoute('/v1/schools', { name: m['School name'] }, ctxFor(`${dataDir}/mirror`));
    expect((byName.envelope as any).data.map((s: any) => [s.urn, s.in_register])).toContainEqual([Number(m.URN), false]);
    const outward = m.Postcode.split(' ')[0]!;
    const byPostcode = await getRoute('/v1/schools', { postcode: `${outward} `, per_page: '100' }, ctxFor(`${dataDir}/mirror`));
    const want = outside.filter((x) => x.Postcode.split(' ')[0] === outward).map((x) => Number(x.URN)).sort((a, b) => a - b);
    expect((byPostcode.envelope as any).data.map((s: any) => s.urn).sort((a: number, b: number) => a - b)).toEqual(want);
    const all = await getRoute('/v1/schools', { status: 'all', per_page: '100' }, ctxFor(`${dataDir}/mirror`));
    const reg = (all.envelope as any).data.filter((s: any) => s.in_register);
    expect(reg.map((s: any) => s.urn).sort()).toEqual([...registered].map(Number).sort());
  });
});
