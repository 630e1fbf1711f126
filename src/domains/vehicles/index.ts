/**
 * The vehicles domain. Offline: licensing and registrations (DfT VEH0120/VEH0160, dataset
 * `vehicle-licensing`) and MOT results, pass rates and failure reasons (DVSA, dataset `mot`).
 * Road safety (STATS19, dataset `road-safety`) and road traffic (DfT, `road-traffic`): traffic-manifest.ts.
 */
import { vehiclesRoutes } from './routes.js';
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { MOT_INFO, VEHICLE_LICENSING_INFO } from './datasets.js';
import { trafficDatasets, trafficLocal, trafficRenderers } from './traffic-manifest.js';
import { trafficRegion } from './traffic-regions.js';

const licensing = handlers(() => import('./licensing.js'), { datasets: [VEHICLE_LICENSING_INFO] });
const mot = handlers(() => import('./mot.js'), { datasets: [MOT_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'vehicles',
  routes: vehiclesRoutes,
  vocabularies: { region: trafficRegion },
  local: {
    'vehicles.licensing': licensing('licensing'),
    'vehicles.registrations': licensing('registrations'),
    'vehicles.mot-tests': mot('motTests'),
    'vehicles.mot-pass-rates': mot('motPassRates'),
    'vehicles.mot-failures': mot('motFailures'),
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
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'road_safety', order: 50, load: () => import('./area-sections.js').then((m) => m.roadSafetySection) },
    { name: 'traffic', order: 60, load: () => import('./area-sections.js').then((m) => m.trafficSection) },
  ],
});
