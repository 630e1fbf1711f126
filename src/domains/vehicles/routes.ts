/** /v1/vehicles routes (spec doc 3 §4 "Vehicles"). No local handlers yet: served live. */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, paging } from '../../contract/params.js';
import { pointParams, type PointSpec } from '../../contract/point.js';

const str = (name: string, description: string): ParamSpec => ({ name, type: 'string', description });
const int = (name: string, description: string): ParamSpec => ({ name, type: 'integer', description });
const date = (name: string, description: string): ParamSpec => ({ name, type: 'date', description });
const geography: ParamSpec = { name: 'geography', type: 'string', enum: ['GB', 'UK'], description: 'GB or UK' };
const fuelType: ParamSpec = {
  name: 'fuel_type',
  type: 'string',
  enum: ['petrol', 'diesel', 'electric', 'hybrid_electric', 'lpg', 'cng', 'fuel_cells', 'steam', 'gas', 'gas_bi_fuel', 'gas_diesel', 'other', 'unknown'],
  description: 'fuel type label',
};
const yearRange = [int('year_from', 'first year, inclusive'), int('year_to', 'last year, inclusive')];
const TRAFFIC_ERRORS = ['invalid_parameter'] as const;
/** Count points near a point: lat and lng (each requires the other), radius_km default 5, at most 100 (spec doc 3 and doc 1 §limits). */
export const TRAFFIC_POINT: PointSpec = { defaultKm: 5, minKm: 0, maxKm: 100, declareDefault: true };

/**
 * Collisions near a point (the radius routes, publicdata extensions): lat and lng required, radius_km
 * default 1 (the area profile's), 0.1 to 25 km. STATS19 covers Great Britain; a point elsewhere just finds none.
 */
export const COLLISION_POINT: PointSpec = { defaultKm: 1, minKm: 0.1, maxKm: 25, declareDefault: true, required: true, what: 'the point' };
/** The published collisions route takes no point: the radius routes are publicdata's own (docs/vehicles.md "Road safety near a point"). */
export const ROAD_SAFETY_NEAR_EXTENSION = 'docs/vehicles.md "Road safety near a point" (publicdata extension; spec 5-places.md road_safety section)';
const nearYears = [
  { ...int('year_from', 'first year, inclusive (default: the newest year held less 4)'), min: 1979 },
  { ...int('year_to', 'last year, inclusive (default: the newest year held)'), min: 1979 },
];
const nearSeverity: ParamSpec = { name: 'severity', type: 'integer', min: 1, max: 3, description: '1 fatal, 2 serious, 3 slight' };

function vehicles(id: string, path: string, summary: string, query: ParamSpec[], extra: Partial<RouteSpec> = {}): RouteSpec {
  return {
    id,
    method: 'GET',
    path,
    domain: 'vehicles',
    summary,
    query: [...query, ...paging],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
    ...extra,
  };
}

