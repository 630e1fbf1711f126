/** The energy domain: Ofgem price cap periods, regional rates and a bill calculator (spec doc 4, `/v1/energy`). */
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { ENERGY_PRICE_CAP_INFO } from './datasets.js';
import { energyRegion } from './regions.js';
import { energyRoutes } from './routes.js';

const renderers = () => import('./renderers.js');
// Shipped data answers without a sync; the synced levels model adds regions and periods when present.
const local = handlers(() => import('./handlers.js'), { optionalDatasets: [ENERGY_PRICE_CAP_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'energy',
  routes: energyRoutes,
  local: {
    'energy.price-cap.periods': local('periods'),
    'energy.price-cap.periods.current': local('periodCurrent'),
    'energy.price-cap.periods.get': local('period'),
    'energy.price-cap.rates': local('rates'),
    'energy.price-cap.regions': local('regions', { optionalDatasets: [] }),
    'energy.price-cap.calculate': local('calculate'),
  },
  datasets: [{ info: ENERGY_PRICE_CAP_INFO, sync: () => import('./sync/index.js').then((m) => m.energyPriceCap) }],
  renderers: {
    'energy.price-cap.calculate': () => renderers().then((m) => m.bill),
    'energy.price-cap.periods': () => renderers().then((m) => m.periodsChart),
  },
  vocabularies: { region: energyRegion },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'energy', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'energy', order: 90, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
