/** The companies domain: the financial routes answer offline from the accounts dataset; the rest live. */
import { companiesRoutes } from '../../contract/routes/companies.js';
import type { DomainManifest } from '../manifest.js';
import { ACCOUNTS_INFO } from './datasets.js';

export const manifest: DomainManifest = {
  name: 'companies',
  routes: companiesRoutes,
  local: {},
  datasets: [
    { info: ACCOUNTS_INFO, sync: () => import('../../../sync/accounts.js').then((m) => m.accounts) },
  ],
};
