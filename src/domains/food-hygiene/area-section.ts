/**
 * The food hygiene section of the area profile (src/domains/area-section.ts, docs/places.md): the
 * establishments within the circle, by rating, the share rated 4 or 5, the five nearest rated 0 to 2.
 */
import { arr, int, nullable, num as numS, obj, record, str } from '../../contract/schema.js';
import { countBy, noLocation, num, round3, rows, type AreaSectionModule, type Json } from '../area-section.js';

export const section: AreaSectionModule = {
  async build(c, p) {
    if (p.lat === null) return noLocation();
    const { records } = await c.all('/v1/food-hygiene/establishments', { lat: p.lat, lng: p.lng!, radius_km: p.radius, sort: 'distance' });
    c.mapLayer('food', '/v1/food-hygiene/establishments', { lat: p.lat, lng: p.lng!, radius_km: p.radius, sort: 'distance' });
    const numeric = records.filter((e) => typeof e.rating?.numeric === 'number');
    return {
      status: 'ok', radius_km: p.radius, count: records.length,
      by_rating: countBy(records.map((e) => String(e.rating?.value ?? 'unknown'))),
      share_4_or_5: numeric.length ? round3(numeric.filter((e) => e.rating.numeric >= 4).length / numeric.length) : null,
      lowest_rated: numeric.filter((e) => e.rating.numeric <= 2).slice(0, 5)
        .map((e) => ({ fhrs_id: e.fhrs_id, business_name: e.business_name, rating: e.rating.numeric, distance_km: e.distance_km })),
    };
  },

  figures: {
    radius_km: numS(), count: int(), by_rating: record(int()), share_4_or_5: nullable(numS()),
    lowest_rated: arr(obj({ fhrs_id: int(), business_name: str(), rating: int(), distance_km: numS() })),
  },

  render(s, width) {
    return [
      ...rows([[`establishments within ${s.radius_km} km`, num(s.count)], ['rated 4 or 5', s.share_4_or_5 === null ? 'n/a' : `${Math.round(s.share_4_or_5 * 100)}%`]], width),
      ...rows((s.lowest_rated as Json[]).map((x) => [x.business_name, `rating ${x.rating}, ${x.distance_km} km`]), width),
    ];
  },
};
