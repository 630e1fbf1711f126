/**
 * The registry: every domain, one line each. The route table with each route's local handler, the
 * dataset catalogue (src/mirror/catalog.ts), the sync modules (sync/registry.ts) and the renderers all
 * derive from this list. Adding a domain = its folder src/domains/<domain>/ with an index.ts manifest,
 * and one line here.
 *
 * Importing this module loads only the manifests (route specs and dataset facts): handlers, sync
 * modules and renderers are imported when first used.
 */
import type { RouteSpec } from './contract/route.js';
import { createRouter, type Match } from './contract/router.js';
import type { HttpMethod } from './contract/types.js';
import type { DatasetEntry, DocumentValidator, DomainManifest, LocalSpec, RendererRef } from './domains/manifest.js';
import { manifest as property } from './domains/property/index.js';
import { manifest as companies } from './domains/companies/index.js';
import { manifest as tax } from './domains/tax/index.js';
import { manifest as vehicles } from './domains/vehicles/index.js';
import { manifest as calendar } from './domains/calendar/index.js';
import { manifest as crime } from './domains/crime/index.js';

export const DOMAINS: readonly DomainManifest[] = [property, companies, tax, vehicles, calendar, crime];

/** A route of the table: its pure spec, plus the local handler when its domain answers it offline. */
export interface Route extends RouteSpec {
  local?: LocalSpec;
  renderer?: RendererRef;
  /** The body-document validator (bodyDocument routes), run before any backend is chosen. */
  document?: () => Promise<DocumentValidator>;
}

function withLocal(d: DomainManifest, r: RouteSpec): Route {
  const local = d.local[r.id];
  const renderer = d.renderers?.[r.id];
  const document = d.documents?.[r.id];
  if (!local && !renderer && !document) return r;
  return { ...r, ...(local ? { local } : {}), ...(renderer ? { renderer } : {}), ...(document ? { document } : {}) };
}

export const ROUTES: readonly Route[] = DOMAINS.flatMap((d) => d.routes.map((r) => withLocal(d, r)));

const router = createRouter(ROUTES);

export function matchRoute(method: HttpMethod, path: string): Match<Route> {
  return router.match(method, path);
}

export function routeById(id: string): Route {
  return router.byId(id);
}

/** Every domain's datasets (catalogue entry and lazy sync module), in registry order. */
export const DATASET_ENTRIES: readonly DatasetEntry[] = DOMAINS.flatMap((d) => d.datasets);
