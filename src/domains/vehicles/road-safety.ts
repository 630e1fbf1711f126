/**
 * /v1/vehicles/road-safety/collisions and /collisions/{collision_index} over the mirror's road_safety.duckdb
 * (sync/road-safety.ts). Records as spec doc 3 "Collision (list item)" / "Collision (detail)": coded fields
 * as published (-1 = unknown), labels from the DfT code list, collision indexes and references as strings,
 * longitude/latitude as the file's strings. List order: newest first (date, then time, unknown times
 * last), then collision index. The detail's `collision_time` is the local (UK) date and time of the
 * collision as a UTC instant `YYYY-MM-DDTHH:MM:SSZ` (the spec's timestamps are UTC), and
 * `collision_local_time` the UK clock time as recorded, `YYYY-MM-DDTHH:MM:SS` (both null when the time is
 * unknown); the list's `collision_time` is the recorded `HH:MM:SS`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, Meta } from '../../contract/types.js';
import { lastSync, openDataset, pagedQuery, provenanceMeta, query, queryOne, Where } from '../../mirror/db.js';
import { pointOf } from '../../contract/point.js';
import { radiusSearch, type GeoColumns } from '../../mirror/geo.js';
import { COLLISION_POINT } from './routes.js';
import { ROAD_SAFETY_INFO } from './traffic-datasets.js';
import { ukLocalToUtc } from '../../uk-time.js';

const DATASET = ROAD_SAFETY_INFO;

const LIST_COLUMNS = `collision_index, collision_year, collision_ref_no AS collision_reference, longitude, latitude,
  collision_severity, collision_severity_label, number_of_vehicles, number_of_casualties, collision_date, collision_time,
  police_force, local_authority_ons_district, speed_limit, road_type, road_type_label, urban_or_rural_area,
  urban_or_rural_area_label, lsoa_of_accident_location AS lsoa`;

const VEHICLE_COLUMNS = `vehicle_reference, vehicle_type, vehicle_type_label, sex_of_driver, sex_of_driver_label, age_of_driver,
  age_band_of_driver, age_band_of_driver_label, engine_capacity_cc, propulsion_code, age_of_vehicle, generic_make_model, escooter_flag`;

const CASUALTY_COLUMNS = `vehicle_reference, casualty_reference, casualty_class, casualty_class_label, sex_of_casualty,
  sex_of_casualty_label, age_of_casualty, age_band_of_casualty, age_band_of_casualty_label, casualty_severity,
  casualty_severity_label, casualty_type, casualty_type_label, casualty_imd_decile, pedestrian_location, lsoa_of_casualty AS lsoa`;

export const COLLISIONS_CAVEAT =
  'Personal-injury road collisions reported to the police in Great Britain (STATS19); damage-only collisions and ' +
  'collisions not reported to the police are not included. -1 in a coded field means unknown or out of range. ' +
  'Severity is as reported by the police; forces using injury-based reporting (CRASH) give more serious ' +
  'classifications, so the adjusted-severity columns of the mirror should be used to compare years.';
export const COLLISIONS_CADENCE =
  'annual: final data for a year published each September; this mirror holds final data of the synced years';

const metaCache = new WeakMap<DuckDBConnection, Promise<Record<string, unknown>>>();
/** The dataset facts every road-safety answer's meta carries (once per open file). */
function datasetFacts(conn: DuckDBConnection): Promise<Record<string, unknown>> {
  let p = metaCache.get(conn);
  if (!p) {
    p = (async () => {
      const cov = await queryOne<{ year_from: number | null; year_to: number | null; date_from: string | null; date_to: string | null }>(
        conn,
        'SELECT year_from, year_to, date_from, date_to FROM coverage',
      );
      const log = await lastSync(conn);
      return {
        last_updated: log?.published ?? (log?.synced_at ? String(log.synced_at).slice(0, 10) : null),
        coverage: { from: cov?.year_from ?? null, to: cov?.year_to ?? null },
        date_coverage: { from: cov?.date_from ?? null, to: cov?.date_to ?? null },
        geography: 'Great Britain',
        cadence: COLLISIONS_CADENCE,
        caveat: COLLISIONS_CAVEAT,
      };
    })();
    metaCache.set(conn, p);
  }
  return p;
}

async function collisionsMeta(conn: DuckDBConnection): Promise<Meta> {
  return provenanceMeta(DATASET, conn, await datasetFacts(conn));
}

