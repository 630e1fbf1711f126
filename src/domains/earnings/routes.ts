/**
 * /v1/earnings routes (spec doc 4 "Earnings"): three series routes over the ONS ASHE tables and the POST
 * percentile calculator. Every filter with a closed set of values is an enum here, so an unknown level,
 * measure, population or basis, a malformed year or a non-positive amount is answered 400
 * invalid_parameter by src/contract/validate.ts before any data is read. (A well-formed year that is not
 * loaded is the one check that needs the mirror: the handler answers it 400 invalid_parameter too.)
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, paging, POST_COST } from '../../contract/params.js';

export const MEASURES = ['annual_gross', 'weekly_gross', 'hourly_excluding_overtime'] as const;
export type Measure = (typeof MEASURES)[number];

/** The spec's five populations first, then the other sheets of every ASHE table (sex x working pattern). */
export const POPULATIONS = [
  'all', 'full_time', 'part_time', 'male_full_time', 'female_full_time',
  'male', 'female', 'male_part_time', 'female_part_time',
] as const;
export type Population = (typeof POPULATIONS)[number];

export const BASES = ['workplace', 'residence'] as const;
export type Basis = (typeof BASES)[number];

/** `county`: the ONS groupings between a region and its districts (data/earnings/code-lists.yaml). */
export const GEOGRAPHY_LEVELS = ['country', 'region', 'county', 'local_authority'] as const;
export const INDUSTRY_LEVELS = ['section', 'division'] as const;
export const OCCUPATION_LEVELS = ['major', 'sub_major', 'minor', 'unit'] as const;

const ERRORS = ['invalid_parameter', 'dataset_not_synced'] as const;

const year: ParamSpec = { name: 'year', type: 'year', description: 'ASHE reference year YYYY (April); default the newest loaded' };
const population: ParamSpec = {
  name: 'population', type: 'string', enum: POPULATIONS, default: 'full_time',
  description: 'all, full_time (default), part_time, male_full_time, female_full_time, male, female, male_part_time, female_part_time',
};
const measure: ParamSpec = {
  name: 'measure', type: 'string', enum: MEASURES, default: 'annual_gross',
  description: 'annual_gross (default, £ a year), weekly_gross (£ a week) or hourly_excluding_overtime (£ an hour)',
};

export const earningsRoutes: RouteSpec[] = [
  {
    id: 'earnings.regions',
    measures: ['median'],
    method: 'GET',
    path: '/v1/earnings/regions',
    domain: 'earnings',
    summary: 'Earnings by country, region and local authority (ASHE Tables 7 and 8)',
    query: [
      year,
      {
        name: 'geography', type: 'string', minLength: 1, vocabulary: 'region-or-name',
        description: 'GSS code (e.g. E12000002, any case), a UK country or English region by name or slug (North West, north_west: that area), or a name substring',
      },
      { name: 'level', type: 'string', enum: GEOGRAPHY_LEVELS, description: 'country, region, county or local_authority' },
      { name: 'basis', type: 'string', enum: BASES, default: 'workplace', description: 'workplace (default, Table 7) or residence (Table 8)' },
      population,
      measure,
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ERRORS,
  },
  {
    id: 'earnings.industries',
    measures: ['median'],
    method: 'GET',
    path: '/v1/earnings/industries',
    domain: 'earnings',
    summary: 'Earnings by industry, SIC 2007 sections and divisions (ASHE Table 4)',
    query: [
      year,
      { name: 'industry', type: 'string', minLength: 1, description: 'SIC 2007 section letter or division, or a name substring' },
      { name: 'level', type: 'string', enum: INDUSTRY_LEVELS, description: 'section or division' },
      population,
      measure,
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ERRORS,
  },
  {
    id: 'earnings.occupations',
    measures: ['median'],
    method: 'GET',
    path: '/v1/earnings/occupations',
    domain: 'earnings',
    summary: 'Earnings by occupation, SOC major to unit groups (SOC 2020 from 2021, SOC 2010 before; ASHE Table 14)',
    query: [
      year,
      { name: 'occupation', type: 'string', minLength: 1, description: 'SOC code (1 to 4 digits) or a name substring' },
      { name: 'level', type: 'string', enum: OCCUPATION_LEVELS, description: 'major, sub_major, minor or unit' },
      population,
      measure,
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ERRORS,
  },
  {
    id: 'earnings.percentile',
    method: 'POST',
    path: '/v1/earnings/percentile',
    domain: 'earnings',
    summary: 'Where an amount of pay sits among the published percentiles',
    body: [
      {
        name: 'amount', type: 'number', required: true, exclusiveMin: 0, error: 'invalid_parameter',
        description: 'pay in pounds in the unit of the measure (a year, a week or an hour); greater than 0',
      },
      { ...measure, error: 'invalid_parameter' },
      { ...population, error: 'invalid_parameter' },
      {
        name: 'geography', type: 'string', default: 'K02000001', pattern: String.raw`[A-Za-z]\d{8}`, patternHint: 'a GSS code such as K02000001', error: 'invalid_parameter',
        vocabulary: 'region',
        description: 'GSS code of the area (default K02000001, the United Kingdom); a UK country or English region may also be named (North West, north_west), in any case',
      },
      {
        name: 'occupation', type: 'string', pattern: String.raw`\d{1,4}`, patternHint: 'a SOC code of 1 to 4 digits', error: 'invalid_parameter',
        description: 'SOC code: compare within this occupation (UK); SOC 2020 from 2021, SOC 2010 for earlier years (meta.note says so)',
      },
      { name: 'year', type: 'integer', min: 1997, max: 2999, error: 'invalid_parameter', description: 'ASHE year; default the newest loaded' },
      { name: 'basis', type: 'string', enum: BASES, error: 'invalid_parameter', description: 'workplace or residence (default workplace where loaded)' },
    ],
    cost: POST_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
  },
];
