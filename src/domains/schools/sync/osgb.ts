/**
 * British National Grid (OSGB36, EPSG:27700) eastings/northings to WGS84 latitude/longitude with proj4 (no
 * hand-written transform). The datum shift is the 7-parameter Helmert transformation Ordnance Survey
 * publishes (OS, "A guide to coordinate systems in Great Britain", Helmert transformation worked example:
 * tX -446.448 m, tY +125.157 m, tZ -542.060 m, rX -0.1502″, rY -0.2470″, rZ -0.8421″, s +20.4894 ppm for
 * WGS84/ETRS89 → OSGB36; proj4's towgs84 gives the reverse direction). OS gives its error as up to 3.5 m
 * (95%) ("Approximate WGS84 to OSGB36/ODN transformation"); their exact transformation, OSTN15, is a grid of
 * shifts that proj4 does not ship. docs/schools.md says so. Checked in test/schools/osgb.test.ts against the
 * guide's published transverse Mercator and Helmert worked examples.
 */
import proj4 from 'proj4';

/** Ordnance Survey's published parameters, as proj4 strings (EPSG:27700 with the standard towgs84). */
export const OSGB36_TOWGS84 = '446.448,-125.157,542.06,0.15,0.247,0.842,-20.489';
export const BNG_PROJ =
  `+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +towgs84=${OSGB36_TOWGS84} +units=m +no_defs`;
const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

let converter: proj4.Converter | undefined;

/** WGS84 {latitude, longitude} of a grid reference (metres), rounded to 6 decimals (about 0.1 m); null when out of range. */
export function gridToWgs84(easting: number, northing: number): { latitude: number; longitude: number } | null {
  if (!Number.isFinite(easting) || !Number.isFinite(northing)) return null;
  // The National Grid covers 0-700 km east, 0-1300 km north; a 0/0 or out-of-range reference is no location.
  if (easting <= 0 || northing <= 0 || easting > 700_000 || northing > 1_300_000) return null;
  converter ??= proj4(BNG_PROJ, WGS84);
  const [lng, lat] = converter.forward([easting, northing]) as [number, number];
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  return { latitude: Math.round(lat * 1e6) / 1e6, longitude: Math.round(lng * 1e6) / 1e6 };
}
