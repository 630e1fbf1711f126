/** The companies domain. No offline handlers yet: every route is answered live. */
import { companiesRoutes } from '../../contract/routes/companies.js';
import type { DomainManifest } from '../manifest.js';

export const manifest: DomainManifest = {
  name: 'companies',
  routes: companiesRoutes,
  local: {},
  datasets: [],
};
