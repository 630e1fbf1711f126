/**
 * The registry: every domain, one line each. The route table with each route's local handler, the
 * dataset catalogue (src/mirror/catalog.ts), the sync modules (src/sync-runner.ts) and the renderers all
 * derive from the domains loaded. Adding a domain = its folder src/domains/<domain>/ with an index.ts
 * manifest (which declares itself with declareDomain), and one line here.
 *
 * A domain's manifest (route specs and dataset facts) is imported when first needed, not at start-up:
 * `publicdata tax take-home` loads the tax manifest only (src/cli.ts), every other entry point (serve,
 * api, sync, mirror, sql, help, completion) loads them all with `loadDomains()`, and a call to a route of
 * a domain not loaded yet (a command of one domain calling another's route through `execute`) loads it
 * first (`matchLoading`). The lists below (DOMAINS, ROUTES, DATASETS, ...) are live bindings, refilled as
 * domains load: read them after the `await` that loaded what you need. Handlers, sync modules and
 * renderers stay imported on first use.
 */
import type { RouteSpec } from './contract/route.js';
import { createRouter, type Match } from './contract/router.js';
import { withVocabularies } from './contract/vocabulary.js';
import type { HttpMethod } from './contract/types.js';
import { schemaBranches, type JsonSchema, type ResponseSchema } from './contract/schema.js';
import type { DatasetEntry, DocumentValidator, DomainManifest, LocalSpec, RendererRef } from './domains/manifest.js';
import type { DatasetInfo } from './mirror/catalog.js';
import { commandGroups, declaredCount, declaredDomains } from './domains/manifest.js';

export { commandGroups };

interface DomainLine {
  name: string;
  /** The manifest module (it declares the domain when imported). */
  load: () => Promise<unknown>;
  /** The CLI's top-level words for the domain's command groups (the manifest's `commands`; default: its name). */
  words?: readonly string[];
  /**
   * What needs every domain loaded, not just this one: CLI words and route ids (the postcodes domain's
   * area profile composes a section from each domain; its postcode lookups need none of them).
   */
  all?: { words: readonly string[]; routes: readonly string[] };
}

// The domains: one line each; their order is the order of the lists.
const LINES: readonly DomainLine[] = [
  { name: 'property', load: () => import('./domains/property/index.js') },
  { name: 'companies', load: () => import('./domains/companies/index.js') },
  { name: 'tax', load: () => import('./domains/tax/index.js') },
  { name: 'vehicles', load: () => import('./domains/vehicles/index.js') },
  { name: 'calendar', load: () => import('./domains/calendar/index.js') },
  { name: 'schools', load: () => import('./domains/schools/index.js') },
  { name: 'energy', load: () => import('./domains/energy/index.js') },
  { name: 'earnings', load: () => import('./domains/earnings/index.js') },
  { name: 'food-hygiene', load: () => import('./domains/food-hygiene/index.js') },
  { name: 'crime', load: () => import('./domains/crime/index.js') },
  { name: 'postcodes', load: () => import('./domains/postcodes/index.js'), words: ['postcode', 'area'], all: { words: ['area'], routes: ['area.profile'] } },
];

/** The registered domains' names, in registry order (loaded or not). */
export const DOMAIN_NAMES: readonly string[] = LINES.map((l) => l.name);

/**
 * The domains whose command group a top-level CLI word names ([] when it is no domain's: the CLI's own),
 * or every domain for a word whose commands need them all (`area`).
 */
export function domainsOfWord(word: string): string[] {
  if (LINES.some((l) => l.all?.words.includes(word))) return [...DOMAIN_NAMES];
  return LINES.filter((l) => (l.words ?? [l.name]).includes(word)).map((l) => l.name);
}

/** Whether a route needs every domain loaded (the area profile). */
const needsAll = (id: string) => LINES.some((l) => l.all?.routes.includes(id));

const loading = new Map<string, Promise<unknown>>();
/** The registered domains whose manifest has loaded. */
const loaded = new Set<string>();

/** Load the named domains' manifests (every domain without `names`), then refill the lists. Loading twice is free. */
export async function loadDomains(names?: readonly string[]): Promise<void> {
  const lines = names ? LINES.filter((l) => names.includes(l.name)) : LINES;
  await Promise.all(
    lines.map((l) => {
      let p = loading.get(l.name);
      if (!p) loading.set(l.name, (p = l.load().then(() => void loaded.add(l.name))));
      return p;
    }),
  );
  refresh();
}

/** Whether every registered domain's manifest has loaded. */
const allLoaded = () => loaded.size === LINES.length;

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

