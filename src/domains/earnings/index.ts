/** The earnings domain: ONS ASHE earnings by region, industry and occupation, and the percentile calculator. */
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { EARNINGS_INFO } from './datasets.js';
import { percentileGeography, regionsGeography } from './regions.js';
import { earningsRoutes } from './routes.js';

const local = handlers(() => import('./handlers.js'), { datasets: [EARNINGS_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'earnings',
  routes: earningsRoutes,
  local: {
    'earnings.regions': local('regions'),
    'earnings.industries': local('industries'),
    'earnings.occupations': local('occupations'),
    'earnings.percentile': local('percentile'),
  },
  datasets: [{ info: EARNINGS_INFO, sync: () => import('./sync/index.js').then((m) => m.earnings) }],
  renderers: {
    'earnings.percentile': () => import('./renderers.js').then((m) => m.rankTable),
    'earnings.regions': () => import('./renderers.js').then((m) => m.seriesTable),
    'earnings.industries': () => import('./renderers.js').then((m) => m.seriesTable),
    'earnings.occupations': () => import('./renderers.js').then((m) => m.seriesTable),
  },
  vocabularies: { region: percentileGeography, 'region-or-name': regionsGeography },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'earnings', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'earnings', order: 70, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
