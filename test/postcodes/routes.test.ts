/**
 * /v1/postcodes routes and `publicdata postcode` over the generated August 2026 edition (8 postcodes whose
 * values are in test/fixtures/postcodes/GENERATED-ONSPD_AUG_2026): lookups with a malformed entry, the
 * nearest postcodes with their distances (computed here by hand from the file's coordinates), the commands,
 * and `--source live` (not_available_live, exit 4, no request).
 */
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { FakeLive } from '../support/fake-live.js';
import { GENERATED_2026_CSV } from './samples.js';
import { rowsOf } from './fixture.js';

const fx = useFixtureMirror('pd-postcode-routes-');
const cli = (args: string[], stdin?: string) => runCli(args, { env: fx.env(), ...(stdin !== undefined ? { stdin } : {}) });

/** Haversine by hand (mean Earth radius 6371.0088 km), for the expected distances. */
function km(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b[0] - a[0]) * r) / 2) ** 2 + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.sin(((b[1] - a[1]) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

describe('publicdata postcode', () => {
  it('LS8 3BS as two words, any case: the record of the file', async () => {
    const r = await cli(['postcode', 'ls8', '3bs', '--format', 'json']);
    expect(r.code).toBe(0);
    const d = json(r).data;
    const row = rowsOf(GENERATED_2026_CSV).find((x) => x.pcds === 'LS8 3BS')!;
    expect(d.location.latitude).toBe(Number(row.lat));
    expect(d.location.easting).toBe(Number(row.east1m));
    expect(d.local_authority.code).toBe(row.lad26cd);
    expect(d.ward.code).toBe(row.wd26cd);
    expect(d.parliamentary_constituency.code).toBe(row.pcon24cd);
    expect(d.lsoa.code).toBe(row.lsoa21cd);
    // IMD 2019 ranks 32,844 LSOAs: rank 8123 -> floor(8122 * 10 / 32844) + 1 = 3
    expect(d.deprivation).toEqual({ index: 'English Index of Multiple Deprivation 2019', rank: 8123, of: 32844, decile: 3 });
  });

  it('--near: live postcodes within the radius, nearest first, with distance_km; terminated ones on request', async () => {
    const at: [number, number] = [53.8262, -1.5215];
    const live = json(await cli(['postcode', '--near', '53.8262,-1.5215', '--format', 'json']));
    expect(live.data.map((d: any) => d.postcode)).toEqual(['LS8 3BS']);
    const row = rowsOf(GENERATED_2026_CSV).find((x) => x.pcds === 'LS8 3BS')!;
    expect(live.data[0].distance_km).toBeCloseTo(km(at, [Number(row.lat), Number(row.lng ?? row.long)]), 3);
    const all = json(await cli(['postcode', '--near', '53.8262,-1.5215', '--include-terminated', '--format', 'json']));
    expect(all.data.map((d: any) => d.postcode)).toEqual(['LS8 3BS', 'LS8 3XX']); // LS8 9ZZ has no location
  });

  it('lookup: malformed entries are null with their error, the others answered, in order', async () => {
    const r = await cli(['api', 'POST', '/v1/postcodes/lookup', '--data', JSON.stringify({ postcodes: ['LS8 3BS', '12345', 'ZZ1 1ZZ', 'ec2v7hh'] }), '--format', 'json']);
    expect(r.code).toBe(0);
    const d = json(r).data;
    expect(d.map((x: any) => x.result?.postcode ?? null)).toEqual(['LS8 3BS', null, null, 'EC2V 7HH']);
    expect(d[1].error.code).toBe('invalid_parameter');
    expect(d[2].error).toBeUndefined();
  });

  it('--batch: one envelope per NDJSON lookup body', async () => {
    const r = await cli(['postcode', '--batch', '--format', 'ndjson'], '{"postcodes":["LS8 3BS"]}\n{"postcodes":["GU7 1HR","x"]}\n');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[1].data[0].result.local_authority.name).toBeNull(); // a lone CSV has no Documents/
  });

  it('bad input before any data access: not a postcode 400 (exit 2), over 100 entries 400, radius over 2 400', async () => {
    expect((await cli(['postcode', 'hello'])).code).toBe(2);
    const many = Array.from({ length: 101 }, () => 'LS8 3BS');
    const r = await cli(['api', 'POST', '/v1/postcodes/lookup', '--data', JSON.stringify({ postcodes: many }), '--format', 'json']);
    expect(r.code).toBe(2);
    expect(json(r).error.code).toBe('bad_request');
    expect((await cli(['postcode', '--near', '53.8,-1.5', '--radius-km', '3'])).code).toBe(2);
    expect((await cli(['postcode', 'ZZ1', '1ZZ'])).code).toBe(1); // well-formed, not in the directory: 404
  });

  it('--source live: not_available_live, exit 4, nothing sent', async () => {
    const live = new FakeLive();
    const r = await runCli(['postcode', 'LS8', '3BS', '--source', 'live', '--format', 'json'], { env: { ...fx.env(), PUBLICDATA_API_KEY: 'k'.repeat(40) }, liveBackend: live.factory });
    expect(r.code).toBe(4);
    expect(json(r).error.code).toBe('not_available_live');
    expect(live.requests).toHaveLength(0);
  });
});
