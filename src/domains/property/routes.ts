/** /v1/property routes (spec doc 2 §4 "Designations", "House price index", "Council tax", "Sold prices"). */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, page, paging, POSTCODE_HINT, POSTCODE_PATTERN } from '../../contract/params.js';

const designationQuery: ParamSpec[] = [
  { name: 'name', type: 'string', description: 'case-insensitive literal name prefix' },
  { name: 'organisation_entity', type: 'integer', description: 'exact organisation entity id' },
  { name: 'min_lat', type: 'number', min: -90, max: 90, description: 'south bound (WGS84); all four bounds together' },
  { name: 'max_lat', type: 'number', min: -90, max: 90, description: 'north bound' },
  { name: 'min_lng', type: 'number', min: -180, max: 180, description: 'west bound' },
  { name: 'max_lng', type: 'number', min: -180, max: 180, description: 'east bound' },
  ...paging,
];

/** The list and detail routes of one designation dataset (ids and paths written out by the caller). */
function designation(list: { id: string; path: string }, get: { id: string; path: string }, label: string): RouteSpec[] {
  return [
    {
      id: list.id,
      method: 'GET',
      path: list.path,
      domain: 'property',
      summary: `${label}: search by name prefix, organisation or bounding box`,
      query: designationQuery,
      cost: GET_COST,
      pagination: 'top',
      errors: ['invalid_parameter'],
    },
    {
      id: get.id,
      method: 'GET',
      path: get.path,
      domain: 'property',
      summary: `${label}: one entity`,
      pathParams: [{ name: 'entity_id', type: 'integer', description: 'platform entity id' }],
      cost: GET_COST,
      errors: ['invalid_parameter', 'not_found'],
    },
  ];
}

const propertyTypes = ['detached', 'semi_detached', 'terraced', 'flat'] as const;

export const propertyRoutes: RouteSpec[] = [
  ...designation(
    { id: 'property.listed-buildings.list', path: '/v1/property/listed-buildings' },
    { id: 'property.listed-buildings.get', path: '/v1/property/listed-buildings/{entity_id}' },
    'Listed buildings',
  ),
  ...designation(
    { id: 'property.conservation-areas.list', path: '/v1/property/conservation-areas' },
    { id: 'property.conservation-areas.get', path: '/v1/property/conservation-areas/{entity_id}' },
    'Conservation areas',
  ),
  {
    id: 'property.hpi',
    method: 'GET',
    path: '/v1/property/hpi',
    domain: 'property',
    summary: 'UK house price index by region and month',
    query: [
      { name: 'region', type: 'string', vocabulary: 'region', description: 'region name (case-insensitive) or official area code; a UK country or English region also by slug or code in any case (north_west, e12000002)' },
      { name: 'from', type: 'date', description: 'inclusive start month YYYY-MM-DD' },
      { name: 'to', type: 'date', notBefore: 'from', description: 'inclusive end month YYYY-MM-DD' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'property.hpi.regions',
    method: 'GET',
    path: '/v1/property/hpi/regions',
    domain: 'property',
    summary: 'Regions of the house price index',
    cost: GET_COST,
    errors: [],
  },
  {
    id: 'property.council-tax',
    method: 'GET',
    path: '/v1/property/council-tax',
    domain: 'property',
    summary: 'Council tax by billing authority and band',
    query: [
      { name: 'authority_code', type: 'string', description: 'exact billing-authority code' },
      { name: 'authority_name', type: 'string', description: 'case-insensitive partial name' },
      // Not an enumeration: the spec answers an unknown band with an empty 200 (doc 2 "Council tax").
      { name: 'band', type: 'string', description: 'A to H, case-insensitive (any other value matches nothing)' },
      { name: 'financial_year', type: 'string', description: 'financial year YYYY-YY' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'property.price-paid.search',
    method: 'GET',
    path: '/v1/property/price-paid/search',
    domain: 'property',
    summary: 'Sold prices by postcode (full or partial), town or district',
    query: [
      { name: 'postcode', type: 'string', pattern: POSTCODE_PATTERN, patternHint: POSTCODE_HINT, description: 'full or partial postcode' },
      { name: 'town', type: 'string', description: 'town or city' },
      { name: 'district', type: 'string', description: 'local authority district' },
      { name: 'property_type', type: 'string', enum: propertyTypes, description: 'detached, semi_detached, terraced or flat' },
      page,
    ],
    requireOneOf: ['postcode', 'town', 'district'],
    cost: GET_COST,
    pagination: 'inner',
    records: 'transactions',
    measures: ['price', 'date', 'address'],
    errors: ['invalid_parameter'],
  },
  {
    id: 'property.price-paid.address',
    method: 'GET',
    path: '/v1/property/price-paid/address',
    domain: 'property',
    summary: 'Sale history of a property or a street',
    query: [
      { name: 'street', type: 'string', required: true, description: 'street name' },
      { name: 'number', type: 'string', description: 'house number or name' },
      { name: 'postcode', type: 'string', pattern: POSTCODE_PATTERN, patternHint: POSTCODE_HINT, description: 'narrows results' },
      { name: 'town', type: 'string', description: 'town' },
      { name: 'from', type: 'date', description: 'start date YYYY-MM-DD' },
      { name: 'to', type: 'date', notBefore: 'from', description: 'end date YYYY-MM-DD' },
      page,
    ],
    cost: GET_COST,
    pagination: 'inner',
    records: 'transactions',
    measures: ['price', 'date', 'address'],
    errors: ['invalid_parameter'],
  },
  {
    id: 'property.price-paid.statistics',
    method: 'GET',
    path: '/v1/property/price-paid/statistics',
    domain: 'property',
    summary: 'Sold-price statistics for an area',
    query: [
      { name: 'postcode', type: 'string', pattern: POSTCODE_PATTERN, patternHint: POSTCODE_HINT, description: 'full or partial postcode' },
      { name: 'town', type: 'string', description: 'town or city' },
      { name: 'district', type: 'string', description: 'local authority district' },
      { name: 'from', type: 'date', description: 'start date YYYY-MM-DD' },
      { name: 'to', type: 'date', notBefore: 'from', description: 'end date YYYY-MM-DD' },
    ],
    requireOneOf: ['postcode', 'town', 'district'],
    cost: GET_COST,
    errors: ['invalid_parameter'],
  },
  {
    id: 'property.price-paid.get',
    method: 'GET',
    path: '/v1/property/price-paid/{id}',
    domain: 'property',
    summary: 'One sold-price transaction by UUID',
    pathParams: [{ name: 'id', type: 'string', description: 'transaction UUID' }],
    cost: GET_COST,
    errors: ['not_found'],
  },
];
