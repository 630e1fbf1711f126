/**
 * What a domain plugs into the registry (src/registry.ts): its routes (the pure specs from
 * src/contract/routes/<domain>.ts), the local handler of each route it answers offline (imported only
 * when called) with the mirror datasets that handler reads, the datasets it owns (catalogue entry and
 * lazily imported sync module) and, optionally, terminal renderers by route id.
 *
 * Importing a manifest must stay cheap: no handler, sync module, DuckDB or undici at import time.
 */
import type { RouteSpec, ValueResolver } from '../contract/route.js';
import type { ResponseSchemas } from '../contract/schema.js';
import type { ErrorDetail, Handler } from '../contract/types.js';
import type { DatasetInfo } from '../mirror/catalog.js';
import type { DatasetModule } from '../../sync/types.js';
import type { RendererRef } from '../output/types.js';
import type { CommandGroup } from './command-kit.js';
import type { AreaSectionDecl } from './area-section.js';

export interface LocalSpec {
  /** The handler, imported only when the route is called locally. */
  handler: () => Promise<Handler>;
  /** Mirror datasets the handler reads (none for calculators and shipped reference data). */
  datasets?: readonly DatasetInfo[];
  /**
   * Datasets the handler reads when they are synced, answering from shipped data otherwise (the
   * calendar: the synced bank holidays, else the snapshot in data/; PSC answers: register names from
   * `companies`). Not required for a local answer (never dataset_not_synced); `serve` queues the route
   * on them as on `datasets`.
   * A route with neither `datasets` nor `optionalDatasets` reads no mirror file: its answer depends only
   * on the request, the shipped data and the date, and `serve` caches it (docs/serve.md).
   */
  optionalDatasets?: readonly DatasetInfo[];
}

/** The mirror datasets a handler reads: required (`datasets`) and read when synced (`optionalDatasets`). */
export interface Reads {
  datasets?: readonly DatasetInfo[];
  optionalDatasets?: readonly DatasetInfo[];
}

/** The names a module exports handlers under. */
export type HandlerName<M> = { [K in keyof M]: M[K] extends Handler ? K : never }[keyof M] & string;

/**
 * The one way a domain builds its LocalSpec entries: `handlers(load, reads)` for a lazily imported module
 * of handlers and the datasets they read gives `local(pick, more?)`, where `pick` names an export (or
 * picks one, say from a factory) and `more` replaces any of `reads` for that route. An empty list is
 * the same as none.
 *
 *   const local = handlers(() => import('./handlers.js'), { datasets: [CRIME_INFO] });
 *   'crime.street': local('street'), 'crime.categories': local('categories', { datasets: [] }),
 */
export function handlers<M>(load: () => Promise<M>, reads: Reads = {}): (pick: HandlerName<M> | ((m: M) => Handler), more?: Reads) => LocalSpec {
  return (pick, more = {}) => {
    const r = { ...reads, ...more };
    return {
      handler: () => load().then((m) => (typeof pick === 'function' ? pick(m) : (m[pick] as Handler))),
      ...(r.datasets?.length ? { datasets: r.datasets } : {}),
      ...(r.optionalDatasets?.length ? { optionalDatasets: r.optionalDatasets } : {}),
    };
  };
}

/**
 * A whole-document body validator (routes with `bodyDocument`, e.g. the VAT return): every failure at
 * once as details[] (answered 400 VALIDATION_ERROR), else the checked document the handler works on.
 * Run by src/runner.ts (`prepare`, `requestForBody`) before any backend is chosen, so a bad document never
 * reaches the live API.
 *
 * It must refuse every key it does not declare, at every depth, and every value of a type it does not
 * take (never ignore one): a document it accepts then has no `__proto__`, `constructor` or `prototype`
 * key anywhere, and the runner walks the body for them only when the document is refused (src/runner.ts;
 * test/tax/vat-return/unsafe-keys.test.ts holds the VAT return to it).
 */
export type DocumentValidator = (body: unknown) => { ok: true; document: unknown } | { ok: false; details: ErrorDetail[] };

export interface DatasetEntry {
  /** Static facts (file, publisher, licence, size, cadence): read by handlers and `mirror status`. */
  info: DatasetInfo;
  /** The sync module, imported only by `publicdata sync`. */
  sync: () => Promise<DatasetModule>;
}

export type { RendererRef } from '../output/types.js';

export interface DomainManifest {
  name: string;
  routes: readonly RouteSpec[];
  /** Route id -> local handler and the datasets it reads. Routes not listed are answered live only. */
  local: Readonly<Record<string, LocalSpec>>;
  datasets: readonly DatasetEntry[];
  /** Route id -> its body-document validator (imported when first needed). */
  documents?: Readonly<Record<string, () => Promise<DocumentValidator>>>;
  /** Route id -> terminal renderer(s) for the table format (optional). */
  renderers?: Readonly<Record<string, RendererRef>>;
  /**
   * Vocabulary name -> its resolver for this domain's parameters that take it (`vocabulary: 'region'` in a
   * route spec): the shared region vocabulary mapped onto the domain's own values (src/reference/regions.ts,
   * built lazily: its data is read on the first value resolved). The registry attaches it to the parameters.
   */
  vocabularies?: Readonly<Record<string, ValueResolver>>;
  /**
   * Route id -> the response schema transcribed from the spec (src/domains/<d>/schemas.ts, imported when
   * the OpenAPI document is built): every route of the domain has one.
   */
  responses?: () => Promise<ResponseSchemas>;
  /**
   * The friendly command group(s) (`publicdata <name> ...`), registered lazily through the CLI's kit (the
   * postcodes domain has two words: `postcode` and `area`).
   */
  commands?: CommandGroup | readonly CommandGroup[];
  /**
   * The domain's section(s) of the area profile (`GET /v1/area/{postcode}`, src/domains/area-section.ts):
   * name, order and the lazily imported section module, built through its own routes. The postcodes
   * domain composes what the registry declares; a domain without a section here has none.
   */
  area?: readonly AreaSectionDecl[];
}

const declared: DomainManifest[] = [];

/**
 * A domain's index.ts declares its manifest here when src/registry.ts loads it, so registering a domain
 * is that one line there; the registry's DOMAINS are the declared manifests in the order of its lines (only
 * the registry imports a domain's index.ts: test/cli/registry.test.ts). A name declared twice is an error.
 */
export function declareDomain(m: DomainManifest): DomainManifest {
  if (declared.some((d) => d.name === m.name)) throw new Error(`domain '${m.name}' declared twice`);
  declared.push(m);
  return m;
}

/** The manifests declared so far, in declaration order. */
export function declaredDomains(): readonly DomainManifest[] {
  return [...declared];
}

/** How many manifests are declared so far (the registry refills its lists when this grows). */
export function declaredCount(): number {
  return declared.length;
}

/** Every declared area section, in its `order` (then name): the sections of `/v1/area/{postcode}`. */
export function areaSections(): readonly AreaSectionDecl[] {
  return declared.flatMap((d) => d.area ?? []).sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

/** A manifest's command groups as a list. */
export function commandGroups(m: Pick<DomainManifest, 'commands'>): readonly CommandGroup[] {
  return m.commands === undefined ? [] : Array.isArray(m.commands) ? m.commands : [m.commands as CommandGroup];
}
