/**
 * The example domain's section of the area profile (test-only; src/domains/area-section.ts): the items
 * within the place's circle, by colour, the nearest; built through its own items route like a real domain's.
 */
import { int, nullable, num as numS, obj, record } from '../../../src/contract/schema.js';
import { countBy, noLocation, num, rows, type AreaSectionModule, type Json } from '../../../src/domains/area-section.js';

export const section: AreaSectionModule = {
  async build(c, p) {
    if (p.lat === null) return noLocation();
    const q = { lat: p.lat, lng: p.lng!, radius_km: p.radius };
    const { records } = await c.all('/v1/example/items', q);
    c.mapLayer('example', '/v1/example/items', q);
    return {
      status: 'ok', radius_km: p.radius, count: records.length,
      by_colour: countBy(records.map((r: Json) => String(r.colour))),
      nearest: records.length ? (records[0] as Json).id : null,
    };
  },
  figures: { radius_km: numS(), count: int(), by_colour: record(int()), nearest: nullable(int()) },
  render: (s, width) => rows([[`items within ${s.radius_km} km`, num(s.count)], ...Object.entries(s.by_colour as Record<string, number>).map(([k, v]) => [`  ${k}`, num(v)] as [string, string])], width),
};
