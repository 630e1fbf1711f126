/** /v1/companies routes (spec doc 2 §4 "Companies"). */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { COMPANY_NUMBER_HINT, COMPANY_NUMBER_PATTERN, GET_COST, POST_COST, POSTCODE_HINT, POSTCODE_PATTERN, paging } from '../../contract/params.js';

const companyNumber: ParamSpec = {
  name: 'company_number',
  type: 'string',
  pattern: COMPANY_NUMBER_PATTERN,
  patternHint: COMPANY_NUMBER_HINT,
  description: 'company number, 8 characters (e.g. 00445790, SC123456)',
};
const status: ParamSpec = { name: 'status', type: 'string', enum: ['active', 'dissolved'], description: 'active or dissolved' };
/** A SIC 2007 code: 5 digits (4 for the few older codes the register still carries, e.g. 7499). */
const SIC_PATTERN = '\\d{4,5}';
const SIC_HINT = 'a 5-digit SIC 2007 code, e.g. 62012';
const sicPath: ParamSpec = { name: 'sic_code', type: 'string', pattern: SIC_PATTERN, patternHint: SIC_HINT, description: 'SIC 2007 code' };

function perCompany(id: string, path: string, summary: string, query?: ParamSpec[], records?: string): RouteSpec {
  return {
    id,
    method: 'GET',
    path,
    domain: 'companies',
    summary,
    pathParams: [companyNumber],
    ...(query ? { query } : {}),
    cost: GET_COST,
    errors: ['not_found', 'invalid_parameter'],
    ...(records ? { records } : {}),
  };
}

export const companiesRoutes: RouteSpec[] = [
  {
    id: 'companies.search',
    method: 'GET',
    path: '/v1/companies/search',
    domain: 'companies',
    summary: 'Search companies by name, ranked by relevance',
    query: [{ name: 'q', type: 'string', required: true, minLength: 2, description: 'search text, at least 2 characters' }, status, ...paging],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'companies.list',
    method: 'GET',
    path: '/v1/companies',
    domain: 'companies',
    summary: 'List companies by status, SIC code or postcode area',
    query: [status, { name: 'sic_code', type: 'string', description: 'SIC code' }, { name: 'postcode', type: 'string', pattern: POSTCODE_PATTERN, patternHint: POSTCODE_HINT, description: 'postcode area' }, ...paging],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'companies.sic-codes',
    method: 'GET',
    path: '/v1/companies/sic-codes',
    domain: 'companies',
    summary: 'SIC 2007 industry codes',
    query: [{ name: 'section', type: 'string', description: 'section letter A to U' }, ...paging],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  {
    id: 'companies.sic-codes.get',
    method: 'GET',
    path: '/v1/companies/sic-codes/{code}',
    domain: 'companies',
    summary: 'One SIC code with its section',
    pathParams: [{ name: 'code', type: 'string', description: 'SIC code' }],
    cost: GET_COST,
    errors: ['not_found'],
  },
  {
    id: 'companies.statistics',
    method: 'GET',
    path: '/v1/companies/statistics',
    domain: 'companies',
    summary: 'Register totals by status and type',
    cost: GET_COST,
    errors: [],
  },
  {
    id: 'companies.compare',
    method: 'POST',
    path: '/v1/companies/compare',
    domain: 'companies',
    summary: 'Compare 2 to 10 companies',
    body: [{ name: 'company_numbers', type: 'string[]', required: true, min: 2, max: 10, pattern: COMPANY_NUMBER_PATTERN, patternHint: COMPANY_NUMBER_HINT, description: '2 to 10 company numbers' }],
    cost: POST_COST,
    records: 'companies',
    errors: ['bad_request'],
  },
  {
    id: 'companies.benchmarks',
    method: 'GET',
    path: '/v1/companies/benchmarks/{sic_code}',
    domain: 'companies',
    summary: 'Sector financial benchmarks',
    pathParams: [sicPath],
    cost: GET_COST,
    errors: ['not_found', 'invalid_parameter'],
  },
  {
    id: 'companies.sector-analytics',
    method: 'GET',
    path: '/v1/companies/sectors/{sic_code}/analytics',
    domain: 'companies',
    summary: 'Sector analytics',
    pathParams: [sicPath],
    cost: GET_COST,
    errors: ['not_found'],
  },
  {
    id: 'companies.geography',
    method: 'GET',
    path: '/v1/companies/geography/{postcode_prefix}',
    domain: 'companies',
    summary: 'Companies in a postcode area',
    pathParams: [{ name: 'postcode_prefix', type: 'string', pattern: POSTCODE_PATTERN, patternHint: POSTCODE_HINT, description: 'postcode prefix, e.g. EC1' }],
    cost: GET_COST,
    errors: ['not_found'],
  },
  {
    id: 'companies.recent-filings',
    method: 'GET',
    path: '/v1/companies/recent-filings',
    domain: 'companies',
    summary: 'Recent accounts filings',
    query: [
      { name: 'filing_type', type: 'string', enum: ['full', 'abridged', 'filleted', 'abbreviated', 'micro', 'dormant'], description: 'filing type, e.g. full' },
      // The spec says SIC and date-range filters exist but not their names: local extensions.
      // Declared here so a bad value is refused (400 invalid_parameter) before the mirror is opened or
      // the API is asked, whichever source answers; `date` is a real calendar date (not 2026-02-30).
      { name: 'sic_code', type: 'string', pattern: SIC_PATTERN, patternHint: SIC_HINT, description: 'SIC 2007 code (local extension)' },
      { name: 'from', type: 'date', description: 'published on or after, YYYY-MM-DD (local extension)' },
      { name: 'to', type: 'date', description: 'published on or before, YYYY-MM-DD (local extension)' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
  },
  perCompany('companies.get', '/v1/companies/{company_number}', 'Company detail'),
  perCompany('companies.financials', '/v1/companies/{company_number}/financials', 'Financial filings', [
    { name: 'limit', type: 'integer', min: 1, max: 50, default: 10, description: 'filings, 1 to 50' },
  ], 'filings'),
  perCompany('companies.psc', '/v1/companies/{company_number}/psc', 'Persons with significant control', undefined, 'psc_records'),
  perCompany('companies.psc.changes', '/v1/companies/{company_number}/psc/changes', 'PSC changes in order', undefined, 'events'),
  perCompany('companies.benchmark', '/v1/companies/{company_number}/benchmark', 'Company against its sector'),
  perCompany('companies.network', '/v1/companies/{company_number}/network', 'Controllers and related companies', undefined, 'controllers'),
  perCompany('companies.filing-status', '/v1/companies/{company_number}/filing-status', 'Filing compliance status'),
  perCompany('companies.trends', '/v1/companies/{company_number}/trends', 'Financial trends between filings', undefined, 'periods'),
  perCompany('companies.health', '/v1/companies/{company_number}/health', 'Financial health signals'),
  perCompany('companies.timeline', '/v1/companies/{company_number}/timeline', 'Company timeline, newest first', undefined, 'events'),
];
