/**
 * The companies domain: the register (Companies House BasicCompanyData), persons with significant control
 * (PSC snapshot) and SIC 2007 codes (shipped) answer offline from register.ts, psc.ts and sic.ts; the
 * financial routes answer from the accounts dataset (company-financials.ts, sector-financials.ts).
 */
import { companiesRoutes } from './routes.js';
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { ACCOUNTS_INFO, COMPANIES_INFO, PSC_INFO } from './datasets.js';

/** A financial route: reads the accounts dataset (the register, when synced, only adds names and SIC codes). */
const financial = { datasets: [ACCOUNTS_INFO], optionalDatasets: [COMPANIES_INFO] };
/** A per-company financial route (financials, trends, health). */
const company = handlers(() => import('./company-financials.js'), financial);
/** A sector financial route (benchmark(s), compare, recent-filings). */
const sector = handlers(() => import('./sector-financials.js'), financial);

/**
 * A register, PSC or SIC route, the datasets it needs and those it reads when synced (PSC answers add
 * register names; filing status, sector analytics and the timeline add accounts data, the timeline PSC
 * events). Only `datasets` decide dataset_not_synced; `serve` queues on both (docs/serve.md).
 */
const local = handlers(() => import('./handlers.js'));
const register = { datasets: [COMPANIES_INFO] };
const psc = { datasets: [PSC_INFO], optionalDatasets: [COMPANIES_INFO] };

export const manifest: DomainManifest = declareDomain({
  name: 'companies',
  routes: companiesRoutes,
  local: {
    'companies.search': local('companySearch', register),
    'companies.list': local('companyList', register),
    'companies.get': local('companyGet', register),
    'companies.statistics': local('companyStatistics', register),
    'companies.geography': local('companyGeography', register),
    'companies.sector-analytics': local('sectorAnalytics', { ...register, optionalDatasets: [ACCOUNTS_INFO] }),
    'companies.filing-status': local('filingStatus', { ...register, optionalDatasets: [ACCOUNTS_INFO] }),
    'companies.timeline': local('companyTimeline', { ...register, optionalDatasets: [ACCOUNTS_INFO, PSC_INFO] }),
    'companies.sic-codes': local('sicCodes'),
    'companies.sic-codes.get': local('sicCodeGet'),
    'companies.psc': local('companyPsc', psc),
    'companies.psc.changes': local('companyPscChanges', psc),
    'companies.network': local('companyNetwork', psc),
    'companies.financials': company('financials'),
    'companies.trends': company('trends'),
    'companies.health': company('health'),
    'companies.benchmark': sector('benchmark'),
    'companies.benchmarks': sector('benchmarks'),
    'companies.compare': sector('compare'),
    'companies.recent-filings': sector('recentFilings'),
  },
  datasets: [
    { info: ACCOUNTS_INFO, sync: () => import('./sync/accounts.js').then((m) => m.accounts) },
    { info: COMPANIES_INFO, sync: () => import('./sync/companies.js').then((m) => m.companies) },
    { info: PSC_INFO, sync: () => import('./sync/psc.js').then((m) => m.psc) },
  ],
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'companies', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'companies', order: 80, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
