/** The property domain: designations, house price index, council tax and sold prices from the mirror. */
import { propertyRoutes } from '../../contract/routes/property.js';
import type { Handler } from '../../contract/types.js';
import type { DomainManifest, LocalSpec } from '../manifest.js';
import {
  CONSERVATION_AREAS_INFO,
  COUNCIL_TAX_INFO,
  HPI_INFO,
  LISTED_BUILDINGS_INFO,
  PRICE_PAID_INFO,
} from './datasets.js';

type Handlers = typeof import('./handlers.js');
const handlers = () => import('./handlers.js');
const local = (dataset: string, pick: (m: Handlers) => Handler): LocalSpec => ({
  handler: () => handlers().then(pick),
  datasets: [dataset],
});

export const manifest: DomainManifest = {
  name: 'property',
  routes: propertyRoutes,
  local: {
    'property.listed-buildings.list': local('listed-buildings', (m) => m.designationList('listed-buildings')),
    'property.listed-buildings.get': local('listed-buildings', (m) => m.designationGet('listed-buildings')),
    'property.conservation-areas.list': local('conservation-areas', (m) => m.designationList('conservation-areas')),
    'property.conservation-areas.get': local('conservation-areas', (m) => m.designationGet('conservation-areas')),
    'property.hpi': local('hpi', (m) => m.hpi),
    'property.hpi.regions': local('hpi', (m) => m.hpiRegions),
    'property.council-tax': local('council-tax', (m) => m.councilTax),
    'property.price-paid.search': local('price-paid', (m) => m.pricePaidSearch),
    'property.price-paid.address': local('price-paid', (m) => m.pricePaidAddress),
    'property.price-paid.statistics': local('price-paid', (m) => m.pricePaidStatistics),
    'property.price-paid.get': local('price-paid', (m) => m.pricePaidGet),
  },
  datasets: [
    { info: PRICE_PAID_INFO, sync: () => import('./sync/price-paid.js').then((m) => m.pricePaid) },
    { info: HPI_INFO, sync: () => import('./sync/hpi.js').then((m) => m.hpi) },
    { info: COUNCIL_TAX_INFO, sync: () => import('./sync/council-tax.js').then((m) => m.councilTax) },
    { info: LISTED_BUILDINGS_INFO, sync: () => import('./sync/designations.js').then((m) => m.listedBuildings) },
    { info: CONSERVATION_AREAS_INFO, sync: () => import('./sync/designations.js').then((m) => m.conservationAreas) },
  ],
  renderers: {
    'property.hpi': () => import('./renderers.js').then((m) => m.hpiChart),
  },
  commands: { name: 'property', load: () => import('./commands.js').then((m) => m.register) },
};
