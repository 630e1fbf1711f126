/** /v1/companies routes (spec doc 2 §4 "Companies"). The financial routes answer locally from the accounts dataset. */
import type { LocalSpec, ParamSpec, RouteSpec } from '../route.js';
import { GET_COST, POST_COST, paging } from './common.js';

const fin = () => import('../../domains/companies/financials.js');
/** A financial route's local handler: needs the accounts dataset (the register is optional enrichment). */
const accounts = (name: 'financials' | 'trends' | 'health' | 'benchmark' | 'benchmarks' | 'compare' | 'recentFilings'): LocalSpec => ({
  handler: () => fin().then((m) => m[name]),
  datasets: ['accounts'],
});

const companyNumber: ParamSpec = { name: 'company_number', type: 'string', description: 'company number, 8 characters (e.g. 00445790, SC123456)' };
const status: ParamSpec = { name: 'status', type: 'string', enum: ['active', 'dissolved'], description: 'active or dissolved' };
const sicPath: ParamSpec = { name: 'sic_code', type: 'string', description: 'SIC 2007 code' };

function perCompany(id: string, suffix: string, summary: string, query?: ParamSpec[], records?: string, local?: LocalSpec): RouteSpec {
  return {
    id: `companies.${id}`,
    method: 'GET',
    path: `/v1/companies/{company_number}${suffix}`,
    domain: 'companies',
    summary,
    pathParams: [companyNumber],
    ...(query ? { query } : {}),
    cost: GET_COST,
    errors: ['not_found', 'invalid_parameter'],
    ...(records ? { records } : {}),
    ...(local ? { local } : {}),
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
    query: [status, { name: 'sic_code', type: 'string', description: 'SIC code' }, { name: 'postcode', type: 'string', description: 'postcode area' }, ...paging],
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
    body: [{ name: 'company_numbers', type: 'string[]', required: true, min: 2, max: 10, description: '2 to 10 company numbers' }],
    cost: POST_COST,
    records: 'companies',
    errors: ['bad_request'],
    local: accounts('compare'),
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
    local: accounts('benchmarks'),
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
    pathParams: [{ name: 'postcode_prefix', type: 'string', description: 'postcode prefix, e.g. EC1' }],
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
      { name: 'sic_code', type: 'string', description: 'SIC 2007 code (local extension)' },
      { name: 'from', type: 'string', description: 'published on or after, YYYY-MM-DD (local extension)' },
      { name: 'to', type: 'string', description: 'published on or before, YYYY-MM-DD (local extension)' },
      ...paging,
    ],
    cost: GET_COST,
    pagination: 'top',
    errors: ['invalid_parameter'],
    local: accounts('recentFilings'),
  },
  perCompany('get', '', 'Company detail'),
  perCompany('financials', '/financials', 'Financial filings', [
    { name: 'limit', type: 'integer', min: 1, max: 50, default: 10, description: 'filings, 1 to 50' },
  ], 'filings', accounts('financials')),
  perCompany('psc', '/psc', 'Persons with significant control', undefined, 'psc_records'),
  perCompany('psc.changes', '/psc/changes', 'PSC changes in order', undefined, 'events'),
  perCompany('benchmark', '/benchmark', 'Company against its sector', undefined, undefined, accounts('benchmark')),
  perCompany('network', '/network', 'Controllers and related companies', undefined, 'controllers'),
  perCompany('filing-status', '/filing-status', 'Filing compliance status'),
  perCompany('trends', '/trends', 'Financial trends between filings', undefined, 'periods', accounts('trends')),
  perCompany('health', '/health', 'Financial health signals', undefined, undefined, accounts('health')),
  perCompany('timeline', '/timeline', 'Company timeline, newest first', undefined, 'events'),
];