/** The declared domains (the registered ones loaded so far, and any a test declares), in registry order. */
export let DOMAINS: readonly DomainManifest[] = [];
/** The routes of the domains loaded, in registry order. */
export let ROUTES: readonly Route[] = [];
/** Every loaded domain's datasets (catalogue entry and lazy sync module), in registry order. */
export let DATASET_ENTRIES: readonly DatasetEntry[] = [];
/** The catalogue: every loaded mirror dataset's facts, in registry order (what `mirror status`, `sql`, `serve` list). */
export let DATASETS: readonly DatasetInfo[] = [];

const routesOf = new WeakMap<DomainManifest, readonly Route[]>();
let router = createRouter(ROUTES);

/**
 * Refill the lists from the declared manifests, when a domain was declared since the last time: at import
 * (a test's example domain is declared first) and after every load, never per call (serve matches a
 * route per request).
 */
function refresh(): void {
  if (declaredCount() === DOMAINS.length) return;
  const declared = declaredDomains();
  // one declared without a line here (a test's example domain) first, as it is declared before any loads
  const rank = (d: DomainManifest) => LINES.findIndex((l) => l.name === d.name);
  DOMAINS = [...declared].sort((a, b) => rank(a) - rank(b));
  for (const d of DOMAINS) {
    // the CLI picks the domain to load by its line's words before the manifest is read: they must agree
    const line = LINES.find((l) => l.name === d.name);
    const words = commandGroups(d).map((g) => g.name);
    if (line && words.length && words.join(' ') !== (line.words ?? [line.name]).join(' '))
      throw new Error(`domain ${d.name}: its command groups are ${words.join(', ')} but its registry line gives ${(line.words ?? [line.name]).join(', ')}`);
  }
  ROUTES = DOMAINS.flatMap((d) => {
    let rs = routesOf.get(d);
    if (!rs) routesOf.set(d, (rs = d.routes.map((r) => withLocal(d, checked(d, r)))));
    return rs;
  });
  router = createRouter(ROUTES);
  DATASET_ENTRIES = DOMAINS.flatMap((d) => d.datasets);
  DATASETS = DATASET_ENTRIES.map((e) => e.info);
}
refresh();

/** The route of a call among the domains loaded (404/405 as the router answers). */
export function matchRoute(method: HttpMethod, path: string): Match<Route> {
  return router.match(method, path);
}

/**
 * The route of a call, loading its domain first when it is none of the loaded ones' (a command of one
 * domain calling another's route: `tax take-home --rank` calls earnings), and every domain for the area
 * profile or a path no single domain answers.
 */
export async function matchLoading(method: HttpMethod, path: string): Promise<Match<Route>> {
  if (allLoaded()) return matchRoute(method, path);
  const loadedMatch = () => {
    try {
      const m = matchRoute(method, path);
      return needsAll(m.route.id) ? undefined : m;
    } catch {
      return undefined; // none of the loaded domains' routes
    }
  };
  let m = loadedMatch();
  if (m) return m;
  // A domain's routes sit under /v1/<its name>/ (`take-home --rank` calls /v1/earnings/percentile): that
  // domain first, then every domain for a path of none (the area profile's /v1/area/) or a route it lacks.
  const word = /^\/v\d+\/([^/?#]+)/.exec(path)?.[1];
  if (word !== undefined && DOMAIN_NAMES.includes(word) && !loaded.has(word)) {
    await loadDomains([word]);
    if ((m = loadedMatch())) return m;
  }
  await loadDomains();
  return matchRoute(method, path);
}

/** The registered domains whose manifest has loaded, in registry order. */
export function loadedDomains(): string[] {
  return DOMAIN_NAMES.filter((n) => loaded.has(n));
}

export function routeById(id: string): Route {
  return router.byId(id);
}

/** A route by id, loading its domain first (the id's first word names it; every domain for the area profile or another id). */
export async function routeByIdLoading(id: string): Promise<Route> {
  const prefix = id.split('.')[0]!;
  await loadDomains(needsAll(id) || !DOMAIN_NAMES.includes(prefix) ? undefined : [prefix]);
  try {
    return routeById(id);
  } catch {
    await loadDomains();
    return routeById(id);
  }
}

/** The domains' terminal renderers for an answer id (a route id, or a command id such as tax.take-home.sweep). */
export function renderersFor(id: string): readonly RendererRef[] {
  return DOMAINS.flatMap((d) => (d.renderers?.[id] ? [d.renderers[id]] : []));
}

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
