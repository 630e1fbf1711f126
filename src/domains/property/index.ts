/** The property domain: designations, house price index, council tax and sold prices from the mirror. */
import { propertyRoutes } from './routes.js';
import { hpiRegion } from './regions.js';
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import {
  CONSERVATION_AREAS_INFO,
  COUNCIL_TAX_INFO,
  HPI_INFO,
  LISTED_BUILDINGS_INFO,
  PRICE_PAID_INFO,
} from './datasets.js';

const local = handlers(() => import('./handlers.js'));
const listed = { datasets: [LISTED_BUILDINGS_INFO] };
const conservation = { datasets: [CONSERVATION_AREAS_INFO] };
const hpi = { datasets: [HPI_INFO] };
const pricePaid = { datasets: [PRICE_PAID_INFO] };

export const manifest: DomainManifest = declareDomain({
  name: 'property',
  routes: propertyRoutes,
  vocabularies: { region: hpiRegion },
  local: {
    'property.listed-buildings.list': local((m) => m.designationList('listed-buildings'), listed),
    'property.listed-buildings.get': local((m) => m.designationGet('listed-buildings'), listed),
    'property.conservation-areas.list': local((m) => m.designationList('conservation-areas'), conservation),
    'property.conservation-areas.get': local((m) => m.designationGet('conservation-areas'), conservation),
    'property.hpi': local('hpi', hpi),
    'property.hpi.regions': local('hpiRegions', hpi),
    'property.council-tax': local('councilTax', { datasets: [COUNCIL_TAX_INFO] }),
    'property.price-paid.search': local('pricePaidSearch', pricePaid),
    'property.price-paid.address': local('pricePaidAddress', pricePaid),
    'property.price-paid.statistics': local('pricePaidStatistics', pricePaid),
    'property.price-paid.get': local('pricePaidGet', pricePaid),
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
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'property', order: 10, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
