/**
 * /v1/crime routes (spec doc 4 "Street-level crime"). Pure specs: every malformed or unknown value, a missing
 * area or two areas, a `month_to` before `month_from` and a radius over 5 km are refused here (400
 * invalid_parameter naming the parameter) before any mirror file or network is touched.
 *
 * The slug and force enumerations are the contract's; data/crime/categories.json and data/crime/forces.json
 * hold the same values with their labels and sources (test/crime/routes.test.ts checks they agree).
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, paging } from '../../contract/params.js';
import { pointParams, type PointSpec } from '../../contract/point.js';

/** The API's category slugs (spec doc 4; data.police.uk crime-categories). */
export const CRIME_CATEGORY_SLUGS = [
  'anti-social-behaviour', 'bicycle-theft', 'burglary', 'criminal-damage-arson', 'drugs', 'other-theft', 'possession-of-weapons',
  'public-order', 'robbery', 'shoplifting', 'theft-from-the-person', 'vehicle-crime', 'violent-crime', 'other-crime',
] as const;

/**
 * data.police.uk force ids: the slugs of the archive's member names (YYYY-MM-<force>-street.csv), as in
 * data/crime/forces.json (the names of `crime forces`). Not the `force` parameter's limit: see its pattern.
 */
export const CRIME_FORCE_SLUGS = [
  'avon-and-somerset', 'bedfordshire', 'btp', 'cambridgeshire', 'cheshire', 'city-of-london', 'cleveland', 'cumbria', 'derbyshire',
  'devon-and-cornwall', 'dorset', 'durham', 'dyfed-powys', 'essex', 'gloucestershire', 'greater-manchester', 'gwent', 'hampshire',
  'hertfordshire', 'humberside', 'kent', 'lancashire', 'leicestershire', 'lincolnshire', 'merseyside', 'metropolitan', 'norfolk',
  'north-wales', 'north-yorkshire', 'northamptonshire', 'northern-ireland', 'northumbria', 'nottinghamshire', 'south-wales',
  'south-yorkshire', 'staffordshire', 'suffolk', 'surrey', 'sussex', 'thames-valley', 'warwickshire', 'west-mercia',
  'west-midlands', 'west-yorkshire', 'wiltshire',
] as const;

/** A force slug as the archive member names spell it (lower-case words joined by hyphens; archive.ts MEMBER_RE). */
export const CRIME_FORCE_PATTERN = '[a-z0-9]+(-[a-z0-9]+)*';

/** The largest radius of a point-and-radius area, km (spec doc 4). */
export const CRIME_MAX_RADIUS_KM = 5;
export const CRIME_DEFAULT_RADIUS_KM = 1.6;
/**
 * The point-and-radius area (spec doc 4: radius_km default 1.6, at most 5). No `default` in the spec: the
 * point is one area of three, and a default radius would be sent with an lsoa or force area.
 */
export const CRIME_POINT: PointSpec = { defaultKm: CRIME_DEFAULT_RADIUS_KM, minKm: 0.01, maxKm: CRIME_MAX_RADIUS_KM, what: 'the area' };

const MONTH_PATTERN = '\\d{4}-(0[1-9]|1[0-2])';

/** The area: exactly one of lat+lng (with radius_km), lsoa, force (the route's `exactlyOneOf`). */
const area: ParamSpec[] = [
  ...pointParams(CRIME_POINT),
  {
    name: 'lsoa', type: 'string', pattern: '[A-Za-z]\\d{8}', patternHint: 'an LSOA code such as E01000916',
    description: 'LSOA code (exact), e.g. E01000916',
  },
  {
    // a pattern, not the list of known forces: the sync loads any member whose name has a well-formed slug
    // (archive.ts MEMBER_RE), so every force `crime forces` lists can be asked for; a well-formed slug that
    // is not loaded answers empty with a meta.note (docs/crime.md "Routes")
    name: 'force', type: 'string', pattern: CRIME_FORCE_PATTERN, patternHint: 'a force slug such as metropolitan or city-of-london',
    description: 'police force slug, e.g. metropolitan (the slug of the archive member names; `crime forces` lists those loaded)',
  },
];

const months: ParamSpec[] = [
  {
    name: 'month', type: 'string', pattern: MONTH_PATTERN, patternHint: 'YYYY-MM', excludes: ['month_from', 'month_to'],
    description: 'one month YYYY-MM (default: the newest month loaded)',
  },
  { name: 'month_from', type: 'string', pattern: MONTH_PATTERN, patternHint: 'YYYY-MM', description: 'first month YYYY-MM, inclusive' },
  {
    name: 'month_to', type: 'string', pattern: MONTH_PATTERN, patternHint: 'YYYY-MM', notBefore: 'month_from',
    description: 'last month YYYY-MM, inclusive (not before month_from)',
  },
];

const AREA_ONE_OF = ['lat', 'lsoa', 'force'] as const;

export const crimeRoutes: RouteSpec[] = [
  {
    id: 'crime.street',
    measures: ['category', 'month'],
    method: 'GET',
    path: '/v1/crime/street',
    domain: 'crime',
    summary: 'Street-level crimes in an area (point and radius, LSOA or force) and months, newest month first',
    query: [
      ...area,
      ...months,
      { name: 'category', type: 'string[]', enum: CRIME_CATEGORY_SLUGS, description: 'category slug or comma-separated slugs' },
      ...paging,
    ],
    exactlyOneOf: AREA_ONE_OF,
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'crime.outcomes',
    method: 'GET',
    path: '/v1/crime/outcomes/{crime_id}',
    domain: 'crime',
    summary: 'One crime and its outcomes, oldest first',
    pathParams: [
      {
        name: 'crime_id', type: 'string', pattern: '[0-9a-fA-F]{64}', patternHint: 'the 64-character hexadecimal Crime ID',
        description: 'Crime ID (64 hexadecimal characters; the API calls it persistent_id)',
      },
    ],
    cost: GET_COST,
    records: 'outcomes',
    errors: ['invalid_parameter', 'not_found'],
  },
  {
    id: 'crime.statistics',
    method: 'GET',
    path: '/v1/crime/statistics',
    domain: 'crime',
    summary: 'Crime counts in an area and months: by category, by month, by last outcome',
    query: [...area, ...months],
    exactlyOneOf: AREA_ONE_OF,
    cost: GET_COST,
    records: 'by_category',
    errors: ['invalid_parameter'],
  },
  {
    id: 'crime.categories',
    method: 'GET',
    path: '/v1/crime/categories',
    domain: 'crime',
    summary: 'Street-level crime categories: slug and published label',
    cost: GET_COST,
    errors: [],
  },
  {
    id: 'crime.forces',
    method: 'GET',
    path: '/v1/crime/forces',
    domain: 'crime',
    summary: 'Police forces with the months loaded and their street-crime counts',
    cost: GET_COST,
    errors: [],
  },
];
