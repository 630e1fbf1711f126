/**
 * /v1/food-hygiene routes (spec 4-further-domains.md, "Food hygiene ratings"). Pure specs: every bad value
 * (a non-integer id, an unknown rating, `lat` without `lng`, `radius_km` over 50, a malformed number or
 * postcode) is rejected by the validator before any data access or request.
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, paging, POSTCODE_HINT, POSTCODE_PATTERN } from '../../contract/params.js';
import { pointParams, type PointSpec } from '../../contract/point.js';

/** The rating values of the spec (FHRS then FHIS); data/food-hygiene/rating-values.json maps the published spellings onto them. */
export const RATING_VALUES = [
  '0', '1', '2', '3', '4', '5', 'exempt', 'awaiting_inspection', 'awaiting_publication', 'pass', 'pass_and_eat_safe', 'improvement_required',
] as const;
export type RatingValue = (typeof RATING_VALUES)[number];

export const SCHEMES = ['fhrs', 'fhis'] as const;

/** lat/lng (each requires the other) with radius_km, default 1, at most 50 (spec doc 4); the default applied by the handler. */
export const FOOD_HYGIENE_POINT: PointSpec = { defaultKm: 1, minKm: 0.001, maxKm: 50 };

const postcode: ParamSpec = {
  name: 'postcode', type: 'string', pattern: POSTCODE_PATTERN, patternHint: POSTCODE_HINT,
  description: 'full or partial postcode: an area (LS), an outward code (LS6: that district and its lettered sub-districts, not LS60), a sector (LS6 1) or a full postcode',
};
const localAuthority: ParamSpec = {
  name: 'local_authority', type: 'string', minLength: 1,
  description: "the FSA's authority code (e.g. 314), or a case-insensitive substring of the authority's name",
};
const businessTypeId: ParamSpec = { name: 'business_type_id', type: 'integer', min: 0, description: "the FSA's business type id (see /v1/food-hygiene/business-types)" };

export const foodHygieneRoutes: RouteSpec[] = [
  {
    id: 'food-hygiene.establishments',
    measures: ['rating.value'],
    method: 'GET',
    path: '/v1/food-hygiene/establishments',
    domain: 'food-hygiene',
    summary: 'Search food establishments and their hygiene ratings (name, postcode, authority, rating, near a point)',
    query: [
      { name: 'name', type: 'string', minLength: 1, description: 'case-insensitive substring of the business name' },
      postcode,
      localAuthority,
      businessTypeId,
      { name: 'rating', type: 'string[]', enum: RATING_VALUES, caseInsensitive: true, publishedSpellings: true, min: 1, max: RATING_VALUES.length, description: `one rating value or a comma-separated list: ${RATING_VALUES.join(', ')}; the FSA's own spellings are accepted too ("Pass and Eat Safe", "AwaitingInspection")` },
      { name: 'min_rating', type: 'integer', min: 0, max: 5, description: 'FHRS numeric ratings of at least this (0 to 5); FHIS results never match' },
      { name: 'scheme', type: 'string', enum: SCHEMES, caseInsensitive: true, description: 'fhrs (England, Wales, Northern Ireland) or fhis (Scotland)' },
      ...pointParams(FOOD_HYGIENE_POINT),
      { name: 'sort', type: 'string', enum: ['name', 'distance', 'rating', 'rating_date'], description: 'name (default), distance (default with lat/lng; needs them), rating (best first) or rating_date (newest first)' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
  },
  {
    id: 'food-hygiene.establishment',
    method: 'GET',
    path: '/v1/food-hygiene/establishments/{fhrs_id}',
    domain: 'food-hygiene',
    summary: 'One food establishment by its FHRS id, with its rating, scores and authority contact',
    pathParams: [{ name: 'fhrs_id', type: 'integer', min: 1, description: 'the FSA establishment id (FHRSID)' }],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
  },
  {
    id: 'food-hygiene.authorities',
    method: 'GET',
    path: '/v1/food-hygiene/authorities',
    domain: 'food-hygiene',
    summary: 'Local authorities publishing food hygiene ratings, with their establishment counts and extract dates',
    query: [...paging],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter', 'dataset_not_synced'],
  },
  {
    id: 'food-hygiene.business-types',
    method: 'GET',
    path: '/v1/food-hygiene/business-types',
    domain: 'food-hygiene',
    summary: 'Business types and how many establishments each has',
    cost: GET_COST,
    errors: ['dataset_not_synced'],
  },
  {
    id: 'food-hygiene.statistics',
    method: 'GET',
    path: '/v1/food-hygiene/statistics',
    domain: 'food-hygiene',
    summary: 'Rating distribution, share rated 4 or 5 and average scores of an authority, a postcode area or the UK',
    query: [
      { ...localAuthority, excludes: ['postcode'] },
      { ...postcode, excludes: ['local_authority'] },
      businessTypeId,
    ],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
  },
];
