/**
 * The crime domain: data.police.uk street-level crimes and outcomes, offline from the monthly archive
 * (dataset `crime`, sync in ./sync.ts). Categories answer from the shipped map (data/crime/) without a sync.
 */
import type { Handler } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import { CRIME_INFO } from './datasets.js';
import { crimeRoutes } from './routes.js';

type Handlers = typeof import('./handlers.js');
const local = (pick: (m: Handlers) => Handler, datasets: readonly DatasetInfo[] = [CRIME_INFO]): LocalSpec => ({
  handler: () => import('./handlers.js').then(pick),
  ...(datasets.length ? { datasets } : {}),
});

export const manifest: DomainManifest = declareDomain({
  name: 'crime',
  routes: crimeRoutes,
  local: {
    'crime.street': local((m) => m.street),
    'crime.outcomes': local((m) => m.outcomes),
    'crime.statistics': local((m) => m.statistics),
    // the category map is shipped reference data: no mirror file read
    'crime.categories': local((m) => m.categories, []),
    'crime.forces': local((m) => m.forces),
  },
  datasets: [{ info: CRIME_INFO, sync: () => import('./sync.js').then((m) => m.crime) }],
  renderers: { 'crime.statistics': () => import('./renderers.js').then((m) => m.statsChart) },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'crime', load: () => import('./commands.js').then((m) => m.register) },
});
