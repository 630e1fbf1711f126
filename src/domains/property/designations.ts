/**
 * /v1/property/listed-buildings and /v1/property/conservation-areas (list and detail) over the mirror's
 * listed_buildings.duckdb / conservation_areas.duckdb (sync/designations.ts, planning.data.gov.uk).
 *
 * List item: {entity_id, name, reference, organisation_entity, latitude, longitude, boundary_reference,
 *             start_date, end_date, source_url}
 * Detail:    the list item plus dataset, entry_date, documentation_url, and `grade` (listed buildings) or
 *            `designation_date` (conservation areas).
 * latitude/longitude are null when the source has no point; boundary_reference is the entity's GeoJSON URL on
 * planning.data.gov.uk when the source has a polygon, else null (the polygon is not stored).
 * Filters: name (case-insensitive literal prefix), organisation_entity, bounding box (all four bounds or none;
 * min <= max; entities without a point never match a box). Order: name (case-insensitive), then entity_id.
 */
import { pagination } from '../../contract/envelope.js';
import { errors } from '../../contract/errors.js';
import type { Handler, HandlerRequest } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, queryOne, Where, type Row } from '../../mirror/db.js';
import type { DatasetInfo } from '../../mirror/catalog.js';
import { CONSERVATION_AREAS_INFO, LISTED_BUILDINGS_INFO } from './datasets.js';

export type DesignationKind = 'listed-buildings' | 'conservation-areas';

/** An entity's page on planning.data.gov.uk (source_url; sync/designations.ts builds boundary_reference from it). */
export const ENTITY_URL = 'https://www.planning.data.gov.uk/entity/';

export interface DesignationItem {
  entity_id: number;
  name: string | null;
  reference: string | null;
  organisation_entity: number | null;
  latitude: number | null;
  longitude: number | null;
  boundary_reference: string | null;
  start_date: string | null;
  end_date: string | null;
  source_url: string;
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function toItem(r: Row): DesignationItem {
  const id = Number(r.entity_id);
  return {
    entity_id: id,
    name: str(r.name),
    reference: str(r.reference),
    organisation_entity: num(r.organisation_entity),
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    boundary_reference: str(r.boundary_reference),
    start_date: str(r.start_date),
    end_date: str(r.end_date),
    source_url: `${ENTITY_URL}${id}`,
  };
}

export function toDetail(kind: DesignationKind, r: Row): Record<string, unknown> {
  const d: Record<string, unknown> = {
    ...toItem(r),
    dataset: str(r.dataset),
    entry_date: str(r.entry_date),
    documentation_url: str(r.documentation_url),
  };
  if (kind === 'listed-buildings') d.grade = str(r.grade);
  else d.designation_date = str(r.designation_date);
  return d;
}

const BOUNDS = ['min_lat', 'max_lat', 'min_lng', 'max_lng'] as const;

/** The bounding box of a request, or null. Throws 400 invalid_parameter when incomplete or inverted. */
export function boundingBox(req: HandlerRequest): { minLat: number; maxLat: number; minLng: number; maxLng: number } | null {
  const given = BOUNDS.filter((b) => req.query[b] !== undefined);
  if (given.length === 0) return null;
  if (given.length < 4) {
    const missing = BOUNDS.filter((b) => req.query[b] === undefined);
    throw errors.invalidParameter(
      `Incomplete bounding box: min_lat, max_lat, min_lng and max_lng are required together (missing ${missing.join(', ')}).`,
    );
  }
  const [minLat, maxLat, minLng, maxLng] = BOUNDS.map((b) => Number(req.query[b])) as [number, number, number, number];
  if (minLat > maxLat) throw errors.invalidParameter(`Invalid bounding box: min_lat (${minLat}) is greater than max_lat (${maxLat}).`);
  if (minLng > maxLng) throw errors.invalidParameter(`Invalid bounding box: min_lng (${minLng}) is greater than max_lng (${maxLng}).`);
  return { minLat, maxLat, minLng, maxLng };
}

const INFO: Record<DesignationKind, DatasetInfo> = { 'listed-buildings': LISTED_BUILDINGS_INFO, 'conservation-areas': CONSERVATION_AREAS_INFO };

export const designationList = (kind: DesignationKind): Handler => async (req, ctx) => {
  const box = boundingBox(req); // validate before touching the mirror
  const conn = await openDataset(INFO[kind], ctx.mirrorDir);
  const where = new Where();
  // literal prefix: starts_with has no wildcards, so '%' and '_' need no escaping
  if (typeof req.query.name === 'string' && req.query.name !== '') where.add('starts_with(lower(name), lower(?))', req.query.name);
  if (req.query.organisation_entity !== undefined) where.add('organisation_entity = ?', Number(req.query.organisation_entity));
  if (box) where.add('latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?', box.minLat, box.maxLat, box.minLng, box.maxLng);
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const { rows, total } = await pagedQuery(conn, {
    from: 'designations',
    columns: 'entity_id, name, reference, organisation_entity, latitude, longitude, boundary_reference, start_date, end_date',
    where,
    orderBy: 'lower(name), entity_id',
    page,
    perPage,
    stream: { sink: ctx.sink, map: toItem },
  });
  return { data: rows.map(toItem), meta: await provenanceMeta(INFO[kind], conn), pagination: pagination(total, page, perPage) };
};

export const designationGet = (kind: DesignationKind): Handler => async (req, ctx) => {
  const conn = await openDataset(INFO[kind], ctx.mirrorDir);
  const id = Number(req.params.entity_id);
  const row = await queryOne(conn, 'SELECT * FROM designations WHERE entity_id = ?', [id]);
  const label = kind === 'listed-buildings' ? 'Listed building' : 'Conservation area';
  if (!row) throw errors.notFound(`${label} with entity id ${id} not found.`);
  return { data: toDetail(kind, row), meta: await provenanceMeta(INFO[kind], conn) };
};
