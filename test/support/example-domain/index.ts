/**
 * `example`, the test-only domain: what the shared tests use as their example, so that removing any real
 * domain leaves them passing (`npm run check:domains`). Importing this module declares it (declareDomain),
 * as src/registry.ts's lines declare the real ones; the production registry never lists it. Every test file
 * has it declared: vitest's setup file (test/support/example-setup.ts) imports this module before the file's
 * own imports, so it is the first domain of the registry the tests see (docs/testing.md).
 */
import type { Handler } from '../../../src/contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../../../src/domains/manifest.js';
import { exampleRoutes } from './routes.js';

const local = (name: 'items' | 'item' | 'summary' | 'notes'): LocalSpec => ({
  handler: () => import('./handlers.js').then((m) => m[name] as Handler),
});

export const EXAMPLE_DOMAIN = 'example';

export const manifest: DomainManifest = declareDomain({
  name: EXAMPLE_DOMAIN,
  routes: exampleRoutes,
  local: { 'example.items': local('items'), 'example.item': local('item'), 'example.summary': local('summary'), 'example.notes': local('notes'), 'example.calculate': { handler: () => import('./calculate.js').then((m) => m.calculate) } },
  datasets: [],
  renderers: { 'example.notes': () => import('./renderers.js').then((m) => m.notesView) },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'example', load: () => import('./commands.js').then((m) => m.register) },
  // a section of the area profile, for the shared tests of its machinery (test/kit/area-section.test.ts)
  area: [{ name: 'example', order: 1000, load: () => import('./area-section.js').then((m) => m.section) }],
});
