/**
 * Great-circle distance and bounding boxes for point-and-radius queries on mirror tables (crime; usable by
 * any domain).
 * Haversine on a sphere of the mean Earth radius (IUGG, 6371.0088 km): within 0.5% of the ellipsoidal
 * distance, well inside the anonymisation of the points it is used on.
 */

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;

/** Haversine distance in km between two WGS84 points (degrees). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * SQL: the haversine distance in km from the point bound to the two `?` (lat, lng, in that order) to the row's
 * `latCol`/`lngCol`. Parameters: [lat, lat, lng] (latitude is used twice).
 */
export function haversineSql(latCol: string, lngCol: string): string {
  return (
    `2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(pow(sin(radians(${latCol} - ?) / 2), 2) + ` +
    `cos(radians(?)) * cos(radians(${latCol})) * pow(sin(radians(${lngCol} - ?) / 2), 2))))`
  );
}

/** A box certainly holding every point within `radiusKm` of (lat, lng) (the poles and the antimeridian aside). */
export function boundingBox(lat: number, lng: number, radiusKm: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  // the widest longitude span is at the latitude nearest a pole within the box
  const far = Math.min(89.9, Math.abs(lat) + dLat);
  const dLng = dLat / Math.cos((far * Math.PI) / 180);
  // a hair wider than the circle (rounding of the trigonometry), never narrower
  const m = 1e-6;
  return { minLat: lat - dLat - m, maxLat: lat + dLat + m, minLng: lng - dLng - m, maxLng: lng + dLng + m };
}
