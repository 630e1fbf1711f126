/**
 * Local handlers of /v1/food-hygiene/establishments (search) and /establishments/{fhrs_id} (detail) over
 * the mirror's food_hygiene.duckdb (sync/index.ts). The list handlers are in handlers-lists.ts.
 *
 * Search: every filter of the spec, ANDed. `lat`/`lng` (the validator has checked both are given, and
 * radius_km's bounds) select establishments within `radius_km` through the shared radius search
 * (src/mirror/geo.ts): the grid cells (the table is stored in cell order) and the latitude/longitude box
 * narrow the scan to a few row groups first, the haversine distance decides. Order: `name`
 * (case-insensitive, then id), `distance` (nearest first; the default with lat/lng), `rating` (FHRS 5 to 0,
 * then the other values, then name), `rating_date` (newest first, undated last).
 */
import { pagination } from '../../contract/envelope.js';
import { errors } from '../../contract/errors.js';
import type { Handler, HandlerRequest } from '../../contract/types.js';
import { pointOf } from '../../contract/point.js';
import { openDataset, query, queryOne, Where } from '../../mirror/db.js';
import { radiusSearch, type RadiusSearch } from '../../mirror/geo.js';
import { FOOD_HYGIENE_INFO } from './datasets.js';
import { FOOD_HYGIENE_POINT } from './routes.js';
import { addAuthorityFilter, addPostcodeFilter, foodMeta, knownAuthority, matchingAuthorities, toDetail, toEstablishment } from './shape.js';

export { listAuthorities, listBusinessTypes, statistics } from './handlers-lists.js';

/** The table's points: latitude/longitude, and the grid cell it is stored in order of (sync.ts). */
const GEO_COLUMNS = { lat: 'latitude', lng: 'longitude', cell: 'cell' };

const ORDER: Record<string, string> = {
  name: 'lower(business_name) NULLS LAST, fhrs_id',
  rating: 'rating_numeric DESC NULLS LAST, rating_value, lower(business_name) NULLS LAST, fhrs_id',
  rating_date: 'rating_date DESC NULLS LAST, fhrs_id',
};

/** The search's filters and order, checked before the mirror is opened. */
function searchPlan(req: HandlerRequest): { where: Where; near: RadiusSearch | null; order: string } {
  const q = req.query;
  const point = pointOf(q, FOOD_HYGIENE_POINT);
  const near = point ? radiusSearch(point, GEO_COLUMNS) : null;
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
  near?.within(where);
  return { where, near, order: sort === 'distance' ? near!.orderBy('fhrs_id') : ORDER[sort]! };
}

export const searchEstablishments: Handler = async (req, ctx) => {
  const { where, near, order } = searchPlan(req); // every check before the mirror is touched
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const conn = await openDataset(FOOD_HYGIENE_INFO, ctx.mirrorDir);
  const authorities = typeof req.query.local_authority === 'string' ? await knownAuthority(conn, req.query.local_authority) : undefined;
  const total = (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM establishments ${where.sql}`, where.params))?.n ?? 0;
  const offset = (page - 1) * perPage;
  const distance = near ? `, ${near.select}` : '';
  const rows = total > offset
    ? await query(conn, `SELECT *${distance} FROM establishments ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      ...(near?.selectParams ?? []), ...where.params, perPage, offset,
    ])
    : [];
  const extra = near ? { distance: near.method } : {};
  return { data: rows.map(toEstablishment), meta: await foodMeta(conn, extra, authorities), pagination: pagination(total, page, perPage) };
};

export const getEstablishment: Handler = async (req, ctx) => {
  const id = Number(req.params.fhrs_id);
  const conn = await openDataset(FOOD_HYGIENE_INFO, ctx.mirrorDir);
  const row = await queryOne(conn, 'SELECT * FROM establishments WHERE fhrs_id = ?', [id]);
  if (!row) throw errors.notFound(`No establishment with FHRS id ${id} in the mirror.`);
  // the caveat gives the extract date of the authority file this record came from
  return { data: toDetail(row), meta: await foodMeta(conn, {}, { loaded: await matchingAuthorities(conn, String(row.source_code)), notLoaded: [] }) };
};
