/** Parameter specs shared by many routes (spec doc 1 §1 items 5 and 8: pagination limits). */
import type { ParamSpec } from './route.js';

export const page: ParamSpec = { name: 'page', type: 'integer', min: 1, default: 1, description: 'page number, one-based' };
export const perPage: ParamSpec = {
  name: 'per_page',
  type: 'integer',
  min: 1,
  max: 100,
  default: 25,
  description: 'records per page, 1 to 100',
};
export const paging: ParamSpec[] = [page, perPage];

export const taxYearPath: ParamSpec = {
  name: 'tax_year',
  type: 'tax_year',
  description: 'tax year YYYY-YY',
  error: 'invalid_tax_year',
};
export const taxYearBody: ParamSpec = {
  name: 'tax_year',
  type: 'tax_year',
  description: 'tax year YYYY-YY; default the current year',
  error: 'invalid_tax_year',
};
export const taxRegion: ParamSpec = {
  name: 'region',
  type: 'string',
  enum: ['england_wales_ni', 'scotland'],
  default: 'england_wales_ni',
  error: 'invalid_region',
  description: 'england_wales_ni (default) or scotland',
};

export const GET_COST = 1;
export const POST_COST = 10;
