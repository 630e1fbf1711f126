/**
 * The shared point-and-radius search (src/mirror/geo.ts): distances against values worked by hand, the box
 * against points placed on the circle by the destination formula (written here), and radiusSearch over a
 * DuckDB table against a brute-force selection with a distance written independently in this file.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, Where } from '../../src/mirror/db.js';
import { boundingBox, cellRange, EARTH_RADIUS_KM, gridCell, gridCellSql, haversineKm, haversineSql, radiusSearch } from '../../src/mirror/geo.js';

const R = 6371.0088;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Great-circle distance by the atan2 form (not the code under test). */
function distance(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * R * Math.atan2(Math.sqrt(a), Math.sqrt(Math.max(0, 1 - a)));
}

/** The point `km` from (lat, lng) on initial bearing `bearing` degrees (the spherical destination formula). */
function destination(lat: number, lng: number, km: number, bearing: number): [number, number] {
  const d = km / R;
  const p1 = rad(lat);
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(rad(bearing)));
  const l2 = rad(lng) + Math.atan2(Math.sin(rad(bearing)) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [deg(p2), deg(l2)];
}

describe('distance', () => {
  it('one degree along the equator and along a meridian is R·π/180 = 111.19508 km; half the globe is πR', () => {
    expect(EARTH_RADIUS_KM).toBe(6371.0088);
    expect(haversineKm(0, 0, 0, 1)).toBeCloseTo(111.1950802335329, 9);
    expect(haversineKm(53, -1.5, 54, -1.5)).toBeCloseTo(111.1950802335329, 9);
    expect(haversineKm(0, 0, 0, 180)).toBeCloseTo(20015.114442035923, 6);
    expect(haversineKm(53.8, -1.55, 53.8, -1.55)).toBe(0);
  });

  it('antipodal points in SQL are πR (the arcsine argument is capped at 1, so rounding above it cannot give NaN)', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const pairs: Array<[number, number, number, number]> = [[0, 0, 0, 180], [45, 10, -45, -170], [53.8, -1.55, -53.8, 178.45]];
      for (const [a, b, c, d] of pairs) {
        const [row] = await query<{ km: number }>(conn, `SELECT ${haversineSql('la', 'ln')} AS km FROM (SELECT ?::DOUBLE AS la, ?::DOUBLE AS ln)`, [a, a, b, c, d]);
        expect(Number(row!.km)).toBeCloseTo(20015.114442035923, 6);
      }
    } finally {
      conn.closeSync();
    }
  });
});

describe('boundingBox', () => {
  it.each([[53.8, -1.55, 1], [60.8, -0.9, 25], [49.9, -6.3, 5], [-33.9, 151.2, 50], [0, 0, 100]])('(%s, %s) radius %s km holds 360 points on the circle', (lat, lng, km) => {
    const b = boundingBox(lat, lng, km);
    for (let bearing = 0; bearing < 360; bearing++) {
      const [y, x] = destination(lat, lng, km, bearing);
      expect(y >= b.minLat && y <= b.maxLat && x >= b.minLng && x <= b.maxLng, `bearing ${bearing}: ${y},${x}`).toBe(true);
    }
    // and is no more than a hair wider than the circle in latitude
    expect(b.maxLat - lat).toBeCloseTo(deg(km / R), 5);
  });

  it('near a pole or across the antimeridian it spans every longitude', () => {
    expect(boundingBox(89.95, 10, 10)).toMatchObject({ minLng: -180, maxLng: 180, maxLat: 90 });
    expect(boundingBox(10, 179.99, 5)).toMatchObject({ minLng: -180, maxLng: 180 });
    expect(boundingBox(10, -179.99, 5)).toMatchObject({ minLng: -180, maxLng: 180 });
  });

  it('grid cells: latitude band first; a box\'s cell range holds the cells of its points', () => {
    // band(lat) = floor((lat + 90) / 0.01), band(lng) = floor((lng + 180) / 0.01): 14380 * 36000 + 17845
    expect(gridCell(53.8, -1.55)).toBe(14380 * 36000 + 17845);
    expect(gridCell(51.185, -0.611)).toBeLessThan(gridCell(51.195, -0.611));
    const r = cellRange(boundingBox(53.8, -1.55, 2));
    for (let bearing = 0; bearing < 360; bearing += 5) {
      const c = gridCell(...destination(53.8, -1.55, 1.999, bearing));
      expect(c >= r.minCell && c <= r.maxCell).toBe(true);
    }
  });
});

