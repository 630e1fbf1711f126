/**
 * The routes of `example`, the test-only domain (test/support/example-domain/README.md): a record list with
 * a positional name, a choice, a point and radius, paging and a measure; one record by id; a one-object
 * summary with alternative shapes; an empty list whose note its renderer prints.
 */
import type { RouteSpec } from '../../../src/contract/route.js';
import { GET_COST, paging } from '../../../src/contract/params.js';
import { calculateRoute } from './calculate.js';

export const COLOURS = ['red', 'green', 'blue'] as const;

export const exampleRoutes: RouteSpec[] = [
  {
    id: 'example.items',
    measures: ['title'],
    method: 'GET',
    path: '/v1/example/items',
    domain: 'example',
    summary: 'Search the example items (name, colour, near a point)',
    query: [
      { name: 'name', type: 'string', minLength: 1, description: 'case-insensitive substring of the title' },
      { name: 'colour', type: 'string', enum: COLOURS, caseInsensitive: true, description: 'red, green or blue' },
      { name: 'lat', type: 'number', min: -90, max: 90, requires: ['lng'], description: 'latitude of the centre; requires lng' },
      { name: 'lng', type: 'number', min: -180, max: 180, requires: ['lat'], description: 'longitude of the centre; requires lat' },
      { name: 'radius_km', type: 'number', min: 0.001, max: 50, requires: ['lat', 'lng'], description: 'radius in km (default 1, at most 50)' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'example.item',
    method: 'GET',
    path: '/v1/example/items/{item_id}',
    domain: 'example',
    summary: 'One example item by its id',
    pathParams: [{ name: 'item_id', type: 'integer', min: 1, description: 'the item id' }],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found'],
  },
  {
    id: 'example.summary',
    method: 'GET',
    path: '/v1/example/summary',
    domain: 'example',
    summary: 'Counts by colour (basis=counts) or totals (basis=totals) of the example items',
    query: [
      { name: 'basis', type: 'string', enum: ['counts', 'totals'], caseInsensitive: true, default: 'counts', description: 'counts (by colour) or totals' },
      { name: 'colour', type: 'string', enum: COLOURS, caseInsensitive: true, description: 'only this colour' },
    ],
    cost: GET_COST,
    errors: ['invalid_parameter'],
  },
  {
    id: 'example.notes',
    method: 'GET',
    path: '/v1/example/notes',
    domain: 'example',
    summary: 'An empty list with a note saying why (its renderer prints the note)',
    query: [...paging],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  calculateRoute,
];
