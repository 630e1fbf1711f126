/**
 * The vehicles domain. Offline: licensing and registrations (DfT VEH0120/VEH0160, dataset
 * `vehicle-licensing`) and MOT results, pass rates and failure reasons (DVSA, dataset `mot`).
 * Road safety (STATS19, dataset `road-safety`) and road traffic (DfT, `road-traffic`): traffic-manifest.ts.
 */
import { vehiclesRoutes } from './routes.js';
import type { Handler } from '../../contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import { MOT_INFO, VEHICLE_LICENSING_INFO } from './datasets.js';
import { trafficDatasets, trafficLocal, trafficRenderers } from './traffic-manifest.js';

type Licensing = typeof import('./licensing.js');
type Mot = typeof import('./mot.js');
const licensing = (pick: (m: Licensing) => Handler): LocalSpec => ({
  handler: () => import('./licensing.js').then(pick),
  datasets: [VEHICLE_LICENSING_INFO],
});
const mot = (pick: (m: Mot) => Handler): LocalSpec => ({
  handler: () => import('./mot.js').then(pick),
  datasets: [MOT_INFO],
});

export const manifest: DomainManifest = declareDomain({
  name: 'vehicles',
  routes: vehiclesRoutes,
  local: {
    'vehicles.licensing': licensing((m) => m.licensing),
    'vehicles.registrations': licensing((m) => m.registrations),
    'vehicles.mot-tests': mot((m) => m.motTests),
    'vehicles.mot-pass-rates': mot((m) => m.motPassRates),
    'vehicles.mot-failures': mot((m) => m.motFailures),
    ...trafficLocal,
  },
  datasets: [
    { info: VEHICLE_LICENSING_INFO, sync: () => import('./sync/vehicle-licensing.js').then((m) => m.vehicleLicensing) },
    { info: MOT_INFO, sync: () => import('./sync/mot.js').then((m) => m.mot) },
    ...trafficDatasets,
  ],
  responses: () => import('./schemas.js').then((m) => m.responses),
  renderers: {
    'vehicles.registrations': () => import('./renderers.js').then((m) => m.registrationsChart),
    'vehicles.licensing': () => import('./renderers.js').then((m) => m.licensingChart),
    ...trafficRenderers,
  },
  commands: { name: 'vehicles', load: () => import('./commands.js').then((m) => m.register) },
});
