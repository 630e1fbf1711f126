/**
 * `example`, the test-only domain: what the shared tests use as their example, so that removing any real
 * domain leaves them passing (`npm run check:domains`). Importing this module declares it (declareDomain),
 * as src/registry.ts's lines declare the real ones; the production registry never lists it. Every test file
 * has it declared: vitest's setup file (test/support/example-setup.ts) imports this module before the file's
 * own imports, so it is the first domain of the registry the tests see (docs/testing.md). Its mirror
 * datasets (dataset.ts: example-records, example-events, synced by sync.ts on the shared framework) and the
 * routes over them (routes-records.ts) are what the shared sync, mirror, sql and export tests use.
 */
import type { Handler } from '../../../src/contract/types.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../../../src/domains/manifest.js';
import { exampleRoutes } from './routes.js';
import { EVENTS_INFO, exampleDatasets, RECORDS_INFO } from './dataset.js';
import { recordsRoutes } from './routes-records.js';

const local = (name: 'items' | 'item' | 'summary' | 'notes'): LocalSpec => ({
  handler: () => import('./handlers.js').then((m) => m[name] as Handler),
});

export const EXAMPLE_DOMAIN = 'example';

export const manifest: DomainManifest = declareDomain({
  name: EXAMPLE_DOMAIN,
  routes: [...exampleRoutes, ...recordsRoutes],
  local: { 'example.items': local('items'), 'example.item': local('item'), 'example.summary': local('summary'), 'example.notes': local('notes'),
    'example.records': { handler: () => import('./records-handlers.js').then((m) => m.records as Handler), datasets: [RECORDS_INFO] },
    'example.events': { handler: () => import('./records-handlers.js').then((m) => m.events as Handler), datasets: [EVENTS_INFO] },
    'example.calculate': { handler: () => import('./calculate.js').then((m) => m.calculate) },
  },
  datasets: exampleDatasets,
  renderers: { 'example.notes': () => import('./renderers.js').then((m) => m.notesView) },
  responses: () => Promise.all([import('./schemas.js'), import('./schemas-records.js')]).then(([a, b]) => ({ ...a.responses, ...b.recordsResponses })),
  commands: { name: 'example', load: () => import('./commands.js').then((m) => m.register) },
  // a section of the area profile, for the shared tests of its machinery (test/kit/area-section.test.ts)
  area: [{ name: 'example', order: 1000, load: () => import('./area-section.js').then((m) => m.section) }],
});
