/**
 * The area and months of a /v1/crime list or statistics request as SQL conditions on the `street` table.
 * The route specs have already checked the parameters (exactly one area, months YYYY-MM, month_to not before
 * month_from, radius at most 5 km); this turns them into a WHERE clause that lets DuckDB skip row groups:
 * the table is ordered by latitude band then longitude, so a point-and-radius area adds its bounding box and
 * an LSOA adds the box of its points (table `lsoa_bbox`) besides the exact condition.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ApiError } from '../../contract/errors.js';
import type { HandlerRequest } from '../../contract/types.js';
import { queryOne, type Row, Where } from '../../mirror/db.js';
import { pointOf } from '../../contract/point.js';
import { radiusSearch, type RadiusSearch } from '../../mirror/geo.js';
import { CRIME_POINT } from './routes.js';

export type Area =
  | { kind: 'point'; lat: number; lng: number; radius_km: number }
  | { kind: 'lsoa'; lsoa: string }
  | { kind: 'force'; force: string };

export function areaOf(q: HandlerRequest['query']): Area {
  const p = pointOf(q, CRIME_POINT);
  if (p) return { kind: 'point', lat: p.lat, lng: p.lng, radius_km: p.radiusKm };
  if (q.lsoa !== undefined) return { kind: 'lsoa', lsoa: String(q.lsoa).toUpperCase() };
  return { kind: 'force', force: String(q.force) };
}

/** The area as the statistics answer echoes it. */
export function areaEcho(a: Area): Record<string, unknown> {
  if (a.kind === 'point') return { lat: a.lat, lng: a.lng, radius_km: a.radius_km };
  if (a.kind === 'lsoa') return { lsoa: a.lsoa };
  return { force: a.force };
}

/** The shared point-and-radius query (src/mirror/geo.ts) of a point area. */
export const radiusOf = (a: Extract<Area, { kind: 'point' }>): RadiusSearch => radiusSearch({ lat: a.lat, lng: a.lng, radiusKm: a.radius_km });

/** Add the area's conditions to `where`. */
export async function addArea(conn: DuckDBConnection, where: Where, a: Area): Promise<void> {
  if (a.kind === 'point') {
    radiusOf(a).within(where);
    return;
  }
  if (a.kind === 'lsoa') {
    const box = await queryOne<Row & { min_lat: number | null; max_lat: number | null; min_lng: number | null; max_lng: number | null; no_location: number }>(
      conn,
      'SELECT min_lat, max_lat, min_lng, max_lng, no_location FROM lsoa_bbox WHERE lsoa_code = ?',
      [a.lsoa],
    );
    // an LSOA with no rows: the plain condition answers (nothing); one whose rows all have points: its box too
    if (box && box.no_location === 0 && box.min_lat !== null && box.min_lng !== null) {
      where.add('latitude BETWEEN ? AND ?', box.min_lat, box.max_lat!);
      where.add('longitude BETWEEN ? AND ?', box.min_lng, box.max_lng!);
    }
    where.add('lsoa_code = ?', a.lsoa);
    return;
  }
  where.add('force = ?', a.force);
}

export interface Coverage {
  from: string | null;
  to: string | null;
}

/**
 * The months asked for: `month`, or `month_from`..`month_to` (either end open: the coverage's), else the
 * newest loaded. An open end that would put the range backwards (`month_to` before the first month
 * loaded, `month_from` after the last) is 400 invalid_parameter naming the end given, as a reversed
 * `month_from`/`month_to` pair is (the route's `notBefore`); docs/crime.md "Routes".
 */
export function monthsOf(q: HandlerRequest['query'], cov: Coverage): { from: string | null; to: string | null } {
  if (q.month !== undefined) return { from: String(q.month), to: String(q.month) };
  if (q.month_from !== undefined || q.month_to !== undefined) {
    const from = q.month_from !== undefined ? String(q.month_from) : cov.from;
    const to = q.month_to !== undefined ? String(q.month_to) : cov.to;
    if (from !== null && to !== null && to < from) {
      const [given, open, end] = q.month_to !== undefined ? ['month_to', 'month_from', 'first'] : ['month_from', 'month_to', 'last'];
      throw new ApiError(
        400,
        'invalid_parameter',
        `Parameter '${given}' (${q.month_to !== undefined ? to : from}) is ${given === 'month_to' ? 'before' : 'after'} the ${end} month loaded ` +
          `(${given === 'month_to' ? from : to}), which the open '${open}' stands for: give '${open}' too, or a month within ${cov.from} to ${cov.to}.`,
      );
    }
    return { from, to };
  }
  return { from: cov.to, to: cov.to };
}

export function addMonths(where: Where, m: { from: string | null; to: string | null }): void {
  if (m.from !== null) where.add('month >= ?', m.from);
  if (m.to !== null) where.add('month <= ?', m.to);
}
