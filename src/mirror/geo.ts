/**
 * Point-and-radius search on mirror tables: the one place every domain's radius query comes from (crime,
 * food hygiene, schools, traffic count points; docs/architecture.md "Point and radius").
 *
 * - Distance: the haversine formula on a sphere of the IUGG mean Earth radius, 6371.0088 km (Moritz,
 *   "Geodetic Reference System 1980", Bulletin Géodésique 54, 1980: R1 = (2a + b) / 3); within 0.5% of the
 *   ellipsoidal distance, well inside the anonymisation or rounding of the points it is used on. The
 *   arcsine's argument is capped at 1 (rounding just above it near antipodal points) in JavaScript and in
 *   SQL alike: the same formula twice, `haversineKm` and `haversineSql`.
 * - Prefilter: a latitude/longitude box certainly holding the circle (`boundingBox`), as BETWEEN conditions
 *   on the coordinate columns, which DuckDB's zone maps prune on when the table is stored in coordinate
 *   order; optionally a grid-cell range (`gridCell`) on a table ordered by that key. The exact distance
 *   then decides.
 * - Answer: `distance_km` rounded to the metre, nearest first (ties by the caller's key).
 *
 * The parameters a route takes for this (`lat`, `lng`, `radius_km`) are declared once in the contract:
 * src/contract/point.ts.
 */
import type { Where } from './db.js';

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

/** Haversine distance in km between two WGS84 points (degrees). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lng2 - lng1) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * SQL: the haversine distance in km from the point bound to the three `?` to the row's `latCol`/`lngCol`.
 * Parameters: [lat, lat, lng] (latitude is used twice); `distanceParams` gives them.
 */
export function haversineSql(latCol: string, lngCol: string): string {
  return (
    `2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(pow(sin(radians(${latCol} - ?) / 2), 2) + ` +
    `cos(radians(?)) * cos(radians(${latCol})) * pow(sin(radians(${lngCol} - ?) / 2), 2))))`
  );
}

/** The parameters of `haversineSql` for the point (lat, lng). */
export const distanceParams = (p: { lat: number; lng: number }): number[] => [p.lat, p.lat, p.lng];

export interface Box {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/**
 * A box certainly holding every point within `radiusKm` of (lat, lng), a hair wider than the circle
 * (rounding of the trigonometry), never narrower. The longitude span is taken at the box's latitude
 * nearest a pole (where it is widest); a box reaching within 0.1 degree of a pole, or crossing the
 * antimeridian, spans every longitude (no UK point is near either).
 */
export function boundingBox(lat: number, lng: number, radiusKm: number): Box {
  const m = 1e-6;
  const dLat = (radiusKm / EARTH_RADIUS_KM) / RAD;
  const minLat = Math.max(-90, lat - dLat - m);
  const maxLat = Math.min(90, lat + dLat + m);
  const far = Math.abs(lat) + dLat;
  const dLng = far < 89.9 ? dLat / Math.cos(far * RAD) + m : 180;
  if (dLng >= 180 || lng - dLng < -180 || lng + dLng > 180) return { minLat, maxLat, minLng: -180, maxLng: 180 };
  return { minLat, maxLat, minLng: lng - dLng, maxLng: lng + dLng };
}

/**
 * A grid key a table can be stored in order of, so that a radius search reads a few row groups: cells of
 * 0.01 degree of latitude by 0.01 degree of longitude, numbered latitude band first
 * (`cell = band(lat) * 36000 + band(lng)`), so rows sorted by cell lie in latitude bands.
 */
export const GRID_CELL_DEG = 0.01;
const LNG_BANDS = 36000; // 360 / 0.01
const band = (deg: number, offset: number): number => Math.floor((deg + offset) / GRID_CELL_DEG + 1e-9);

export function gridCell(lat: number, lng: number): number {
  return band(lat, 90) * LNG_BANDS + Math.min(band(lng, 180), LNG_BANDS - 1);
}

/**
 * SQL: `gridCell` of the row's `latCol`/`lngCol` (the same numbering, for a table sorted in the load; NULL
 * where either is NULL). The 1e-9 nudge and the last-band cap are gridCell's.
 */
export function gridCellSql(latCol: string, lngCol: string): string {
  return (
    `(floor((${latCol} + 90) / ${GRID_CELL_DEG} + 1e-9)::BIGINT * ${LNG_BANDS} + ` +
    `least(floor((${lngCol} + 180) / ${GRID_CELL_DEG} + 1e-9)::BIGINT, ${LNG_BANDS - 1}))`
  );
}

/** The cell range a box's latitude bands cover (every cell of a band between). */
export function cellRange(box: Box): { minCell: number; maxCell: number } {
  return { minCell: band(box.minLat, 90) * LNG_BANDS, maxCell: band(box.maxLat, 90) * LNG_BANDS + LNG_BANDS - 1 };
}

/** A point and a radius (km), as a route's `lat`, `lng` and `radius_km` give them (src/contract/point.ts). */
export interface Circle {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** The columns a table holds its points in; `cell`: a gridCell column the table is ordered by, when it has one. */
export interface GeoColumns {
  lat: string;
  lng: string;
  cell?: string;
}

export const LAT_LNG: GeoColumns = { lat: 'latitude', lng: 'longitude' };

/** The column every radius answer names its distance (km, rounded to the metre). */
export const DISTANCE_COLUMN = 'distance_km';

export interface RadiusSearch {
  circle: Circle;
  box: Box;
  /** Add the search's conditions to `where`: the grid cells and the box (pruned on), then the exact distance. */
  within(where: Where): void;
  /** Select-list item `round(<distance>, 3) AS distance_km`; its parameters `selectParams` bind before the WHERE's. */
  select: string;
  selectParams: number[];
  /** ORDER BY nearest first, then `then` (the table's own key, so ties have one order). */
  orderBy(then: string): string;
  /** How the distance is measured, for a route's meta. */
  method: string;
}

/** How every radius answer measures distance (meta). */
export const DISTANCE_METHOD = `haversine, Earth radius ${EARTH_RADIUS_KM} km, ${DISTANCE_COLUMN} rounded to the metre`;

/**
 * The point-and-radius query of a table: conditions (box, then exact distance), the `distance_km` column
 * and nearest-first order. All values are bound parameters.
 */
export function radiusSearch(circle: Circle, cols: GeoColumns = LAT_LNG): RadiusSearch {
  const box = boundingBox(circle.lat, circle.lng, circle.radiusKm);
  const distance = haversineSql(cols.lat, cols.lng);
  const params = distanceParams(circle);
  return {
    circle,
    box,
    within(where) {
      if (cols.cell !== undefined) {
        const c = cellRange(box);
        where.add(`${cols.cell} BETWEEN ? AND ?`, c.minCell, c.maxCell);
      }
      where.add(`${cols.lat} BETWEEN ? AND ?`, box.minLat, box.maxLat);
      if (box.minLng > -180 || box.maxLng < 180) where.add(`${cols.lng} BETWEEN ? AND ?`, box.minLng, box.maxLng);
      where.add(`${distance} <= ?`, ...params, circle.radiusKm);
    },
    select: `round(${distance}, 3) AS ${DISTANCE_COLUMN}`,
    selectParams: params,
    orderBy: (then) => `${DISTANCE_COLUMN}, ${then}`,
    method: DISTANCE_METHOD,
  };
}
