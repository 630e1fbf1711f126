/** Local handlers of the example domain: answers computed from ITEMS (data.ts). */
import { pagination } from '../../../src/contract/envelope.js';
import { errors } from '../../../src/contract/errors.js';
import type { Handler } from '../../../src/contract/types.js';
import { haversineKm } from '../../../src/mirror/geo.js';
import { CAVEAT, ITEMS, NOTE, WARNING, type ExampleItem } from './data.js';

const meta = () => ({ api_version: 'v1' as const, caveat: CAVEAT, warning: WARNING });

function page<T>(all: readonly T[], q: Record<string, unknown>) {
  const p = Number(q.page ?? 1);
  const per = Number(q.per_page ?? 25);
  return { data: all.slice((p - 1) * per, p * per), pagination: pagination(all.length, p, per) };
}

export const items: Handler = (req) => {
  const q = req.query;
  let out: Array<ExampleItem & { distance_km?: number }> = ITEMS.filter((i) =>
    (q.name === undefined || i.title.toLowerCase().includes(String(q.name).toLowerCase())) && (q.colour === undefined || i.colour === q.colour));
  if (q.lat !== undefined && q.lng !== undefined) {
    const [lat, lng, r] = [Number(q.lat), Number(q.lng), Number(q.radius_km ?? 1)];
    out = out.flatMap((i) => {
      if (!i.location) return [];
      const d = haversineKm(lat, lng, i.location.latitude, i.location.longitude);
      return d <= r ? [{ ...i, distance_km: Math.round(d * 1000) / 1000 }] : [];
    }).sort((a, b) => a.distance_km! - b.distance_km!);
  }
  return { ...page(out, q), meta: meta() };
};

export const item: Handler = (req) => {
  const found = ITEMS.find((i) => i.id === req.params.item_id);
  if (!found) throw errors.notFound(`No example item ${String(req.params.item_id)}.`);
  return { data: found, meta: meta() };
};

export const summary: Handler = (req) => {
  const chosen = ITEMS.filter((i) => req.query.colour === undefined || i.colour === req.query.colour);
  if (req.query.basis === 'totals') {
    return { data: { basis: 'totals', item_count: chosen.length, total_count: chosen.reduce((n, i) => n + i.count, 0) }, meta: meta() };
  }
  const by: Record<string, number> = {};
  for (const i of chosen) by[i.colour] = (by[i.colour] ?? 0) + 1;
  const average = chosen.length ? { count: chosen.reduce((n, i) => n + i.count, 0) / chosen.length } : null;
  return { data: { basis: 'counts', item_count: chosen.length, by_colour: by, average }, meta: meta() };
};

export const notes: Handler = (req) => ({ ...page([] as Array<{ id: number }>, req.query), meta: { api_version: 'v1', note: NOTE } });
