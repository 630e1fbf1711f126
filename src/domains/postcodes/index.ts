/**
 * The postcodes domain: the ONS Postcode Directory from the mirror, and the area profile built on it (docs/places.md).
 * The area profile lives here, not in a domain of its own: it starts from a postcode record and needs the postcodes
 * dataset (its route is not answered without it, and `serve` queues it on that file), while each of its sections comes
 * from the owning domain's routes through the handler context's `call`, so it imports no other domain.
 */
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { POSTCODES_INFO } from './datasets.js';
import { areaRoutes, postcodeRoutes } from './routes.js';

// the manifest's one handler helper (src/domains/manifest.ts), not a dialect of this domain's own
const local = handlers(() => import('./handlers.js'), { datasets: [POSTCODES_INFO] });
const area = handlers(() => import('./area.js'), { datasets: [POSTCODES_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'postcodes',
  routes: [...postcodeRoutes, ...areaRoutes],
  local: {
    'postcodes.detail': local('detail'),
    'postcodes.lookup': local('lookup'),
    'postcodes.nearest': local('nearest'),
    'area.profile': area('profile'),
  },
  renderers: { 'area.profile': () => import('./area-render.js').then((m) => m.areaReport) },
  datasets: [{ info: POSTCODES_INFO, sync: () => import('./sync.js').then((m) => m.postcodes) }],
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: [
    { name: 'postcode', load: () => import('./commands.js').then((m) => m.register) },
    { name: 'area', load: () => import('./commands.js').then((m) => m.registerArea) },
  ],
});
