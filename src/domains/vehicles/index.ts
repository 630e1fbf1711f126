/**
 * The vehicles domain. Offline: licensing and registrations (DfT VEH0120/VEH0160, dataset
 * `vehicle-licensing`) and MOT results, pass rates and failure reasons (DVSA, dataset `mot`).
 * Road safety (STATS19, dataset `road-safety`) and road traffic (DfT, `road-traffic`): traffic-manifest.ts.
 */
import { vehiclesRoutes } from '../../contract/routes/vehicles.js';
import type { DomainManifest } from '../manifest.js';
import { VEHICLE_LICENSING_INFO } from './datasets.js';
import { trafficDatasets, trafficLocal, trafficRenderers } from './traffic-manifest.js';

export const manifest: DomainManifest = {
  name: 'vehicles',
  routes: vehiclesRoutes,
  local: { ...trafficLocal },
  datasets: [
    { info: VEHICLE_LICENSING_INFO, sync: () => import('../../../sync/vehicle-licensing.js').then((m) => m.vehicleLicensing) },
    ...trafficDatasets,
  ],
  renderers: { ...trafficRenderers },
};
