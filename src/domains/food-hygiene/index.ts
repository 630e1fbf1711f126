/**
 * The food-hygiene domain: the Food Standards Agency's food hygiene ratings (FHRS and FHIS), answered
 * offline from the `food-hygiene` mirror dataset (sync/index.ts) or live from the API (`--source live`).
 * Routes: routes.ts; handlers: handlers.ts (search, detail) and handlers-lists.ts (authorities, business
 * types, statistics). Importing this file loads no handler, DuckDB or sync code.
 */
import type { Handler } from '../../contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import { FOOD_HYGIENE_INFO } from './datasets.js';
import { foodHygieneRoutes } from './routes.js';

type Handlers = typeof import('./handlers.js');
const local = (pick: (m: Handlers) => Handler): LocalSpec => ({
  handler: () => import('./handlers.js').then(pick),
  datasets: [FOOD_HYGIENE_INFO],
});

export const manifest: DomainManifest = declareDomain({
  name: 'food-hygiene',
  routes: foodHygieneRoutes,
  local: {
    'food-hygiene.establishments': local((m) => m.searchEstablishments),
    'food-hygiene.establishment': local((m) => m.getEstablishment),
    'food-hygiene.authorities': local((m) => m.listAuthorities),
    'food-hygiene.business-types': local((m) => m.listBusinessTypes),
    'food-hygiene.statistics': local((m) => m.statistics),
  },
  datasets: [{ info: FOOD_HYGIENE_INFO, sync: () => import('./sync/index.js').then((m) => m.foodHygiene) }],
  renderers: {
    'food-hygiene.establishments': () => import('./renderers.js').then((m) => m.establishmentsTable),
    'food-hygiene.statistics': () => import('./renderers.js').then((m) => m.statisticsChart),
  },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'food-hygiene', load: () => import('./commands.js').then((m) => m.register) },
});