export const collisionsList: Handler = async (req, ctx) => {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  if (q.year !== undefined) where.add('collision_year = ?', Number(q.year));
  if (q.severity !== undefined) where.add('collision_severity = ?', Number(q.severity));
  if (q.local_authority !== undefined) where.add('local_authority_ons_district = ?', String(q.local_authority).trim().toUpperCase());
  if (q.date_from !== undefined) where.add('collision_date >= CAST(? AS DATE)', String(q.date_from));
  if (q.date_to !== undefined) where.add('collision_date <= CAST(? AS DATE)', String(q.date_to));
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const { rows, total } = await pagedQuery(conn, {
    from: 'collisions',
    columns: LIST_COLUMNS,
    where,
    orderBy: 'collision_date DESC, collision_time DESC NULLS LAST, collision_index',
    page,
    perPage,
  });
  return { data: rows, meta: await collisionsMeta(conn), pagination: pagination(total, page, perPage) };
};

export const collisionGet: Handler = async (req, ctx) => {
  const index = String(req.params.collision_index ?? '').trim();
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const row = await queryOne(conn, `SELECT ${LIST_COLUMNS} FROM collisions WHERE collision_index = ?`, [index]);
  if (!row) {
    const m = await datasetFacts(conn);
    const cov = m.coverage as { from: number | null; to: number | null };
    throw new ApiError(404, 'not_found', `Collision '${index}' not found (the mirror holds collisions of ${cov.from}–${cov.to}).`);
  }
  const [vehicles, casualties] = [
    await query(conn, `SELECT ${VEHICLE_COLUMNS} FROM vehicles WHERE collision_index = ? ORDER BY vehicle_reference`, [index]),
    await query(conn, `SELECT ${CASUALTY_COLUMNS} FROM casualties WHERE collision_index = ? ORDER BY casualty_reference`, [index]),
  ];
  // The spec's timestamps are UTC instants: collision_time is the UTC instant of the UK clock time the
  // police recorded, which stays in collision_local_time (docs/vehicles.md "Road safety").
  const local = row.collision_time === null ? null : `${String(row.collision_date)}T${String(row.collision_time)}`;
  const utc = row.collision_time === null ? null : ukLocalToUtc(String(row.collision_date), String(row.collision_time));
  return { data: { ...row, collision_time: utc, collision_local_time: local, vehicles, casualties }, meta: await collisionsMeta(conn) };
};

/**
 * The years a radius answer covers: `year_from`..`year_to` as asked, within the years held; without them
 * the newest five years held (the area profile's road safety section). A range the mirror holds none of
 * is a 404 naming the years held.
 */
async function nearYears(conn: DuckDBConnection, q: Record<string, unknown>): Promise<{ from: number; to: number; clipped: boolean }> {
  await hasPoints(conn);
  const cov = (await datasetFacts(conn)).coverage as { from: number | null; to: number | null };
  if (cov.from === null || cov.to === null) throw new ApiError(404, 'not_found', 'The mirror holds no collisions.');
  const askedTo = q.year_to === undefined ? cov.to : Number(q.year_to);
  const askedFrom = q.year_from === undefined ? Math.min(askedTo, cov.to) - (NEAR_DEFAULT_YEARS - 1) : Number(q.year_from);
  const from = Math.max(askedFrom, cov.from);
  const to = Math.min(askedTo, cov.to);
  if (from > to) throw new ApiError(404, 'not_found', `No collisions of ${askedFrom}–${askedTo} in the mirror (it holds ${cov.from}–${cov.to}).`);
  const clipped = (q.year_from !== undefined && from !== askedFrom) || (q.year_to !== undefined && to !== askedTo);
  return { from, to, clipped };
}

const pointsCache = new WeakMap<DuckDBConnection, Promise<void>>();
/** A mirror synced before the radius routes has no `collision_points`: the sync that adds it is named (503, as an unsynced dataset). */
function hasPoints(conn: DuckDBConnection): Promise<void> {
  let p = pointsCache.get(conn);
  if (!p) {
    p = queryOne<{ n: number }>(conn, "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'collision_points'").then((r) => {
      if (!r?.n) {
        throw new ApiError(503, 'dataset_not_synced', "This road-safety mirror was synced before the radius routes existed (no collision_points table): run 'publicdata sync road-safety' again.");
      }
    });
    pointsCache.set(conn, p);
  }
  return p;
}

/** The newest years a radius answer covers when no year range is given (spec 5-places.md: "the newest five loaded"). */
export const NEAR_DEFAULT_YEARS = 5;

/** `collision_points` (sync/road-safety.ts): DOUBLE positions, stored in grid-cell order (the latitude box prunes). */
const COLLISION_POINT_COLUMNS: GeoColumns = { lat: 'lat', lng: 'lng' };

