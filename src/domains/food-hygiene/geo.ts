/**
 * Distances and the grid that orders the table on disk (docs/food-hygiene.md, "Radius search").
 *
 * Grid: cells of 0.01 degree of latitude by 0.01 degree of longitude, numbered latitude band first
 * (`cell = band(lat) * 36000 + band(lng)`), so rows sorted by cell lie in latitude bands, and a radius
 * search's cell range (the bands its box spans) is a few row groups of the table, not all of it.
 * Distance: the haversine formula on a sphere of the IUGG mean Earth radius, 6371.0088 km (Moritz,
 * "Geodetic Reference System 1980", Bulletin Géodésique 54, 1980: R1 = (2a + b) / 3).
 */

export const EARTH_RADIUS_KM = 6371.0088;
/** Cell size in degrees. */
export const CELL_DEG = 0.01;
const LNG_BANDS = 36000; // 360 / 0.01

const band = (deg: number, offset: number): number => Math.floor((deg + offset) / CELL_DEG + 1e-9);

export function gridCell(lat: number, lng: number): number {
  return band(lat, 90) * LNG_BANDS + Math.min(band(lng, 180), LNG_BANDS - 1);
}

export interface SearchBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  /** The cell range the box's latitude bands cover (every cell of a band between). */
  minCell: number;
  maxCell: number;
}

/**
 * The latitude/longitude box holding every point within `radiusKm` of (lat, lng), slightly generous
 * (the haversine test decides). Longitude span widens with latitude; near the poles it is the whole circle.
 */
export function searchBox(lat: number, lng: number, radiusKm: number): SearchBox {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI) * 1.001;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const cosMax = Math.min(Math.cos((minLat * Math.PI) / 180), Math.cos((maxLat * Math.PI) / 180));
  const dLng = cosMax > 1e-6 ? Math.min(180, dLat / cosMax) : 180;
  const minLng = lng - dLng;
  const maxLng = lng + dLng;
  return {
    minLat, maxLat,
    // a box crossing the antimeridian is widened to the whole circle (no UK authority is near it)
    minLng: minLng < -180 || maxLng > 180 ? -180 : minLng,
    maxLng: minLng < -180 || maxLng > 180 ? 180 : maxLng,
    minCell: band(minLat, 90) * LNG_BANDS,
    maxCell: band(maxLat, 90) * LNG_BANDS + LNG_BANDS - 1,
  };
}

/** SQL: the haversine distance in km from the bound point (?, ?) = (lat, lng) to the row's latitude/longitude. */
export const HAVERSINE_SQL = `(2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
  pow(sin(radians(latitude - ?) / 2), 2) + cos(radians(?)) * cos(radians(latitude)) * pow(sin(radians(longitude - ?) / 2), 2)))))`;
