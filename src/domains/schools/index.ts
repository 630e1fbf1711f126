/** The schools domain: the GIAS register joined to Ofsted's latest inspections, from the mirror (docs/schools.md). */
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { SCHOOLS_INFO } from './datasets.js';
import { schoolsRegion } from './regions.js';
import { schoolRoutes } from './routes.js';

const local = handlers(() => import('./handlers.js'), { datasets: [SCHOOLS_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'schools',
  routes: schoolRoutes,
  local: {
    'schools.search': local('search'),
    'schools.detail': local('detail'),
    'schools.inspections.statistics': local('statistics'),
  },
  datasets: [{ info: SCHOOLS_INFO, sync: () => import('./sync/index.js').then((m) => m.schools) }],
  renderers: { 'schools.inspections.statistics': () => import('./renderers.js').then((m) => m.statisticsChart) },
  vocabularies: { region: schoolsRegion },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'schools', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'schools', order: 30, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