/** The located collisions of the years within the circle: FROM with the distance column, and its WHERE. */
function nearQuery(q: Record<string, unknown>, years: { from: number; to: number }): { from: string; where: Where; orderBy: string; method: string } {
  const near = radiusSearch(pointOf(q, COLLISION_POINT)!, COLLISION_POINT_COLUMNS);
  const where = new Where();
  where.params.push(...near.selectParams);
  near.within(where);
  where.add('collision_year BETWEEN ? AND ?', years.from, years.to);
  if (q.severity !== undefined) where.add('collision_severity = ?', Number(q.severity));
  return { from: `(SELECT *, ${near.select} FROM collision_points)`, where, orderBy: near.orderBy('collision_index'), method: near.method };
}

async function nearMeta(conn: DuckDBConnection, years: { from: number; to: number; clipped: boolean }, method: string): Promise<Meta> {
  const y = await queryOne<{ collisions: number | null; located: number | null }>(
    conn,
    'SELECT sum(collisions)::BIGINT AS collisions, sum(located)::BIGINT AS located FROM collision_years WHERE collision_year BETWEEN ? AND ?',
    [years.from, years.to],
  );
  const unplaced = Number(y?.collisions ?? 0) - Number(y?.located ?? 0);
  const notes = [
    `Collisions of ${years.from}–${years.to} whose recorded position is within the radius (${method}).`,
    ...(unplaced > 0 ? [`${unplaced} collisions of these years have no position in the file and cannot be placed: they are not counted.`] : []),
    ...(years.clipped ? ['The years asked for were narrowed to the years the mirror holds (years says which).'] : []),
  ];
  return collisionsMeta(conn).then((m) => ({ ...m, years: { from: years.from, to: years.to }, without_location: unplaced, distance: method, note: notes.join(' ') }));
}

/** GET /v1/vehicles/road-safety/nearby: the collision list items within the circle, nearest first, with distance_km. */
export const collisionsNearby: Handler = async (req, ctx) => {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const years = await nearYears(conn, q);
  const nq = nearQuery(q, years);
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const { rows, total } = await pagedQuery(conn, { from: nq.from, columns: `${LIST_COLUMNS}, distance_km`, where: nq.where, orderBy: nq.orderBy, page, perPage });
  return {
    data: rows.map((r) => ({ ...r, distance_km: Number(r.distance_km) })),
    meta: await nearMeta(conn, years, nq.method),
    pagination: pagination(total, page, perPage),
  };
};

interface YearFigures {
  year: number;
  collisions: number;
  by_severity: { fatal: number; serious: number; slight: number };
  casualties: number;
}

/**
 * GET /v1/vehicles/road-safety/nearby/summary: the collisions within the circle over the years, by severity
 * (STATS19 collision_severity 1 fatal, 2 serious, 3 slight, as reported) and their casualties
 * (number_of_casualties summed), in all and per year. One aggregate over the pruned row groups.
 */
export const collisionsNearbySummary: Handler = async (req, ctx) => {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const years = await nearYears(conn, q);
  const nq = nearQuery(q, years);
  const rows = await query<{ collision_year: number; n: bigint | number; fatal: bigint | number; serious: bigint | number; slight: bigint | number; casualties: bigint | number | null }>(
    conn,
    `SELECT collision_year, count(*) AS n, count(*) FILTER (WHERE collision_severity = 1) AS fatal,
            count(*) FILTER (WHERE collision_severity = 2) AS serious, count(*) FILTER (WHERE collision_severity = 3) AS slight,
            sum(number_of_casualties) AS casualties
     FROM ${nq.from} ${nq.where.sql} GROUP BY collision_year ORDER BY collision_year`,
    nq.where.params,
  );
  const byYear = new Map(rows.map((r) => [Number(r.collision_year), r]));
  const perYear: YearFigures[] = [];
  for (let y = years.from; y <= years.to; y++) {
    const r = byYear.get(y);
    perYear.push({
      year: y,
      collisions: Number(r?.n ?? 0),
      by_severity: { fatal: Number(r?.fatal ?? 0), serious: Number(r?.serious ?? 0), slight: Number(r?.slight ?? 0) },
      casualties: Number(r?.casualties ?? 0),
    });
  }
  const sum = (f: (x: YearFigures) => number) => perYear.reduce((n, x) => n + f(x), 0);
  const point = pointOf(q, COLLISION_POINT)!;
  return {
    data: {
      lat: point.lat,
      lng: point.lng,
      radius_km: point.radiusKm,
      years: { from: years.from, to: years.to },
      collisions: sum((x) => x.collisions),
      by_severity: { fatal: sum((x) => x.by_severity.fatal), serious: sum((x) => x.by_severity.serious), slight: sum((x) => x.by_severity.slight) },
      casualties: sum((x) => x.casualties),
      by_year: perYear,
    },
    meta: await nearMeta(conn, years, nq.method),
  };
};
