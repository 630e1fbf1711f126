/**
 * The road safety and traffic sections of the area profile (src/domains/area-section.ts, docs/places.md):
 * the collisions of the newest five loaded years within the circle (the radius summary route, issue 34), and the three nearest traffic count
 * points with their AADF, through this domain's own routes.
 */
import { arr, ext, int, nullable, num as numS, obj, str } from '../../contract/schema.js';
import { haversineKm } from '../../mirror/geo.js';
import { noLocation, num, round3, rows, type AreaSectionModule, type Calls, type Json, type Place, type SectionAnswer } from '../area-section.js';

async function roadSafety(c: Calls, p: Place): Promise<SectionAnswer> {
  if (p.lat === null) return noLocation();
  // this domain's radius summary over the newest five years held (the route's default years); the records
  // behind it, the map's points, are the same circle on /v1/vehicles/road-safety/nearby
  const q = { lat: p.lat, lng: p.lng!, radius_km: p.radius };
  const d = (await c.get('/v1/vehicles/road-safety/nearby/summary', q)).data;
  c.mapLayer('collisions', '/v1/vehicles/road-safety/nearby', q, false);
  return { status: 'ok', radius_km: d.radius_km, years: d.years, collisions: d.collisions, by_severity: d.by_severity, casualties: d.casualties };
}

export const roadSafetySection: AreaSectionModule = {
  build: roadSafety,
  figures: { radius_km: numS(), years: obj({ from: int(), to: int() }), collisions: int(), by_severity: obj({ fatal: int(), serious: int(), slight: int() }), casualties: int() },
  render(s, width) {
    return rows([[`collisions ${s.years.from}..${s.years.to}`, `${num(s.collisions)}: ${s.by_severity.fatal} fatal, ${s.by_severity.serious} serious, ${s.by_severity.slight} slight`], ['casualties', num(s.casualties)]], width);
  },
};

export const trafficSection: AreaSectionModule = {
  async build(c, p) {
    if (p.lat === null) return noLocation();
    const pts = (await c.get('/v1/vehicles/traffic/count-points', { lat: p.lat, lng: p.lng!, radius_km: p.radius, per_page: 3 })).data as Json[];
    const out = [];
    for (const cp of pts) {
      const a = (await c.get('/v1/vehicles/traffic/aadf', { count_point: cp.count_point_id, year_from: cp.year, year_to: cp.year })).data as Json[];
      out.push({
        count_point_id: cp.count_point_id, road_name: cp.road_name,
        distance_km: typeof cp.distance_km === 'number' ? cp.distance_km : round3(haversineKm(p.lat, p.lng!, Number(cp.latitude), Number(cp.longitude))),
        year: cp.year, all_motor_vehicles: a[0]?.daily_flows?.all_motor_vehicles ?? null,
      });
    }
    return { status: 'ok', radius_km: p.radius, count_points: out };
  },
  figures: { radius_km: ext(numS(), 'the circle searched'), count_points: arr(obj({ count_point_id: int(), road_name: nullable(str()), distance_km: numS(), year: int(), all_motor_vehicles: nullable(numS()) })) },
  render(s, width) {
    return rows((s.count_points as Json[]).map((x) => [`${x.road_name} (${x.count_point_id})`, `${num(x.all_motor_vehicles)} vehicles/day ${x.year}, ${x.distance_km} km`]), width);
  },
};
