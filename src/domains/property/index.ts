/** The property domain: designations, house price index, council tax and sold prices from the mirror. */
import { propertyRoutes } from './routes.js';
import type { Handler } from '../../contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import {
  CONSERVATION_AREAS_INFO,
  COUNCIL_TAX_INFO,
  HPI_INFO,
  LISTED_BUILDINGS_INFO,
  PRICE_PAID_INFO,
} from './datasets.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

type Handlers = typeof import('./handlers.js');
const handlers = () => import('./handlers.js');
const local = (dataset: DatasetInfo, pick: (m: Handlers) => Handler): LocalSpec => ({
  handler: () => handlers().then(pick),
  datasets: [dataset],
});

export const manifest: DomainManifest = declareDomain({
  name: 'property',
  routes: propertyRoutes,
  local: {
    'property.listed-buildings.list': local(LISTED_BUILDINGS_INFO, (m) => m.designationList('listed-buildings')),
    'property.listed-buildings.get': local(LISTED_BUILDINGS_INFO, (m) => m.designationGet('listed-buildings')),
    'property.conservation-areas.list': local(CONSERVATION_AREAS_INFO, (m) => m.designationList('conservation-areas')),
    'property.conservation-areas.get': local(CONSERVATION_AREAS_INFO, (m) => m.designationGet('conservation-areas')),
    'property.hpi': local(HPI_INFO, (m) => m.hpi),
    'property.hpi.regions': local(HPI_INFO, (m) => m.hpiRegions),
    'property.council-tax': local(COUNCIL_TAX_INFO, (m) => m.councilTax),
    'property.price-paid.search': local(PRICE_PAID_INFO, (m) => m.pricePaidSearch),
    'property.price-paid.address': local(PRICE_PAID_INFO, (m) => m.pricePaidAddress),
    'property.price-paid.statistics': local(PRICE_PAID_INFO, (m) => m.pricePaidStatistics),
    'property.price-paid.get': local(PRICE_PAID_INFO, (m) => m.pricePaidGet),
  },
  datasets: [
    { info: PRICE_PAID_INFO, sync: () => import('./sync/price-paid.js').then((m) => m.pricePaid) },
    { info: HPI_INFO, sync: () => import('./sync/hpi.js').then((m) => m.hpi) },
    { info: COUNCIL_TAX_INFO, sync: () => import('./sync/council-tax.js').then((m) => m.councilTax) },
    { info: LISTED_BUILDINGS_INFO, sync: () => import('./sync/designations.js').then((m) => m.listedBuildings) },
    { info: CONSERVATION_AREAS_INFO, sync: () => import('./sync/designations.js').then((m) => m.conservationAreas) },
  ],
  responses: () => import('./schemas.js').then((m) => m.responses),
  renderers: {
    'property.hpi': () => import('./renderers.js').then((m) => m.hpiChart),
  },
  commands: { name: 'property', load: () => import('./commands.js').then((m) => m.register) },
});
