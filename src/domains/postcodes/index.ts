/** The postcodes domain: the ONS Postcode Directory from the mirror (docs/places.md). */
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';
import { POSTCODES_INFO } from './datasets.js';
import { postcodeRoutes } from './routes.js';

const handlers = () => import('./handlers.js');
const local = (name: 'detail' | 'lookup' | 'nearest'): LocalSpec => ({
  handler: () => handlers().then((m) => m[name]),
  datasets: [POSTCODES_INFO],
});

export const manifest: DomainManifest = declareDomain({
  name: 'postcodes',
  routes: postcodeRoutes,
  local: {
    'postcodes.detail': local('detail'),
    'postcodes.lookup': local('lookup'),
    'postcodes.nearest': local('nearest'),
  },
  datasets: [{ info: POSTCODES_INFO, sync: () => import('./sync.js').then((m) => m.postcodes) }],
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'postcode', load: () => import('./commands.js').then((m) => m.register) },
});
