/**
 * The crime section of the area profile (src/domains/area-section.ts, docs/places.md): the crimes within the
 * circle over the N months ending with the newest month any force holds, by category and by month.
 */
import { any, arr, int, num as numS, obj, str } from '../../contract/schema.js';
import { cut, monthMinus, noLocation, NotSynced, num, rows, sparkline, type AreaSectionModule, type Json } from '../area-section.js';

export const section: AreaSectionModule = {
  async build(c, p) {
    if (p.lat === null) return noLocation();
    const forces = (await c.get('/v1/crime/forces')).data as Json[];
    const newest = forces.map((f) => String(f.months?.to ?? '')).sort().at(-1);
    if (!newest) throw new NotSynced('publicdata sync crime');
    const from = monthMinus(newest, p.months - 1);
    const answer = await c.get('/v1/crime/statistics', { lat: p.lat, lng: p.lng!, radius_km: p.radius, month_from: from, month_to: newest });
    const d = answer.data;
    // no loaded force-month covers this place in the window: the statistics route answers null figures, not 0
    if (d.total === null || d.total === undefined) {
      return { status: 'no_coverage', note: String(answer.meta?.note ?? `No force loaded in the mirror covers this place for ${from} to ${newest}; 'publicdata sync crime' loads every force.`) };
    }
    // the map's points: the street crimes of the same circle and months
    c.mapLayer('crime', '/v1/crime/street', { lat: p.lat, lng: p.lng!, radius_km: p.radius, month_from: from, month_to: newest });
    // every month of the window, a month without crimes as 0 (the statistics route lists months with crimes)
    const counts = new Map((d.by_month as Json[]).map((m) => [String(m.month), Number(m.count)]));
    const byMonth = Array.from({ length: p.months }, (_, i) => monthMinus(newest, p.months - 1 - i)).map((m) => ({ month: m, count: counts.get(m) ?? 0 }));
    return { status: 'ok', months: { from, to: newest }, radius_km: p.radius, total: d.total, by_category: d.by_category, by_month: byMonth };
  },

  figures: {
    months: obj({ from: str('YYYY-MM'), to: str('YYYY-MM') }), radius_km: numS(), total: int(),
    by_category: arr(any('as /v1/crime/statistics by_category')), by_month: arr(obj({ month: str(), count: int() })),
  },

  render(s, width) {
    return [
      ...rows([[`crimes within ${s.radius_km} km`, `${num(s.total)} (${s.months.from}..${s.months.to})`]], width),
      cut(`  by month  ${sparkline((s.by_month as Json[]).map((m) => m.count))}`, width),
      ...rows((s.by_category as Json[]).slice(0, 5).map((x) => [x.category_label ?? x.category, num(x.count)]), width),
    ];
  },
};