export const vehiclesRoutes: RouteSpec[] = [
  vehicles('vehicles.licensing', '/v1/vehicles/licensing', 'Licensed vehicle stock by quarter (DfT VEH0120)', [
    { name: 'make', type: 'string', minLength: 2, error: 'make_prefix_too_broad', errorStatus: 422, description: 'make prefix (2 to 25 matching makes)' },
    str('model', 'model prefix'),
    date('quarter_from', 'first quarter end, inclusive'),
    date('quarter_to', 'last quarter end, inclusive'),
    str('body_type', 'exact body type'),
    { name: 'licence_status', type: 'string', enum: ['Licensed', 'SORN'], description: 'Licensed or SORN' },
    geography,
  ], { measures: ['count'], errors: ['invalid_parameter', 'make_prefix_too_broad'] }),
  vehicles('vehicles.registrations', '/v1/vehicles/registrations', 'First registrations by quarter (DfT VEH0160)', [
    str('make', 'make prefix'),
    str('model', 'model prefix'),
    date('quarter_from', 'first quarter end, inclusive'),
    date('quarter_to', 'last quarter end, inclusive'),
    str('body_type', 'exact body type'),
    geography,
  ], { measures: ['count'] }),
  vehicles('vehicles.mot-tests', '/v1/vehicles/mot-tests', 'Anonymised MOT test results', [
    str('make', 'make'),
    str('model', 'model'),
    int('test_year', 'test year'),
    fuelType,
    { name: 'result', type: 'string', enum: ['passed', 'failed', 'pass_with_rectification'], description: 'test result' },
    str('postcode_area', 'postcode area'),
    int('first_use_year_from', 'first-use year from, inclusive'),
    int('first_use_year_to', 'first-use year to, inclusive'),
  ], { measures: ['result'] }),
  vehicles('vehicles.mot-pass-rates', '/v1/vehicles/mot-pass-rates', 'MOT pass rates by make, model, age band', [
    str('make', 'make'),
    str('model', 'model'),
    fuelType,
    { name: 'vehicle_age_band', type: 'string', enum: ['0-3', '4-6', '7-9', '10-14', '15-19', '20+'], description: 'vehicle age band' },
    { name: 'test_year', type: 'integer', default: 2025, description: 'test year (default 2025)' },
  ], { measures: ['statistics.pass_rate'] }),
  vehicles('vehicles.mot-failures', '/v1/vehicles/mot-failures', 'MOT failure reasons', [
    str('make', 'make'),
    str('model', 'model'),
    { name: 'rfr_type', type: 'string', enum: ['fail', 'prs', 'advisory', 'minor', 'unknown'], description: 'reason-for-rejection type' },
    { name: 'dangerous_only', type: 'boolean', default: false, description: 'only Dangerous deficiencies' },
    { name: 'test_year', type: 'integer', default: 2025, description: 'test year (default 2025)' },
  ], { measures: ['failures'] }),
  vehicles('vehicles.collisions', '/v1/vehicles/road-safety/collisions', 'Road collisions (STATS19)', [
    int('year', 'collision year'),
    { name: 'severity', type: 'integer', min: 1, max: 3, description: '1 fatal, 2 serious, 3 slight' },
    str('local_authority', 'exact ONS district code'),
    { ...date('date_from', 'first date, inclusive'), errorStatus: 422 },
    { ...date('date_to', 'last date, inclusive'), errorStatus: 422 },
  ]),
  {
    id: 'vehicles.collisions.get',
    method: 'GET',
    path: '/v1/vehicles/road-safety/collisions/{collision_index}',
    domain: 'vehicles',
    summary: 'One collision with vehicles and casualties',
    pathParams: [str('collision_index', 'collision index, e.g. 2023010419171')],
    cost: GET_COST,
    errors: ['not_found'],
  },
  vehicles('vehicles.road-safety.nearby', '/v1/vehicles/road-safety/nearby', 'Road collisions (STATS19) within a radius of a point, nearest first (publicdata extension)', [
    ...pointParams(COLLISION_POINT),
    ...nearYears,
    nearSeverity,
  ], { errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'], measures: ['distance_km'], extension: ROAD_SAFETY_NEAR_EXTENSION }),
  {
    id: 'vehicles.road-safety.nearby.summary',
    method: 'GET',
    path: '/v1/vehicles/road-safety/nearby/summary',
    domain: 'vehicles',
    summary: 'Road collisions (STATS19) within a radius of a point over a year range: counts by severity, casualties, per year (publicdata extension)',
    query: [...pointParams(COLLISION_POINT), ...nearYears, nearSeverity],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
    extension: ROAD_SAFETY_NEAR_EXTENSION,
  },
  vehicles('vehicles.traffic.count-points', '/v1/vehicles/traffic/count-points', 'Traffic count points', [
    int('count_point', 'count point id'),
    ...yearRange,
    ...pointParams(TRAFFIC_POINT),
  ], { errors: TRAFFIC_ERRORS }),
  vehicles('vehicles.traffic.aadf', '/v1/vehicles/traffic/aadf', 'Annual average daily flows', [
    int('count_point', 'count point id'),
    ...yearRange,
    str('road_name', 'road name (substring)'),
    str('road_class', 'road class (substring)'),
    { ...str('region', "region: DfT's region name (substring), or a region by ONS name, slug or GSS code (north_west, E12000002), any case"), vocabulary: 'region' },
    str('local_authority', 'local authority (substring)'),
  ], { errors: TRAFFIC_ERRORS }),
  vehicles('vehicles.traffic.regional', '/v1/vehicles/traffic/regional', 'Vehicle miles by region', [
    ...yearRange,
    { ...str('region', "region: DfT's region name (substring), or a region by ONS name, slug or GSS code (north_west, E12000002), any case"), vocabulary: 'region' },
    { name: 'breakdown', type: 'string', enum: ['vehicle_type', 'road_type'], description: 'vehicle_type or road_type' },
  ], { errors: TRAFFIC_ERRORS }),
  vehicles('vehicles.traffic.local-authority', '/v1/vehicles/traffic/local-authority', 'Vehicle miles by local authority', [
    ...yearRange,
    str('local_authority', 'local authority (substring)'),
  ], { errors: TRAFFIC_ERRORS }),
];
