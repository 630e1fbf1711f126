/**
 * /v1/vehicles/traffic/{count-points,aadf,regional,local-authority} over the mirror's road_traffic.duckdb
 * (sync/road-traffic.ts). Definitions the spec leaves open (docs/vehicles.md "Road traffic"):
 * - a count point's `year` is the latest year, within `year_from`..`year_to` when given, for which the
 *   point has an annual average daily flow; its road name, road type and position are those of that year.
 *   A point appears when it has a flow in the range. A radius search (`lat`, `lng`, `radius_km`: the
 *   route's point parameters, src/contract/point.ts) is the shared one (src/mirror/geo.ts): the
 *   great-circle distance, nearest first.
 * - `road_class` matches (substring, any case) the road category code (TM, PM, TA, PA, B, C, U) or the road
 *   type (Major, Minor); `road_name`, `region` and `local_authority` match their names by substring, any case.
 * - `daily_flows` carries every vehicle class of the file (vehicles per day, whole vehicles);
 *   `vehicle_miles` is as published (unrounded); presented figures round to the nearest million.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { pagination } from '../../contract/envelope.js';
import type { Handler, HandlerRequest, Meta } from '../../contract/types.js';
import { pointOf } from '../../contract/point.js';
import { openDataset, pagedQuery, provenanceMeta, queryOne, type Row, Where } from '../../mirror/db.js';
import { radiusSearch } from '../../mirror/geo.js';
import { TRAFFIC_POINT } from './routes.js';
import { ROAD_TRAFFIC_INFO } from './traffic-datasets.js';

const DATASET = ROAD_TRAFFIC_INFO;

export const AADF_FLOW_KEYS = [
  'pedal_cycles', 'two_wheeled_motor_vehicles', 'cars_and_taxis', 'buses_and_coaches', 'lgvs', 'hgvs_2_rigid_axle',
  'hgvs_3_rigid_axle', 'hgvs_4_or_more_rigid_axle', 'hgvs_3_or_4_articulated_axle', 'hgvs_5_articulated_axle',
  'hgvs_6_articulated_axle', 'all_hgvs', 'all_motor_vehicles',
] as const;

export const COUNT_POINT_YEAR =
  "year: the latest year (within year_from..year_to when given) with an annual average daily flow at the point; road name, road type and position as recorded that year";
export const AADF_CAVEAT =
  'Annual average daily flows are modelled estimates (counted on one day at some points, estimated from earlier counts or the road network at others: see estimation_method); link and small-area values are less robust than regional totals.';
export const MILES_PRESENTATION = 'values are unrounded vehicle miles as published; presented figures should be rounded to the nearest million vehicle miles';

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function pageOf(req: HandlerRequest): { page: number; perPage: number } {
  return { page: Number(req.query.page ?? 1), perPage: Number(req.query.per_page ?? 25) };
}

function yearRange(req: HandlerRequest, where: Where, column = 'year'): void {
  if (req.query.year_from !== undefined) where.add(`${column} >= ?`, Number(req.query.year_from));
  if (req.query.year_to !== undefined) where.add(`${column} <= ?`, Number(req.query.year_to));
}

/** `column` contains `value`, any case (a literal substring: LIKE wildcards in the value are escaped). */
function contains(where: Where, columns: string[], value: unknown): void {
  const v = `%${String(value).trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  where.add(`(${columns.map((c) => `${c} ILIKE ? ESCAPE '\\'`).join(' OR ')})`, ...columns.map(() => v));
}

const yearsCache = new WeakMap<DuckDBConnection, Promise<{ from: number | null; to: number | null }>>();
function aadfYears(conn: DuckDBConnection): Promise<{ from: number | null; to: number | null }> {
  let p = yearsCache.get(conn);
  if (!p) {
    p = queryOne<{ from: number | null; to: number | null }>(conn, 'SELECT min(year) AS "from", max(year) AS "to" FROM aadf').then(
      (r) => r ?? { from: null, to: null },
    );
    yearsCache.set(conn, p);
  }
  return p;
}

async function trafficMeta(conn: DuckDBConnection, extra: Record<string, unknown>): Promise<Meta> {
  return provenanceMeta(DATASET, conn, extra);
}

export const countPoints: Handler = async (req, ctx) => {
  const q = req.query;
  // lat needs lng, lng needs lat, radius_km needs lat: the route's point parameters (validated before this)
  const point = pointOf(q, TRAFFIC_POINT);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const { page, perPage } = pageOf(req);
  const ranged = q.year_from !== undefined || q.year_to !== undefined;
  // FROM: the derived count_points table, or the points of the year range; then, for a radius search, the
  // distance. Parameters are bound in the order their placeholders appear in the text.
  let from = 'count_points';
  const where = new Where();
  if (ranged) {
    const inner = new Where();
    yearRange(req, inner);
    from = `(SELECT count_point_id, max(year) AS year, arg_max(road_name, year) AS road_name, arg_max(road_type, year) AS road_type,
                    arg_max(latitude, year) AS latitude, arg_max(longitude, year) AS longitude
             FROM aadf ${inner.sql} GROUP BY count_point_id)`;
    where.params.push(...inner.params);
  }
  let orderBy = 'count_point_id';
  const near = point ? radiusSearch(point) : null;
  if (near) {
    from = `(SELECT *, ${near.select} FROM ${from})`;
    where.params.unshift(...near.selectParams);
    orderBy = near.orderBy('count_point_id');
  }
  if (q.count_point !== undefined) where.add('count_point_id = ?', Number(q.count_point));
  near?.within(where);
  const columns = `count_point_id, year, road_name, road_type, latitude, longitude${near ? ', distance_km' : ''}`;
  const { rows, total } = await pagedQuery(conn, { from, columns, where, orderBy, page, perPage });
  const years = await aadfYears(conn);
  const meta = await trafficMeta(conn, {
    coverage: years.from === null ? null : `${years.from}-${years.to}`,
    count_point_year: COUNT_POINT_YEAR,
    ...(near ? { order: 'distance', distance: near.method } : {}),
  });
  return {
    data: rows.map((r) => ({ ...r, latitude: num(r.latitude), longitude: num(r.longitude), ...(near ? { distance_km: num(r.distance_km) } : {}) })),
    meta,
    pagination: pagination(total, page, perPage),
  };
};

export const aadf: Handler = async (req, ctx) => {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  if (q.count_point !== undefined) where.add('count_point_id = ?', Number(q.count_point));
  yearRange(req, where);
  if (q.road_name !== undefined) contains(where, ['road_name'], q.road_name);
  if (q.road_class !== undefined) contains(where, ['road_category', 'road_type'], q.road_class);
  if (q.region !== undefined) contains(where, ['region_name'], q.region);
  if (q.local_authority !== undefined) contains(where, ['local_authority_name'], q.local_authority);
  const { page, perPage } = pageOf(req);
  const { rows, total } = await pagedQuery(conn, { from: 'aadf', where, orderBy: 'count_point_id, year', page, perPage });
  return {
    data: rows.map(toAadfRecord),
    meta: await trafficMeta(conn, { unit: 'vehicles/day', caveat: AADF_CAVEAT }),
    pagination: pagination(total, page, perPage),
  };
};

/** One `aadf` row as the API record (spec fields first, then where the point is). */
export function toAadfRecord(r: Row): Record<string, unknown> {
  return {
    count_point_id: r.count_point_id,
    year: r.year,
    road_name: r.road_name,
    estimation_method: r.estimation_method,
    daily_flows: Object.fromEntries(AADF_FLOW_KEYS.map((k) => [k, num(r[k])])),
    road_category: r.road_category,
    road_type: r.road_type,
    region_name: r.region_name,
    local_authority_name: r.local_authority_name,
  };
}

export const regional: Handler = async (req, ctx) => {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  yearRange(req, where);
  if (q.region !== undefined) contains(where, ['region_name'], q.region);
  if (q.breakdown !== undefined) where.add('breakdown = ?', String(q.breakdown));
  const { page, perPage } = pageOf(req);
  const { rows, total } = await pagedQuery(conn, {
    from: 'regional',
    columns: 'year, region_name, breakdown, vehicle_miles',
    where,
    orderBy: 'region_name, breakdown, year',
    page,
    perPage,
  });
  return {
    data: rows.map((r) => ({ ...r, vehicle_miles: JSON.parse(String(r.vehicle_miles)) as Record<string, number | null> })),
    meta: await trafficMeta(conn, { unit: 'vehicle miles', presentation: MILES_PRESENTATION }),
    pagination: pagination(total, page, perPage),
  };
};

export const localAuthority: Handler = async (req, ctx) => {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  yearRange(req, where);
  if (q.local_authority !== undefined) contains(where, ['local_authority_name'], q.local_authority);
  const { page, perPage } = pageOf(req);
  const { rows, total } = await pagedQuery(conn, {
    from: 'local_authority_traffic',
    where,
    orderBy: 'local_authority_name, year',
    page,
    perPage,
  });
  return {
    data: rows.map((r) => ({
      year: r.year,
      local_authority_name: r.local_authority_name,
      local_authority_code: r.local_authority_code ?? null,
      vehicle_miles: { cars_and_taxis: num(r.cars_and_taxis), all_motor_vehicles: num(r.all_motor_vehicles) },
    })),
    meta: await trafficMeta(conn, { unit: 'vehicle miles', presentation: MILES_PRESENTATION }),
    pagination: pagination(total, page, perPage),
  };
};
