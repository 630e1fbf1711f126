/**
 * /v1/schools routes (spec doc 4 "School inspections"). Pure specs: every parameter is checked here, before
 * any data access or request (integer URN, phase/status enumerations, radius_km at most 25, lat with lng).
 * The phase slugs are GIAS's PhaseOfEducation names in snake case (data/schools/reference.json lists them with
 * their GIAS codes; test/schools checks the two agree).
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { pointParams, type PointSpec } from '../../contract/point.js';
import { GET_COST, paging } from '../../contract/params.js';

/** GIAS PhaseOfEducation, as slugs. */
export const SCHOOL_PHASES = [
  'not_applicable', 'nursery', 'primary', 'middle_deemed_primary', 'secondary', 'middle_deemed_secondary', '16_plus', 'all_through',
] as const;
/** School status: GIAS EstablishmentStatus grouped (docs/schools.md); `all` for every status. */
export const SCHOOL_STATUSES = ['open', 'closed', 'proposed_to_open', 'all'] as const;

const phase: ParamSpec = {
  name: 'phase', type: 'string', enum: SCHOOL_PHASES, caseInsensitive: true,
  description: `phase of education: ${SCHOOL_PHASES.join(', ')}`,
};
/**
 * GIAS `GOR (code)` and `GOR (name)`: the government office regions of the register (data/schools/reference.json
 * lists them with their source; test/schools checks the two agree). `region` is one of them, code or name, any case.
 */
export const GOR_REGIONS = [
  ['A', 'North East'], ['B', 'North West'], ['D', 'Yorkshire and the Humber'], ['E', 'East Midlands'], ['F', 'West Midlands'],
  ['G', 'East of England'], ['H', 'London'], ['J', 'South East'], ['K', 'South West'], ['W', 'Wales (pseudo)'], ['Z', 'Not Applicable'],
] as const;

/**
 * A text filter is matched as a substring after trimming: it needs at least two characters besides spaces
 * (" a " would match almost every record). minLength counts the value as sent, so the handlers check the
 * trimmed length before the mirror is opened (handlers.ts textFilters); a route pattern would publish it as
 * a form rule, which it is not. A value of spaces only is no filter to the API (a blank value is a missing
 * one, src/contract/validate.ts); the command line refuses it (commands.ts).
 */
export const TEXT_FILTERS = ['name', 'postcode', 'local_authority', 'type'] as const;

/**
 * A radius search: lat/lng within a box around Great Britain and Northern Ireland (schools' register
 * covers England; the bounds refuse a swapped or mistyped pair before data access) and radius_km default 2,
 * at most 25 (spec doc 4).
 */
export const SCHOOLS_POINT: PointSpec = {
  defaultKm: 2, minKm: 0.01, maxKm: 25, declareDefault: true, lat: { min: 49, max: 61 }, lng: { min: -9, max: 2.5 },
  what: 'the centre of a radius search',
};

const localAuthority: ParamSpec = {
  name: 'local_authority', type: 'string', minLength: 2,
  description: 'local authority: exact code (3-digit DfE code such as 383, or ONS code such as E08000035) or a name substring',
};

export const schoolRoutes: RouteSpec[] = [
  {
    id: 'schools.search',
    method: 'GET',
    path: '/v1/schools',
    domain: 'schools',
    summary: 'Search schools (GIAS register joined to the latest Ofsted inspection)',
    query: [
      { name: 'name', type: 'string', minLength: 2, description: 'name substring (case-insensitive)' },
      {
        name: 'postcode', type: 'string', minLength: 2,
        description: "postcode prefix, any case: 'LS2' also matches LS20-LS29; a space ends the outward code ('LS2 ', 'LS2 9': LS2 only)",
      },
      localAuthority,
      phase,
      { name: 'type', type: 'string', minLength: 2, description: 'establishment type: GIAS code (e.g. 02) or a name substring (e.g. academy)' },
      { name: 'status', type: 'string', enum: SCHOOL_STATUSES, caseInsensitive: true, default: 'open', description: 'open (default), closed, proposed_to_open or all' },
      ...pointParams(SCHOOLS_POINT),
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    // the school, its latest inspection's date and outcome (Ofsted: never an outcome without its date);
    // with lat/lng the distance the search is about (absent from other searches' records)
    measures: ['name', 'latest_inspection.start_date', 'latest_inspection.overall_effectiveness', 'latest_inspection.outcome', 'distance_km'],
    errors: ['invalid_parameter', 'dataset_not_synced'],
    notes: 'With lat/lng each school has distance_km and the list is nearest first; otherwise by name, then URN.',
  },
  {
    id: 'schools.inspections.statistics',
    method: 'GET',
    path: '/v1/schools/inspections/statistics',
    domain: 'schools',
    summary: 'Inspection outcome counts (by framework, graded judgement and report-card grade)',
    query: [
      localAuthority,
      {
        name: 'region', type: 'string', enum: GOR_REGIONS.flat(), caseInsensitive: true, error: 'invalid_parameter', vocabulary: 'region',
        description: 'region: GIAS GOR name (e.g. London) or one-letter code (e.g. H), or the ONS region by name, slug or GSS code (north_west, E12000002), case-insensitive',
      },
      phase,
    ],
    cost: GET_COST,
    errors: ['invalid_parameter', 'dataset_not_synced'],
    notes: 'Open schools only; an inspection counts under the framework of its latest outcome.',
  },
  {
    id: 'schools.detail',
    method: 'GET',
    path: '/v1/schools/{urn}',
    domain: 'schools',
    summary: 'One school by URN with its latest inspection',
    pathParams: [{ name: 'urn', type: 'integer', min: 1, description: 'unique reference number (URN), an integer' }],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
  },
];
