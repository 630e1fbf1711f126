/** The vehicles domain. No offline handlers yet: every route is answered live. */
import { vehiclesRoutes } from '../../contract/routes/vehicles.js';
import type { DomainManifest } from '../manifest.js';

export const manifest: DomainManifest = {
  name: 'vehicles',
  routes: vehiclesRoutes,
  local: {},
  datasets: [],
};
