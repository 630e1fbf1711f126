/**
 * The registry: every domain, one line each. The route table with each route's local handler, the
 * dataset catalogue (src/mirror/catalog.ts), the sync modules (src/sync-runner.ts) and the renderers all
 * derive from this list. Adding a domain = its folder src/domains/<domain>/ with an index.ts manifest
 * (which declares itself with declareDomain), and one import line here.
 *
 * Importing this module loads only the manifests (route specs and dataset facts): handlers, sync
 * modules and renderers are imported when first used.
 */
import type { RouteSpec } from './contract/route.js';
import { createRouter, type Match } from './contract/router.js';
import { withVocabularies } from './contract/vocabulary.js';
import type { HttpMethod } from './contract/types.js';
import { schemaBranches, type JsonSchema, type ResponseSchema } from './contract/schema.js';
import type { DatasetEntry, DocumentValidator, DomainManifest, LocalSpec, RendererRef } from './domains/manifest.js';
import type { DatasetInfo } from './mirror/catalog.js';
import { commandGroups, declaredDomains } from './domains/manifest.js';

export { commandGroups };
// The domains: one line each (each index.ts declares its manifest); their order is the order of the lists.
import './domains/property/index.js';
import './domains/companies/index.js';
import './domains/tax/index.js';
import './domains/vehicles/index.js';
import './domains/calendar/index.js';
import './domains/schools/index.js';
import './domains/energy/index.js';
import './domains/earnings/index.js';
import './domains/food-hygiene/index.js';
import './domains/crime/index.js';
import './domains/postcodes/index.js';

export const DOMAINS: readonly DomainManifest[] = declaredDomains();

/** A route of the table: its pure spec, plus the local handler when its domain answers it offline. */
export interface Route extends RouteSpec {
  local?: LocalSpec;
  /** The body-document validator (bodyDocument routes), run before any backend is chosen. */
  document?: () => Promise<DocumentValidator>;
}

function withLocal(d: DomainManifest, spec: RouteSpec): Route {
  // a parameter taking a shared vocabulary (a region) gets the domain's resolver (src/contract/vocabulary.ts)
  const r = withVocabularies(spec, d.vocabularies);
  const local = d.local[r.id];
  const document = d.documents?.[r.id];
  // the runner leaves a document's unsafe-key check to its validator (src/domains/manifest.ts DocumentValidator)
  if (r.bodyDocument && !document) throw new Error(`route ${r.id} has bodyDocument but its domain declares no document validator for it`);
  if (!local && !document) return r;
  return { ...r, ...(local ? { local } : {}), ...(document ? { document } : {}) };
}

/** A route must name the domain that declares it (Domain is a string: the registry is the list). */
function checked(d: DomainManifest, r: RouteSpec): RouteSpec {
  if (r.domain !== d.name) throw new Error(`route ${r.id} says domain '${r.domain}' but is declared by '${d.name}'`);
  return r;
}

export const ROUTES: readonly Route[] = DOMAINS.flatMap((d) => d.routes.map((r) => withLocal(d, checked(d, r))));

const router = createRouter(ROUTES);

export function matchRoute(method: HttpMethod, path: string): Match<Route> {
  return router.match(method, path);
}

export function routeById(id: string): Route {
  return router.byId(id);
}

/** The domains' terminal renderers for an answer id (a route id, or a command id such as tax.take-home.sweep). */
export function renderersFor(id: string): readonly RendererRef[] {
  return DOMAINS.flatMap((d) => (d.renderers?.[id] ? [d.renderers[id]] : []));
}

/** Every domain's datasets (catalogue entry and lazy sync module), in registry order. */
export const DATASET_ENTRIES: readonly DatasetEntry[] = DOMAINS.flatMap((d) => d.datasets);

/** The catalogue: every mirror dataset's facts, in registry order (what `mirror status`, `sql`, `serve` list). */
export const DATASETS: readonly DatasetInfo[] = DATASET_ENTRIES.map((e) => e.info);

/** A dataset by its name (as typed on the command line), or undefined. */
export function datasetByName(name: string): DatasetInfo | undefined {
  return DATASETS.find((d) => d.name === name);
}

/** Every route's response schema (the domains' schemas.ts, imported on first call): route id -> schema. */
export async function loadResponseSchemas(): Promise<ReadonlyMap<string, ResponseSchema>> {
  const all = await Promise.all(DOMAINS.map(async (d) => Object.entries((await d.responses?.()) ?? {})));
  const out = new Map<string, ResponseSchema>();
  for (const [id, s] of all.flat()) {
    if (!ROUTES.some((r) => r.id === id)) throw new Error(`response schema for unknown route ${id}`);
    out.set(id, s);
  }
  return out;
}

const oneOrUnion = (xs: JsonSchema[]): JsonSchema | undefined => (xs.length > 1 ? { anyOf: xs } : xs[0]);

async function dataSchemaOf(route: RouteSpec): Promise<JsonSchema | undefined> {
  const d = DOMAINS.find((x) => x.name === route.domain);
  return (await d?.responses?.())?.[route.id]?.data;
}

/**
 * The published schema of one record of a route's answer (its domain's response schemas, imported on
 * first use): the items of `data` when it is a list, else of `data.<route.records>` (through nullable
 * or alternative objects); undefined when the route answers no record list or has no schema. The CSV
 * writer takes its columns from it.
 */
export async function recordSchemaFor(route: RouteSpec): Promise<JsonSchema | undefined> {
  let s = await dataSchemaOf(route);
  if (s && !schemaBranches(s).some((b) => b.type === 'array') && route.records) {
    for (const k of route.records.split('.')) {
      s = s && oneOrUnion(schemaBranches(s).flatMap((b) => ((b.properties as Record<string, JsonSchema> | undefined)?.[k] ? [(b.properties as Record<string, JsonSchema>)[k]!] : [])));
    }
  }
  return oneOrUnion((s ? schemaBranches(s) : []).flatMap((b) => (b.type === 'array' && b.items ? [b.items as JsonSchema] : [])));
}

/** The published schema of a route's `data` when it is one object, or alternatives of objects (no record list): its CSV is one row. */
export async function objectSchemaFor(route: RouteSpec): Promise<JsonSchema | undefined> {
  if (route.records) return undefined;
  const s = await dataSchemaOf(route);
  const objects = s ? schemaBranches(s) : [];
  return objects.length && objects.every((b) => b.type === 'object' && b.properties) ? oneOrUnion(objects) : undefined;
}
