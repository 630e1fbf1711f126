/**
 * The food-hygiene domain: the Food Standards Agency's food hygiene ratings (FHRS and FHIS), answered
 * offline from the `food-hygiene` mirror dataset (sync/index.ts) or live from the API (`--source live`).
 * Routes: routes.ts; handlers: handlers.ts (search, detail) and handlers-lists.ts (authorities, business
 * types, statistics). Importing this file loads no handler, DuckDB or sync code.
 */
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { FOOD_HYGIENE_INFO } from './datasets.js';
import { foodHygieneRoutes } from './routes.js';

const local = handlers(() => import('./handlers.js'), { datasets: [FOOD_HYGIENE_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'food-hygiene',
  routes: foodHygieneRoutes,
  local: {
    'food-hygiene.establishments': local('searchEstablishments'),
    'food-hygiene.establishment': local('getEstablishment'),
    'food-hygiene.authorities': local('listAuthorities'),
    'food-hygiene.business-types': local('listBusinessTypes'),
    'food-hygiene.statistics': local('statistics'),
  },
  datasets: [{ info: FOOD_HYGIENE_INFO, sync: () => import('./sync/index.js').then((m) => m.foodHygiene) }],
  renderers: {
    'food-hygiene.establishments': () => import('./renderers.js').then((m) => m.establishmentsTable),
    'food-hygiene.statistics': () => import('./renderers.js').then((m) => m.statisticsChart),
  },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'food-hygiene', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'food_hygiene', order: 40, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
