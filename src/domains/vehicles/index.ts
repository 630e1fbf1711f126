/**
 * The vehicles domain. Offline: licensing and registrations (DfT VEH0120/VEH0160, dataset
 * `vehicle-licensing`) and MOT results, pass rates and failure reasons (DVSA, dataset `mot`).
 * Road safety and road traffic: see their own lines below.
 */
import { vehiclesRoutes } from '../../contract/routes/vehicles.js';
import type { DomainManifest } from '../manifest.js';
import { VEHICLE_LICENSING_INFO } from './datasets.js';

export const manifest: DomainManifest = {
  name: 'vehicles',
  routes: vehiclesRoutes,
  local: {},
  datasets: [
    { info: VEHICLE_LICENSING_INFO, sync: () => import('../../../sync/vehicle-licensing.js').then((m) => m.vehicleLicensing) },
  ],
};