describe('radiusSearch over a table', () => {
  let db: DuckDBInstance;
  let conn: DuckDBConnection;
  // a 0.002-degree lattice around Leeds, 61 x 81 points, ids in row order, stored in grid-cell order
  const points: Array<{ id: number; lat: number; lng: number }> = [];
  for (let i = 0; i <= 60; i++) for (let j = 0; j <= 80; j++) points.push({ id: i * 81 + j, lat: 53.74 + i * 0.002, lng: -1.63 + j * 0.002 });

  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    conn = await db.connect();
    await query(conn, 'CREATE TABLE pts (id INTEGER, latitude DOUBLE, longitude DOUBLE, cell INTEGER)');
    const values = points.map((p) => `(${p.id}, ${p.lat}, ${p.lng}, ${gridCell(p.lat, p.lng)})`).join(', ');
    await query(conn, `INSERT INTO pts SELECT * FROM (VALUES ${values}) ORDER BY 4, 1`);
  });
  afterAll(() => conn.closeSync());

  it('gridCellSql numbers a row as gridCell does (the band edges, the last longitude band, NULL)', async () => {
    // 53.8 / -1.55: a band edge in decimal, just under it in binary (the 1e-9 nudge); 179.999: the last band
    const cases: Array<[number, number, number]> = [[53.8, -1.55, 14380 * 36000 + 17845], [53.79999, -1.55001, 14379 * 36000 + 17844], [-89.999, 179.999, 0 * 36000 + 35999]];
    for (const [lat, lng, cell] of cases) {
      expect(gridCell(lat, lng)).toBe(cell);
      const r = await query<{ c: bigint | number }>(conn, `SELECT ${gridCellSql('a', 'b')} AS c FROM (SELECT ?::DOUBLE AS a, ?::DOUBLE AS b)`, [lat, lng]);
      expect(Number(r[0]!.c)).toBe(cell);
    }
    const n = await query<{ c: unknown }>(conn, `SELECT ${gridCellSql('a', 'b')} AS c FROM (SELECT NULL::DOUBLE AS a, 1.0::DOUBLE AS b)`);
    expect(n[0]!.c).toBeNull();
  });

  it.each([
    [53.8, -1.55, 1],
    [53.8013, -1.5487, 2.5],
    [53.79, -1.6, 0.3],
  ])('(%s, %s) within %s km: the points the brute force finds, nearest first (then id), distance_km to the metre', async (lat, lng, km) => {
    const expected = points
      .map((p) => ({ id: p.id, d: distance(lat, lng, p.lat, p.lng) }))
      .filter((p) => p.d <= km)
      .map((p) => ({ id: p.id, distance_km: Math.round(p.d * 1000) / 1000 }))
      .sort((a, b) => a.distance_km - b.distance_km || a.id - b.id);
    expect(expected.length).toBeGreaterThan(10);
    for (const cols of [{ lat: 'latitude', lng: 'longitude' }, { lat: 'latitude', lng: 'longitude', cell: 'cell' }]) {
      const s = radiusSearch({ lat, lng, radiusKm: km }, cols);
      const where = new Where();
      s.within(where);
      const rows = await query<{ id: number; distance_km: number }>(conn, `SELECT id, ${s.select} FROM pts ${where.sql} ORDER BY ${s.orderBy('id')}`, [
        ...s.selectParams,
        ...where.params,
      ]);
      expect(rows.map((r) => ({ id: r.id, distance_km: Number(r.distance_km) }))).toEqual(expected);
      expect(where.sql).toContain(cols.cell ? 'cell BETWEEN' : 'latitude BETWEEN');
    }
  });
});
