/**
 * `sync postcodes`: the three layouts load (2024 names, November 2025, the generated August 2026 edition with
 * lad26cd), discovery through the ArcGIS search API picks the edition by its name and modified stamp, the
 * national CSV is read from inside the zip (multi_csv/ never), Documents/ names are joined in, an edition
 * without a needed column is refused naming it and keeps the previous data. Values are read off the fixture
 * files by hand (fixture.ts reads them independently of the sync).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../sync/framework.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { getRoute, dataOf, errorOf } from '../support/route.js';
import type { HandlerContext } from '../../src/contract/types.js';
import { edition2026Zip, REAL_2024, REAL_AUG_2024, REAL_NOV_2025, rowsOf, searchAnswer } from './fixture.js';
import { writeFileSync } from 'node:fs';

let dir: string;
let server: UpstreamServer;
const mirror = () => join(dir, 'mirror');
const ctx = (): HandlerContext => ({ now: () => new Date('2026-11-20T12:00:00Z'), env: {}, mirrorDir: mirror(), cacheDir: join(dir, 'cache') });
const sync = (from?: string[], env: Record<string, string> = {}) =>
  syncDataset('postcodes', { mirrorDir: mirror(), cacheDir: join(dir, 'cache'), env, ...(from ? { from } : {}), retries: 0, backoffMs: 1 });
const get = async (pc: string) => dataOf(getRoute(`/v1/postcodes/${encodeURIComponent(pc)}`, {}, ctx()));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pd-postcodes-'));
  server = await startUpstreamServer();
});
afterAll(async () => {
  await closeAll();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the 2024 layout (oslaua, osgrdind, imd)', () => {
  it('loads every row, with the values of the file', async () => {
    const r = await sync([REAL_2024]);
    expect(r.status).toBe('synced');
    expect(r.rows_loaded).toBe(rowsOf(REAL_2024).length); // 196
    expect(r.rows_loaded).toBe(196);
    // AB1 0AA, first data row, read by hand
    const d = await get('ab10aa');
    expect(d.postcode).toBe('AB1 0AA');
    expect(d.status).toBe('terminated');
    expect(d.introduced).toBe('1980-01');
    expect(d.terminated).toBe('1996-06');
    expect(d.location).toEqual({ latitude: 57.101474, longitude: -2.242851, easting: 385386, northing: 801193, quality: 1 });
    expect(d.local_authority).toEqual({ code: 'S12000033', name: null }); // no Documents/ with a lone CSV
    expect(d.parish).toBeNull(); // S99999999
    expect(d.region).toBeNull();
    expect(d.lsoa).toBeNull(); // lsoa21 empty in this older extract
    expect(d.lsoa_2011).toEqual({ code: 'S01006514', name: null });
    expect(d.output_area).toBe('S00137176');
    expect(d.police_force_area).toEqual({ code: 'S23000009', name: null });
    expect(d.rural_urban).toEqual({ code: '3', label: null });
    // SIMD 2020 ranks 6,976 data zones; rank 6715: decile floor(6714 * 10 / 6976) + 1 = 10
    expect(d.deprivation).toEqual({ index: 'Scottish Index of Multiple Deprivation 2020', rank: 6715, of: 6976, decile: 10 });
  });

  it('keeps no placeholder: a postcode without a grid reference has a null location, pseudo codes are null areas', async () => {
    const d = await get('JE2 4WD');
    expect(d.location).toBeNull();
    expect(d.local_authority).toBeNull(); // L99999999
    expect(d.country).toEqual({ code: 'L93000001', name: null });
    expect(d.status).toBe('live');
  });

  it('answers 404 for a well-formed postcode not in the directory, 400 for a string that cannot be one', async () => {
    expect(errorOf(await getRoute('/v1/postcodes/ZZ1%201ZZ', {}, ctx()))).toMatchObject({ status: 404, code: 'not_found' });
    expect(errorOf(await getRoute('/v1/postcodes/hello', {}, ctx()))).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });
});

describe('the August 2024 and November 2025 layouts', () => {
  it('August 2024 (bua24) loads its 4 St Albans rows', async () => {
    const r = await sync([REAL_AUG_2024]);
    expect(r.rows_loaded).toBe(4);
    const d = await get('AL1 1AA');
    expect(d.local_authority.code).toBe('E07000240');
    expect(d.location).toEqual({ latitude: 51.749084, longitude: -0.341337, easting: 514600, northing: 206900, quality: 8 });
    expect(d.terminated).toBe('1994-05');
  });
  it('November 2025 (lad25cd, gridind, imd20ind, ruc21ind) replaces the edition whole', async () => {
    const r = await sync([REAL_NOV_2025]);
    expect(r.rows_loaded).toBe(4);
    expect(r.rows_total).toBe(4);
    const d = await get('AB1 0AA');
    expect(d.location.latitude).toBe(57.101459);
    expect(d.lsoa).toEqual({ code: 'S01013490', name: null });
    expect(d.rural_urban).toEqual({ code: '1', label: null }); // ruc21ind preferred to ruc11ind ('3')
    expect(errorOf(await getRoute('/v1/postcodes/AL1%201AA', {}, ctx())).code).toBe('not_found'); // the old edition is gone
  });
});

describe('discovery and the zip (generated August 2026 edition: lad26cd)', () => {
  it('finds the edition by name and modified stamp, streams the national CSV, joins Documents/ names', async () => {
    server.set('/sharing/rest/search', searchAnswer(), { contentType: 'application/json' });
    server.set('/sharing/rest/content/items/3080229224424c9cb53c0b48f5a64d27/data', await edition2026Zip());
    const r = await sync(undefined, { PUBLICDATA_UPSTREAM_POSTCODES: server.url });
    expect(r.status).toBe('synced');
    expect(r.files.map((f) => f.name)).toEqual(['ONSPD_AUG_2026.zip']);
    expect(r.files[0]!.url).toContain('3080229224424c9cb53c0b48f5a64d27'); // the later of the two AUG 2026 items
    expect(r.published).toBe(new Date(1787000000000).toISOString().slice(0, 10));
    expect(r.rows_loaded).toBe(8);
    // rows without a location: LS8 9ZZ only; without a parish: EC2V 7HH, NE4 9DN, AB10 1AB, BT1 5GS (pseudo) and LS8 9ZZ (empty)
    expect(r.note).toContain('location 1');
    expect(r.note).toContain('parish 5');
    const d = await get('LS8 3BS');
    expect(d.location.latitude).toBe(53.82621); // not the multi_csv/ decoy's 10.0
    expect(d.local_authority).toEqual({ code: 'E08000035', name: 'Leeds' });
    expect(d.region).toEqual({ code: 'E12000003', name: 'Yorkshire and The Humber' });
    expect(d.country).toEqual({ code: 'E92000001', name: 'England' });
    expect(d.rural_urban).toEqual({ code: 'UN1', label: 'Urban: Nearer to a major town or city' });
    expect(d.sector).toBe('LS8 3');
    const m = (await getRoute('/v1/postcodes/LS8%203BS', {}, ctx())).envelope.meta as Record<string, unknown>;
    expect(m.edition).toBe('ONSPD_AUG_2026');
    expect(String(m.licence)).toContain('Royal Mail');
    expect((await get('LS8 9ZZ')).location).toBeNull(); // quality 9 with the placeholder 99.999999
    const ni = await getRoute('/v1/postcodes/BT1%205GS', {}, ctx());
    expect(String((ni.envelope.meta as { note?: string }).note)).toContain('Land & Property Services');
  });

  it('a national CSV that fails inside the zip (corrupt deflate data) fails the load and keeps the previous data', async () => {
    const zip = Buffer.from(await edition2026Zip());
    for (let i = 200; i < 260; i++) zip[i] = zip[i]! ^ 0x5a; // inside the first member's compressed bytes
    const bad = join(dir, 'ONSPD_AUG_2026.zip');
    writeFileSync(bad, zip);
    await expect(sync([bad])).rejects.toThrow(/ONSPD_AUG_2026_UK\.csv|CRC|could not be read|invalid/i);
    expect((await get('LS8 3BS')).location.latitude).toBe(53.82621);
  });

  it('refuses an edition without a needed column, naming it, and keeps the previous data', async () => {
    const bad = join(dir, 'ONSPD_NOV_2026_UK.csv');
    const text = rowsOf(REAL_NOV_2025);
    const header = Object.keys(text[0]!).filter((h) => h !== 'lad25cd');
    writeFileSync(bad, `${header.join(',')}\n${text.map((r) => header.map((h) => r[h]).join(',')).join('\n')}\n`);
    await expect(sync([bad])).rejects.toThrow(/no column for lad \(local authority district/);
    expect((await get('LS8 3BS')).postcode).toBe('LS8 3BS');
  });
});
