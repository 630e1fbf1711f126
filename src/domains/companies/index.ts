/**
 * The companies domain: the register (Companies House BasicCompanyData), persons with significant control
 * (PSC snapshot) and SIC 2007 codes (shipped) answer offline from register.ts, psc.ts and sic.ts; the
 * financial routes answer from the accounts dataset (company-financials.ts, sector-financials.ts).
 */
import { companiesRoutes } from './routes.js';
import type { Handler } from '../../contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import { ACCOUNTS_INFO, COMPANIES_INFO, PSC_INFO } from './datasets.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

type CompanyFinancials = typeof import('./company-financials.js');
type SectorFinancials = typeof import('./sector-financials.js');
/** A financial route: reads the accounts dataset (the register, when synced, only adds names and SIC codes). */
const accounts = (load: () => Promise<Handler>): LocalSpec => ({ handler: load, datasets: [ACCOUNTS_INFO], optionalDatasets: [COMPANIES_INFO] });
/** A per-company financial route (financials, trends, health). */
const company = (pick: (m: CompanyFinancials) => Handler): LocalSpec => accounts(() => import('./company-financials.js').then(pick));
/** A sector financial route (benchmark(s), compare, recent-filings). */
const sector = (pick: (m: SectorFinancials) => Handler): LocalSpec => accounts(() => import('./sector-financials.js').then(pick));

type Handlers = typeof import('./handlers.js');
/**
 * A register, PSC or SIC route, the datasets it needs and those it reads when synced (PSC answers add
 * register names; filing status, sector analytics and the timeline add accounts data, the timeline PSC
 * events). Only `datasets` decide dataset_not_synced; `serve` queues on both (docs/serve.md).
 */
const local = (datasets: DatasetInfo[], pick: (m: Handlers) => Handler, optionalDatasets: DatasetInfo[] = []): LocalSpec => ({
  handler: () => import('./handlers.js').then(pick),
  datasets,
  ...(optionalDatasets.length ? { optionalDatasets } : {}),
});
const register = [COMPANIES_INFO];
const psc = [PSC_INFO];

export const manifest: DomainManifest = declareDomain({
  name: 'companies',
  routes: companiesRoutes,
  local: {
    'companies.search': local(register, (m) => m.companySearch),
    'companies.list': local(register, (m) => m.companyList),
    'companies.get': local(register, (m) => m.companyGet),
    'companies.statistics': local(register, (m) => m.companyStatistics),
    'companies.geography': local(register, (m) => m.companyGeography),
    'companies.sector-analytics': local(register, (m) => m.sectorAnalytics, [ACCOUNTS_INFO]),
    'companies.filing-status': local(register, (m) => m.filingStatus, [ACCOUNTS_INFO]),
    'companies.timeline': local(register, (m) => m.companyTimeline, [ACCOUNTS_INFO, PSC_INFO]),
    'companies.sic-codes': local([], (m) => m.sicCodes),
    'companies.sic-codes.get': local([], (m) => m.sicCodeGet),
    'companies.psc': local(psc, (m) => m.companyPsc, register),
    'companies.psc.changes': local(psc, (m) => m.companyPscChanges, register),
    'companies.network': local(psc, (m) => m.companyNetwork, register),
    'companies.financials': company((m) => m.financials),
    'companies.trends': company((m) => m.trends),
    'companies.health': company((m) => m.health),
    'companies.benchmark': sector((m) => m.benchmark),
    'companies.benchmarks': sector((m) => m.benchmarks),
    'companies.compare': sector((m) => m.compare),
    'companies.recent-filings': sector((m) => m.recentFilings),
  },
  datasets: [
    { info: ACCOUNTS_INFO, sync: () => import('./sync/accounts.js').then((m) => m.accounts) },
    { info: COMPANIES_INFO, sync: () => import('./sync/companies.js').then((m) => m.companies) },
    { info: PSC_INFO, sync: () => import('./sync/psc.js').then((m) => m.psc) },
  ],
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'companies', load: () => import('./commands.js').then((m) => m.register) },
});
