/**
 * The schools section of the area profile (src/domains/area-section.ts, docs/places.md): the open schools
 * within the circle, by phase and by their latest inspection's outcome, the ten nearest.
 */
import { any, arr, int, nullable, num as numS, obj, record, str } from '../../contract/schema.js';
import { countBy, noLocation, num, rows, type AreaSectionModule, type Json } from '../area-section.js';

export const section: AreaSectionModule = {
  async build(c, p) {
    if (p.lat === null) return noLocation();
    const { records } = await c.all('/v1/schools', { lat: p.lat, lng: p.lng!, radius_km: p.radius });
    c.mapLayer('schools', '/v1/schools', { lat: p.lat, lng: p.lng!, radius_km: p.radius });
    const outcome = (s: Json) => s.latest_inspection?.overall_effectiveness ?? s.latest_inspection?.outcome ?? s.latest_inspection?.framework ?? 'not_inspected';
    return {
      status: 'ok', radius_km: p.radius, count: records.length,
      by_phase: countBy(records.map((s) => String(s.phase ?? 'unknown'))),
      by_outcome: countBy(records.map((s) => String(outcome(s)))),
      nearest: records.slice(0, 10).map((s) => ({ urn: s.urn, name: s.name, phase: s.phase, distance_km: s.distance_km, latest_inspection: s.latest_inspection })),
    };
  },

  figures: {
    radius_km: numS(), count: int(), by_phase: record(int()), by_outcome: record(int()),
    nearest: arr(obj({ urn: int(), name: str(), phase: nullable(str()), distance_km: numS(), latest_inspection: any('as in /v1/schools') })),
  },

  render(s, width) {
    return [
      ...rows([[`schools within ${s.radius_km} km`, num(s.count)], ...Object.entries(s.by_outcome as Record<string, number>).map(([k, v]) => [`  ${k}`, num(v)] as [string, string])], width),
      ...rows((s.nearest as Json[]).slice(0, 5).map((x) => [x.name, `${x.phase ?? ''} ${x.distance_km} km`]), width),
    ];
  },
};
