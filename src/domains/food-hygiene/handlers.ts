/**
 * Local handlers of /v1/food-hygiene/establishments (search) and /establishments/{fhrs_id} (detail) over
 * the mirror's food_hygiene.duckdb (sync.ts). The list handlers are in handlers-lists.ts.
 *
 * Search: every filter of the spec, ANDed. `lat`/`lng` (the validator has checked both are given, and
 * radius_km's bounds) select establishments within `radius_km` by the haversine distance (geo.ts): the
 * grid cells and the latitude/longitude box narrow the scan to a few row groups first. Order: `name`
 * (case-insensitive, then id), `distance` (nearest first; the default with lat/lng), `rating` (FHRS 5 to 0,
 * then the other values, then name), `rating_date` (newest first, undated last).
 */
import { pagination } from '../../contract/envelope.js';
import { errors } from '../../contract/errors.js';
import type { Handler, HandlerRequest } from '../../contract/types.js';
import { openDataset, query, queryOne, Where, type Param } from '../../mirror/db.js';
import { FOOD_HYGIENE_INFO } from './datasets.js';
import { HAVERSINE_SQL, searchBox } from './geo.js';
import { addAuthorityFilter, addPostcodeFilter, foodMeta, knownAuthority, toDetail, toEstablishment } from './shape.js';

export { listAuthorities, listBusinessTypes, statistics } from './handlers-lists.js';

const ORDER: Record<string, string> = {
  name: 'lower(business_name) NULLS LAST, fhrs_id',
  distance: 'distance_km, fhrs_id',
  rating: 'rating_numeric DESC NULLS LAST, rating_value, lower(business_name) NULLS LAST, fhrs_id',
  rating_date: 'rating_date DESC NULLS LAST, fhrs_id',
};

interface Near {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** The search's filters and order, checked before the mirror is opened. */
function searchPlan(req: HandlerRequest): { where: Where; near: Near | null; order: string } {
  const q = req.query;
  const near: Near | null = q.lat !== undefined && q.lng !== undefined
    ? { lat: Number(q.lat), lng: Number(q.lng), radiusKm: Number(q.radius_km ?? 1) }
    : null;
  const sort = typeof q.sort === 'string' ? q.sort : near ? 'distance' : 'name';
  if (sort === 'distance' && !near) throw errors.invalidParameter("Invalid parameter 'sort': 'distance' needs 'lat' and 'lng'.");
  const where = new Where();
  if (typeof q.name === 'string') where.add('contains(lower(business_name), lower(?))', q.name);
  if (typeof q.postcode === 'string') addPostcodeFilter(where, q.postcode);
  if (typeof q.local_authority === 'string') addAuthorityFilter(where, q.local_authority);
  if (q.business_type_id !== undefined) where.add('business_type_id = ?', Number(q.business_type_id));
  if (Array.isArray(q.rating)) {
    const values = [...new Set(q.rating as string[])];
    where.add(`rating_value IN (${values.map(() => '?').join(', ')})`, ...values);
  }
  if (q.min_rating !== undefined) where.add('rating_numeric >= ?', Number(q.min_rating));
  if (typeof q.scheme === 'string') where.add('scheme = ?', q.scheme);
  if (near) {
    const box = searchBox(near.lat, near.lng, near.radiusKm);
    where.add('cell BETWEEN ? AND ?', box.minCell, box.maxCell);
    where.add('latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?', box.minLat, box.maxLat, box.minLng, box.maxLng);
    where.add(`${HAVERSINE_SQL} <= ?`, near.lat, near.lat, near.lng, near.radiusKm);
  }
  return { where, near, order: ORDER[sort]! };
}

export const searchEstablishments: Handler = async (req, ctx) => {
  const { where, near, order } = searchPlan(req); // every check before the mirror is touched
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const conn = await openDataset(FOOD_HYGIENE_INFO, ctx.mirrorDir);
  if (typeof req.query.local_authority === 'string') await knownAuthority(conn, req.query.local_authority);
  const total = (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM establishments ${where.sql}`, where.params))?.n ?? 0;
  const offset = (page - 1) * perPage;
  const distance = near ? `, ${HAVERSINE_SQL} AS distance_km` : '';
  const distanceParams: Param[] = near ? [near.lat, near.lat, near.lng] : [];
  const rows = total > offset
    ? await query(conn, `SELECT *${distance} FROM establishments ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      ...distanceParams, ...where.params, perPage, offset,
    ])
    : [];
  const extra = near ? { distance: 'haversine, Earth radius 6371.0088 km, distance_km rounded to the metre' } : {};
  return { data: rows.map(toEstablishment), meta: await foodMeta(conn, extra), pagination: pagination(total, page, perPage) };
};

export const getEstablishment: Handler = async (req, ctx) => {
  const id = Number(req.params.fhrs_id);
  const conn = await openDataset(FOOD_HYGIENE_INFO, ctx.mirrorDir);
  const row = await queryOne(conn, 'SELECT * FROM establishments WHERE fhrs_id = ?', [id]);
  if (!row) throw errors.notFound(`No establishment with FHRS id ${id} in the mirror.`);
  return { data: toDetail(row), meta: await foodMeta(conn) };
};
