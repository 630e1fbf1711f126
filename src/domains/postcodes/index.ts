/**
 * The postcodes domain: the ONS Postcode Directory from the mirror, and the area profile built on it (docs/places.md).
 * The area profile lives here, not in a domain of its own: it starts from a postcode record and needs the postcodes
 * dataset (its route is not answered without it, and `serve` queues it on that file), while each of its sections comes
 * from the owning domain's routes through the handler context's `call`, so it imports no other domain: each
 * domain declares its own section (`area` of its manifest, src/domains/area-section.ts) and this domain
 * composes whatever the registry declares.
 */
import { areaSections, declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { POSTCODES_INFO } from './datasets.js';
import { areaRoutes, postcodeRoutes } from './routes.js';

// the manifest's one handler helper (src/domains/manifest.ts), not a dialect of this domain's own
const local = handlers(() => import('./handlers.js'), { datasets: [POSTCODES_INFO] });
const area = handlers(() => import('./area.js'), { datasets: [POSTCODES_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'postcodes',
  // the area route's sections are the registry's declared ones (each domain's `area`), read when used
  routes: [...postcodeRoutes, ...areaRoutes(() => areaSections().map((s) => s.name))],
  local: {
    'postcodes.detail': local('detail'),
    'postcodes.lookup': local('lookup'),
    'postcodes.nearest': local('nearest'),
    'area.profile': area('profile'),
  },
  renderers: { 'area.profile': () => import('./area-render.js').then((m) => m.areaReport) },
  datasets: [{ info: POSTCODES_INFO, sync: () => import('./sync.js').then((m) => m.postcodes) }],
  responses: async () => (await import('./schemas.js')).responses(await Promise.all(areaSections().map(async (s) => [s.name, await s.load()] as const))),
  commands: [
    { name: 'postcode', load: () => import('./commands.js').then((m) => m.register) },
    { name: 'area', load: () => import('./commands.js').then((m) => m.registerArea) },
  ],
});
