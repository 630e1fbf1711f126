/**
 * Listed buildings and conservation areas: sync/designations.ts loads of the format-true CSVs and the list/detail
 * routes. Expected values are computed here from the fixture CSVs with plain JS.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { conforming } from '../support/schema-check.js';
import type { SuccessEnvelope } from '../../src/contract/types.js';
import { conservationAreas, listedBuildings } from '../../src/domains/property/sync/designations.js';
import { loadModule } from '../../src/sync-runner.js';
import { buildDataset, cleanup, ctxFor, fixturesOf, loadOnly, readCsv, sqlOn, tempDir } from '../support/mirror-helper.js';

const FIXTURES = fixturesOf('property');

const LB_CSV = join(FIXTURES, 'planning-data', 'listed-building.csv');
const CA_CSV = join(FIXTURES, 'planning-data', 'conservation-area.csv');

type Item = {
  entity_id: number;
  name: string | null;
  reference: string | null;
  organisation_entity: number | null;
  latitude: number | null;
  longitude: number | null;
  boundary_reference: string | null;
  start_date: string | null;
  end_date: string | null;
  source_url: string;
};

function expectedItems(file: string): { items: Item[]; rows: Array<Record<string, string>> } {
  const rows = readCsv(readFileSync(file, 'utf8'));
  const items = rows.map((r) => {
    const m = /^POINT\s*\(\s*(\S+)\s+(\S+)\s*\)$/.exec(r.point!);
    const id = Number(r.entity);
    return {
      entity_id: id,
      name: r.name || null,
      reference: r.reference || null,
      organisation_entity: r['organisation-entity'] ? Number(r['organisation-entity']) : null,
      latitude: m ? Number(m[2]) : null,
      longitude: m ? Number(m[1]) : null,
      boundary_reference: r.geometry ? `https://www.planning.data.gov.uk/entity/${id}.geojson` : null,
      start_date: r['start-date'] || null,
      end_date: r['end-date'] || null,
      source_url: `https://www.planning.data.gov.uk/entity/${id}`,
    };
  });
  items.sort((a, b) => {
    const an = (a.name ?? '').toLowerCase();
    const bn = (b.name ?? '').toLowerCase();
    return an < bn ? -1 : an > bn ? 1 : a.entity_id - b.entity_id;
  });
  return { items, rows };
}
const LB = expectedItems(LB_CSV);
const CA = expectedItems(CA_CSV);

// The CSVs carry the same entities as the real entity.json excerpt
const excerpt = JSON.parse(readFileSync(join(FIXTURES, 'planning-data', 'entity-json-items-from-planx-fixture.json'), 'utf8'));

const dirs: string[] = [];
let dir: string;
beforeAll(async () => {
  dir = tempDir();
  dirs.push(dir);
  await buildDataset('listed-buildings', LB_CSV, dir);
  await buildDataset('conservation-areas', CA_CSV, dir);
});
afterAll(() => cleanup(dirs));

async function get(path: string, query: Record<string, string> = {}, mirror = dir) {
  return conforming('GET', path, await getRoute(path, query, ctxFor(mirror)));
}
function ok(r: Awaited<ReturnType<typeof get>>) {
  if (r.status !== 200) throw new Error(JSON.stringify(r.envelope));
  return r.envelope as SuccessEnvelope<any>;
}
function err(r: Awaited<ReturnType<typeof get>>, status: number, code: string) {
  expect(r.status).toBe(status);
  expect((r.envelope as any).error.code).toBe(code);
  return (r.envelope as any).error;
}

describe('fixtures', () => {
  it('the CSV rows are the excerpt entities with their real fields', () => {
    for (const [csv, key] of [[LB.rows, 'listed-building'], [CA.rows, 'conservation-area']] as const) {
      const real = excerpt[key] as Array<Record<string, unknown>>;
      expect(csv.map((r) => Number(r.entity))).toEqual(real.map((e) => e.entity));
      csv.forEach((r, i) => {
        for (const f of ['name', 'reference', 'organisation-entity', 'entry-date', 'start-date', 'end-date', 'dataset', 'prefix', 'typology']) {
          expect(r[f]).toBe(String(real[i]![f]));
        }
      });
    }
  });
});

describe('sync/designations load', () => {
  it('has one module per dataset with the platform URL', async () => {
    expect(await loadModule('listed-buildings')).toBe(listedBuildings);
    expect(await loadModule('conservation-areas')).toBe(conservationAreas);
    const files = await listedBuildings.discover({ baseUrl: 'https://files.planning.data.gov.uk/', options: {}, now: () => new Date(), fetchText: async () => '' });
    expect(files).toEqual([{ url: 'https://files.planning.data.gov.uk/dataset/listed-building.csv', name: 'listed-building.csv', kind: 'full' }]);
    const ca = await conservationAreas.discover({ baseUrl: 'http://127.0.0.1:1', options: {}, now: () => new Date(), fetchText: async () => '' });
    expect(ca[0]!.url).toBe('http://127.0.0.1:1/dataset/conservation-area.csv');
    expect(listedBuildings.file).toBe('listed_buildings.duckdb');
    expect(conservationAreas.file).toBe('conservation_areas.duckdb');
  });

  it('stores points as coordinates and no polygon; as_of is the latest entry date', async () => {
    const rows = await sqlOn(join(dir, 'conservation_areas.duckdb'), 'SELECT * FROM designations ORDER BY entity_id');
    expect(Object.keys(rows[0]!)).not.toContain('geometry');
    expect(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))).not.toContain('MULTIPOLYGON');
    const log = await sqlOn(join(dir, 'conservation_areas.duckdb'), 'SELECT as_of::VARCHAR AS as_of FROM sync_log');
    expect(log[0]!.as_of).toBe('2024-01-13');
  });

  it('rejects rows whose entity is not an integer, dedupes entities, ignores unparseable points', async () => {
    const d = tempDir();
    dirs.push(d);
    const lines = readFileSync(LB_CSV, 'utf8').trimEnd().split('\n');
    const bad = lines[1]!.replace('31537854', 'x31537854');
    const dup = lines[2]!.replace('2026-04-01', '2026-05-01').replace('WALL TO WEST', 'NEWER WALL TO WEST');
    const badPoint = lines[3]!.replace('POINT (-0.119843 51.495641)', 'POINT EMPTY');
    const file = join(d, 'listed-building.csv');
    writeFileSync(file, [lines[0], bad, lines[2], dup, badPoint, ...lines.slice(4)].join('\n') + '\n');
    // 1 bad row in 6 is over the 1% threshold a real sync enforces; the load itself reports it
    const res = await loadOnly(listedBuildings, file, join(d, 'x.duckdb'));
    expect(res).toMatchObject({ rows: 4, rejected: 1, mode: 'full', asOf: '2026-05-01' });
    const rows = await sqlOn(join(d, 'x.duckdb'), 'SELECT entity_id::INTEGER AS id, name, latitude FROM designations ORDER BY entity_id');
    expect(rows.map((r) => r.id)).toEqual([31573638, 31573653, 31814080, 31814084]);
    expect(rows[0]!.name).toBe('NEWER WALL TO WEST OF THE GREAT HALL AT LAMBETH');
    expect(rows[1]!.latitude).toBe(null);
    const rej = await sqlOn(join(d, 'x.duckdb'), 'SELECT line::INTEGER AS line, reason FROM rejects');
    expect(rej).toEqual([{ line: 2, reason: 'entity is not an integer' }]);
  });

  it('refuses a CSV without the platform columns', async () => {
    const d = tempDir();
    dirs.push(d);
    const file = join(d, 'listed-building.csv');
    writeFileSync(file, 'entity,name\n1,x\n');
    await expect(buildDataset('listed-buildings', file, d)).rejects.toThrow(/missing column/);
  });
});

describe('GET /v1/property/listed-buildings', () => {
  it('lists by name with pagination and provenance meta', async () => {
    const env = ok(await get('/v1/property/listed-buildings'));
    expect(env.data).toEqual(LB.items);
    expect(env.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
    expect(env.meta).toMatchObject({ api_version: 'v1', licence: 'Open Government Licence v3.0', source_url: 'https://www.planning.data.gov.uk/dataset/listed-building', as_of: '2026-04-01' });
    const p2 = ok(await get('/v1/property/listed-buildings', { per_page: '2', page: '2' }));
    expect(p2.data).toEqual(LB.items.slice(2, 4));
    expect(p2.pagination).toEqual({ total: 5, page: 2, per_page: 2, total_pages: 3 });
  });

  it('name is a case-insensitive literal prefix', async () => {
    expect(ok(await get('/v1/property/listed-buildings', { name: 'lambeth palace' })).data).toEqual(
      LB.items.filter((i) => i.name!.toLowerCase().startsWith('lambeth palace')),
    );
    expect(ok(await get('/v1/property/listed-buildings', { name: 'walls, railings' })).data).toEqual(LB.items.filter((i) => i.entity_id === 31814084));
    expect(ok(await get('/v1/property/listed-buildings', { name: 'PALACE' })).data).toEqual([]); // not a prefix
    expect(ok(await get('/v1/property/listed-buildings', { name: '%' })).data).toEqual([]);
    expect(ok(await get('/v1/property/listed-buildings', { name: 'W_LL' })).data).toEqual([]);
  });

  it('filters by organisation_entity', async () => {
    expect(ok(await get('/v1/property/listed-buildings', { organisation_entity: '16' })).pagination!.total).toBe(5);
    expect(ok(await get('/v1/property/listed-buildings', { organisation_entity: '192' })).data).toEqual([]);
    err(await get('/v1/property/listed-buildings', { organisation_entity: 'sixteen' }), 400, 'invalid_parameter');
  });

  it('filters by bounding box; entities without a point never match', async () => {
    const box = { min_lat: '51.4950', max_lat: '51.4956', min_lng: '-0.1210', max_lng: '-0.1190' };
    const exp = LB.items.filter(
      (i) => i.latitude !== null && i.latitude >= 51.495 && i.latitude <= 51.4956 && i.longitude! >= -0.121 && i.longitude! <= -0.119,
    );
    expect(exp.length).toBeGreaterThan(0);
    expect(exp.length).toBeLessThan(4);
    expect(ok(await get('/v1/property/listed-buildings', box)).data).toEqual(exp);
    const all = ok(await get('/v1/property/listed-buildings', { min_lat: '-90', max_lat: '90', min_lng: '-180', max_lng: '180' }));
    expect(all.data).toEqual(LB.items.filter((i) => i.latitude !== null));
  });

  it('rejects incomplete, inverted or out-of-range bounds with 400 invalid_parameter (even when not synced)', async () => {
    const e1 = err(await get('/v1/property/listed-buildings', { min_lat: '51', max_lat: '52', min_lng: '-1' }), 400, 'invalid_parameter');
    expect(e1.message).toContain('max_lng');
    err(await get('/v1/property/listed-buildings', { min_lat: '52', max_lat: '51', min_lng: '-1', max_lng: '0' }), 400, 'invalid_parameter');
    err(await get('/v1/property/listed-buildings', { min_lat: '51', max_lat: '52', min_lng: '0', max_lng: '-1' }), 400, 'invalid_parameter');
    err(await get('/v1/property/listed-buildings', { min_lat: '-91', max_lat: '52', min_lng: '-1', max_lng: '0' }), 400, 'invalid_parameter');
    err(await get('/v1/property/listed-buildings', { min_lat: 'north', max_lat: '52', min_lng: '-1', max_lng: '0' }), 400, 'invalid_parameter');
    const empty = tempDir();
    dirs.push(empty);
    err(await get('/v1/property/listed-buildings', { min_lat: '51' }, empty), 400, 'invalid_parameter');
    err(await get('/v1/property/listed-buildings', {}, empty), 503, 'dataset_not_synced');
  });

  it('rejects per_page over 100', async () => {
    err(await get('/v1/property/listed-buildings', { per_page: '101' }), 400, 'invalid_parameter');
  });
});

describe('GET /v1/property/listed-buildings/{entity_id}', () => {
  it('returns the detail with grade', async () => {
    const env = ok(await get('/v1/property/listed-buildings/31573653'));
    const raw = LB.rows.find((r) => r.entity === '31573653')!;
    expect(env.data).toEqual({
      ...LB.items.find((i) => i.entity_id === 31573653),
      dataset: 'listed-building',
      entry_date: raw['entry-date'],
      documentation_url: raw['documentation-url'],
      grade: 'I',
    });
    expect(env.pagination).toBeUndefined();
    expect(env.meta.source_url).toBe('https://www.planning.data.gov.uk/dataset/listed-building');
  });

  it('null coordinates when the source has no point', async () => {
    const env = ok(await get('/v1/property/listed-buildings/31814080'));
    expect(env.data).toMatchObject({ latitude: null, longitude: null, boundary_reference: null });
  });

  it('404 not_found for an unknown id, 400 for a non-integer', async () => {
    const e = err(await get('/v1/property/listed-buildings/44006852'), 404, 'not_found');
    expect(e.message).toContain('44006852');
    err(await get('/v1/property/listed-buildings/abc'), 400, 'invalid_parameter');
  });
});

describe('GET /v1/property/conservation-areas', () => {
  it('lists both Lambeth Palace areas (duplicates kept, as upstream) in entity order', async () => {
    const env = ok(await get('/v1/property/conservation-areas', { name: 'Lambeth' }));
    expect(env.data).toEqual(CA.items);
    expect(env.data.map((i: Item) => i.entity_id)).toEqual([44006852, 44008829]);
    expect(env.data[0].boundary_reference).toBe('https://www.planning.data.gov.uk/entity/44006852.geojson');
    expect(env.data[1].boundary_reference).toBe(null);
    expect(env.data[1].start_date).toBe(null);
    expect(env.meta.source_url).toBe('https://www.planning.data.gov.uk/dataset/conservation-area');
  });

  it('bounding box and organisation', async () => {
    const env = ok(await get('/v1/property/conservation-areas', { organisation_entity: '192', min_lat: '51.4953', max_lat: '51.4954', min_lng: '-0.1194', max_lng: '-0.1192' }));
    expect(env.data).toEqual(CA.items.filter((i) => i.entity_id === 44006852));
  });

  it('detail carries designation_date', async () => {
    const env = ok(await get('/v1/property/conservation-areas/44006852'));
    expect(env.data).toEqual({
      ...CA.items[0],
      dataset: 'conservation-area',
      entry_date: '2024-01-13',
      documentation_url: null,
      designation_date: '1968-06-20',
    });
    err(await get('/v1/property/conservation-areas/31573653'), 404, 'not_found');
  });
});
