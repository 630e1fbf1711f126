/**
 * The crime domain: data.police.uk street-level crimes and outcomes, offline from the monthly archive
 * (dataset `crime`, sync in ./sync.ts). Categories answer from the shipped map (data/crime/) without a sync.
 */
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { CRIME_INFO } from './datasets.js';
import { crimeRoutes } from './routes.js';

const local = handlers(() => import('./handlers.js'), { datasets: [CRIME_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'crime',
  routes: crimeRoutes,
  local: {
    'crime.street': local('street'),
    'crime.outcomes': local('outcomes'),
    'crime.statistics': local('statistics'),
    // the category map is shipped reference data: no mirror file read
    'crime.categories': local('categories', { datasets: [] }),
    'crime.forces': local('forces'),
  },
  datasets: [{ info: CRIME_INFO, sync: () => import('./sync.js').then((m) => m.crime) }],
  renderers: { 'crime.statistics': () => import('./renderers.js').then((m) => m.statsChart) },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'crime', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'crime', order: 20, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
