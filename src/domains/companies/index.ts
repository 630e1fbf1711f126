/** The companies domain: the financial routes answer offline from the accounts dataset; the rest live. */
import { companiesRoutes } from '../../contract/routes/companies.js';
import type { Handler } from '../../contract/types.js';
import type { DomainManifest, LocalSpec } from '../manifest.js';
import { ACCOUNTS_INFO } from './datasets.js';

type Financials = typeof import('./financials.js');
/** A financial route: reads the accounts dataset (the register, when synced, only adds names and SIC codes). */
const accounts = (pick: (m: Financials) => Handler): LocalSpec => ({
  handler: () => import('./financials.js').then(pick),
  datasets: [ACCOUNTS_INFO.name],
});

export const manifest: DomainManifest = {
  name: 'companies',
  routes: companiesRoutes,
  local: {
    'companies.financials': accounts((m) => m.financials),
    'companies.trends': accounts((m) => m.trends),
    'companies.health': accounts((m) => m.health),
    'companies.benchmark': accounts((m) => m.benchmark),
    'companies.benchmarks': accounts((m) => m.benchmarks),
    'companies.compare': accounts((m) => m.compare),
    'companies.recent-filings': accounts((m) => m.recentFilings),
  },
  datasets: [
    { info: ACCOUNTS_INFO, sync: () => import('../../../sync/accounts.js').then((m) => m.accounts) },
  ],
};
