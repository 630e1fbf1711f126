/** The earnings domain: ONS ASHE earnings by region, industry and occupation, and the percentile calculator. */
import type { Handler } from '../../contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import { EARNINGS_INFO } from './datasets.js';
import { earningsRoutes } from './routes.js';

type Handlers = typeof import('./handlers.js');
const handlers = () => import('./handlers.js');
const local = (pick: (m: Handlers) => Handler): LocalSpec => ({ handler: () => handlers().then(pick), datasets: [EARNINGS_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'earnings',
  routes: earningsRoutes,
  local: {
    'earnings.regions': local((m) => m.regions),
    'earnings.industries': local((m) => m.industries),
    'earnings.occupations': local((m) => m.occupations),
    'earnings.percentile': local((m) => m.percentile),
  },
  datasets: [{ info: EARNINGS_INFO, sync: () => import('./sync/index.js').then((m) => m.earnings) }],
  renderers: {
    'earnings.percentile': () => import('./renderers.js').then((m) => m.rankTable),
    'earnings.regions': () => import('./renderers.js').then((m) => m.seriesTable),
    'earnings.industries': () => import('./renderers.js').then((m) => m.seriesTable),
    'earnings.occupations': () => import('./renderers.js').then((m) => m.seriesTable),
  },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'earnings', load: () => import('./commands.js').then((m) => m.register) },
});
