/**
 * /v1/postcodes routes (spec 5-places.md "Postcodes"): publicdata extensions, not routes of the published API
 * (`extension`: `--source live` answers not_available_live). Pure specs: a string that cannot be a full UK
 * postcode is 400 invalid_parameter before any data access; lat/lng, radius_km (at most 2) and paging are
 * checked here. A lookup body's entries are checked one by one by the handler (a malformed entry is null
 * with its error, the others answered), so the body spec checks only that it is 1 to 100 strings.
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, paging, POST_COST } from '../../contract/params.js';
import { pointParams, type PointSpec } from '../../contract/point.js';

/** The nearest-postcodes circle: lat and lng required, radius 0.5 km by default, at most 2 (spec 5-places.md). */
export const NEAREST_POINT: PointSpec = { defaultKm: 0.5, minKm: 0.01, maxKm: 2, declareDefault: true, required: true, what: 'the point' };

/** A full UK postcode in any case and spacing (`ls83bs`, `LS8  3BS`): outward code, inward code. */
export const FULL_POSTCODE_PATTERN = String.raw`\s*[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}\s*`;
export const FULL_POSTCODE_HINT = 'a full UK postcode such as LS8 3BS (any case and spacing)';
export const PLACES_SPEC = '5-places.md (publicdata extension)';

export const postcodeRoutes: RouteSpec[] = [
  {
    id: 'postcodes.nearest',
    method: 'GET',
    path: '/v1/postcodes',
    domain: 'postcodes',
    summary: 'Postcodes nearest a point (ONS Postcode Directory), nearest first',
    query: [
      ...pointParams(NEAREST_POINT),
      { name: 'include_terminated', type: 'boolean', default: false, description: 'include terminated postcodes (default false)' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    measures: ['distance_km'],
    errors: ['invalid_parameter', 'dataset_not_synced'],
    extension: PLACES_SPEC,
  },
  {
    id: 'postcodes.lookup',
    method: 'POST',
    path: '/v1/postcodes/lookup',
    domain: 'postcodes',
    summary: 'Look up 1 to 100 postcodes at once (a malformed entry is null with its error; the others are answered)',
    body: [{ name: 'postcodes', type: 'string[]', required: true, min: 1, max: 100, description: '1 to 100 postcodes, any case and spacing' }],
    cost: POST_COST,
    errors: ['bad_request', 'dataset_not_synced'],
    extension: PLACES_SPEC,
  },
  {
    id: 'postcodes.detail',
    method: 'GET',
    path: '/v1/postcodes/{postcode}',
    domain: 'postcodes',
    summary: 'One postcode: location, status, and the statistical and administrative areas it falls in',
    pathParams: [{ name: 'postcode', type: 'string', pattern: FULL_POSTCODE_PATTERN, patternHint: FULL_POSTCODE_HINT, description: FULL_POSTCODE_HINT }],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
    extension: PLACES_SPEC,
  },
];

/**
 * `/v1/area/{postcode}`: every domain's view of a place, each section from its own domain's routes. The
 * sections are those the registry's manifests declare (`area` of DomainManifest, src/domains/area-section.ts):
 * `names` is asked when the parameter is read (validation, OpenAPI, help), after every domain has declared
 * itself, so a removed domain's section is not accepted and the route spec names no other domain.
 */
export function areaRoutes(names: () => readonly string[]): RouteSpec[] {
  const sections: ParamSpec = {
    name: 'sections', type: 'string[]', min: 1,
    get enum() {
      return [...names()];
    },
    get description() {
      return `comma-separated sections (default all): ${names().join(', ')}`;
    },
  };
  return [
    {
      id: 'area.profile',
      method: 'GET',
      path: '/v1/area/{postcode}',
      domain: 'postcodes',
      summary: "Area profile of a postcode: every domain's figures for the place, side by side, each with the routes it comes from",
      pathParams: [{ name: 'postcode', type: 'string', pattern: FULL_POSTCODE_PATTERN, patternHint: FULL_POSTCODE_HINT, description: FULL_POSTCODE_HINT }],
      query: [
        { name: 'radius_km', type: 'number', min: 0.1, max: 5, default: 1, description: 'radius around the postcode for crimes, schools, food establishments, collisions and traffic points (0.1 to 5, default 1)' },
        { name: 'months', type: 'integer', min: 1, max: 36, default: 12, description: 'calendar months ending with the newest month each dataset holds, for sales and crimes (1 to 36, default 12)' },
        sections,
      ],
      // spec 5-places.md: "Cost: 10 credits under serve" (a GET that runs about twenty routes)
      cost: 10,
      errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
      extension: PLACES_SPEC,
    },
  ];
}
