/** The example domain's routes over its synced datasets (dataset.ts; records-handlers.ts): what the mirror tests query. */
import type { RouteSpec } from '../../../src/contract/route.js';
import { GET_COST, paging } from '../../../src/contract/params.js';

const recordsRoute = (what: 'records' | 'events', dataset: string): RouteSpec => ({
  id: `example.${what}`,
  method: 'GET',
  path: `/v1/example/${what}`,
  domain: 'example',
  summary: `The synced example ${what} (mirror dataset ${dataset}), by colour and year`,
  query: [
    { name: 'colour', type: 'string', enum: ['red', 'green', 'blue'], caseInsensitive: true, description: 'red, green or blue' },
    { name: 'year', type: 'integer', min: 2001, max: 2100, description: 'the year the record is dated in' },
    ...paging,
  ],
  cost: GET_COST,
  pagination: 'top',
  errors: ['invalid_parameter'],
});

export const recordsRoutes: RouteSpec[] = [recordsRoute('records', 'example-records'), recordsRoute('events', 'example-events')];
