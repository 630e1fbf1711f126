/**
 * Independent counts for the area page tests, read straight from the fixture files (not through the
 * mirror or any route): the crimes of the real City of London street file and the food premises of the
 * real Waverley FHRS file within a radius, by the haversine formula written here. Each count is checked to
 * have no point within 5 m of the circle, so rounding in either computation cannot move a point across it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIX = join(__dirname, '..', 'fixtures');

function km(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

function within<T extends { lat: number; lng: number }>(points: T[], lat: number, lng: number, radiusKm: number): T[] {
  const ds = points.map((p) => ({ p, d: km(lat, lng, p.lat, p.lng) }));
  const edge = ds.filter((x) => Math.abs(x.d - radiusKm) < 0.005);
  if (edge.length) throw new Error(`fixture points within 5 m of the ${radiusKm} km circle: pick another radius`);
  return ds.filter((x) => x.d <= radiusKm).map((x) => x.p);
}

/** The crimes of 2025-05-city-of-london-street.csv (a plain CSV: no quoted commas in the columns used before Location). */
export function crimesWithin(lat: number, lng: number, radiusKm: number): { lat: number; lng: number; type: string }[] {
  const lines = readFileSync(join(FIX, 'crime', '2025-05-city-of-london-street.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
  const rows = lines.map((l) => l.split(',')).filter((c) => c[4] !== '' && c[5] !== '').map((c) => ({ lng: Number(c[4]), lat: Number(c[5]), type: '' }));
  return within(rows, lat, lng, radiusKm);
}

/** The establishments of FHRS314en-GB.xml with a geocode, and their RatingValue. */
export function foodWithin(lat: number, lng: number, radiusKm: number): { lat: number; lng: number; rating: string }[] {
  const xml = readFileSync(join(FIX, 'food-hygiene', 'FHRS314en-GB.xml'), 'utf8');
  const rows = [...xml.matchAll(/<EstablishmentDetail>([\s\S]*?)<\/EstablishmentDetail>/g)].flatMap((m) => {
    const la = /<Latitude>([^<]+)<\/Latitude>/.exec(m[1]!)?.[1];
    const lo = /<Longitude>([^<]+)<\/Longitude>/.exec(m[1]!)?.[1];
    const rating = /<RatingValue>([^<]*)<\/RatingValue>/.exec(m[1]!)?.[1] ?? '';
    return la && lo ? [{ lat: Number(la), lng: Number(lo), rating }] : [];
  });
  return within(rows, lat, lng, radiusKm);
}
