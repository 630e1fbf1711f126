/**
 * The point-and-radius parameters of a route (`lat`, `lng`, `radius_km`), declared once: every route that
 * searches around a point takes them from `pointParams`, with its own radius default and bounds, so the
 * validator refuses the same inputs under `--source live` and local, before any request or data access:
 * `lat` needs `lng` and `lng` needs `lat` (unless both are `required`), and `radius_km` needs `lat`.
 * A handler reads them back with `pointOf`, which applies the route's default radius. The query on a
 * mirror table: src/mirror/geo.ts `radiusSearch`.
 */
import type { ParamSpec } from './route.js';

export interface PointSpec {
  /** radius_km when none is given, km. */
  defaultKm: number;
  /** radius_km's inclusive bounds, km. */
  minKm: number;
  maxKm: number;
  /**
   * Whether radius_km's spec carries its default (help and the OpenAPI document show it). Routes whose
   * point is one area among others (crime: lat, lsoa or force) leave it out, so no default radius is sent
   * with another area; the default still applies through `pointOf`.
   */
  declareDefault?: boolean;
  /** Latitude and longitude bounds, degrees (default the whole globe; schools: Great Britain's box). */
  lat?: { min: number; max: number };
  lng?: { min: number; max: number };
  /** `lat` and `lng` are both required (a route that is only a radius search); else each needs the other. */
  required?: boolean;
  /** What the point is, for the descriptions (default 'the search centre'). */
  what?: string;
}

/** The route's `lat`, `lng` and `radius_km` parameter specs. */
export function pointParams(p: PointSpec): ParamSpec[] {
  const what = p.what ?? 'the search centre';
  const lat = p.lat ?? { min: -90, max: 90 };
  const lng = p.lng ?? { min: -180, max: 180 };
  const pair = (name: string, other: string, bounds: { min: number; max: number }, axis: string): ParamSpec => ({
    name,
    type: 'number',
    min: bounds.min,
    max: bounds.max,
    ...(p.required ? { required: true } : { requires: [other] }),
    description: `${axis} of ${what} (WGS84, degrees ${bounds.min} to ${bounds.max}); ${p.required ? 'required' : `needs ${other}`}`,
  });
  return [
    pair('lat', 'lng', lat, 'latitude'),
    pair('lng', 'lat', lng, 'longitude'),
    {
      name: 'radius_km',
      type: 'number',
      min: p.minKm,
      max: p.maxKm,
      ...(p.declareDefault ? { default: p.defaultKm } : {}),
      ...(p.required ? {} : { requires: ['lat'] }),
      description: `radius around lat/lng, km (default ${p.defaultKm}, ${p.minKm} to ${p.maxKm})${p.required ? '' : '; needs lat and lng'}`,
    },
  ];
}

/** The circle a validated query asks for (`radius_km` or the route's default), or null when it gives no point. */
export function pointOf(q: Record<string, unknown>, p: PointSpec): { lat: number; lng: number; radiusKm: number } | null {
  if (q.lat === undefined || q.lng === undefined) return null;
  return { lat: Number(q.lat), lng: Number(q.lng), radiusKm: Number(q.radius_km ?? p.defaultKm) };
}
