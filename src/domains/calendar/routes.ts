/** /v1/calendar routes (spec doc 3 "Calendar"; shapes from GOVDATA-NOTES.md "Calendar"). */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST } from '../../contract/params.js';

/** Region slugs of the calendar routes, in the order of /v1/calendar/regions (also the order within a date). */
export const REGION_SLUGS = ['england_and_wales', 'scotland', 'northern_ireland'] as const;
export type RegionSlug = (typeof REGION_SLUGS)[number];

const region: ParamSpec = {
  name: 'region', type: 'string', enum: REGION_SLUGS, vocabulary: 'region',
  description: 'england_and_wales, scotland or northern_ireland; or a UK country or English region by name or GSS code (Wales, E12000002: england_and_wales), any case',
};

export const calendarRoutes: RouteSpec[] = [
  {
    id: 'calendar.bank-holidays',
    method: 'GET',
    path: '/v1/calendar/bank-holidays',
    domain: 'calendar',
    summary: 'Bank holidays of the current and next year',
    query: [region],
    cost: GET_COST,
    records: 'bank_holidays',
    errors: ['invalid_parameter'],
  },
  {
    id: 'calendar.bank-holidays.next',
    method: 'GET',
    path: '/v1/calendar/bank-holidays/next',
    domain: 'calendar',
    summary: 'The next bank holiday in each region',
    query: [region],
    cost: GET_COST,
    records: 'bank_holidays',
    errors: ['invalid_parameter'],
  },
  {
    id: 'calendar.bank-holidays.year',
    method: 'GET',
    path: '/v1/calendar/bank-holidays/{year}',
    domain: 'calendar',
    summary: 'Bank holidays of one year',
    pathParams: [{ name: 'year', type: 'year', error: 'invalid_year', description: '4-digit year' }],
    query: [region],
    cost: GET_COST,
    records: 'bank_holidays',
    errors: ['invalid_year', 'invalid_parameter'],
  },
  {
    id: 'calendar.regions',
    method: 'GET',
    path: '/v1/calendar/regions',
    domain: 'calendar',
    summary: 'Supported bank-holiday regions',
    cost: GET_COST,
    records: 'regions',
    errors: [],
  },
];
