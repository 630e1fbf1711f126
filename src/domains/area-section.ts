/**
 * What a domain plugs into the area profile (`GET /v1/area/{postcode}`, spec 5-places.md, docs/places.md):
 * its section. A manifest declares `area: [{ name, order, load }]` (src/domains/manifest.ts); `load` imports
 * the domain's own section module (`build`, its `figures` schema, its terminal lines), only when the area
 * route runs, renders or its schema is built. The postcodes domain composes whatever sections the registry
 * declares, in `order`, and names none; with a domain removed its section is simply absent (and
 * `sections=` names only the declared ones).
 *
 * A section is built through the handler context's `call` of its own domain's routes (`Calls`): no domain
 * imports another, each sub-call's request path is recorded as the section's `source`, a sub-call answering
 * `dataset_not_synced` makes the section `not_synced` with the sync command the route named.
 */
import { ApiError } from '../contract/errors.js';
import type { JsonSchema } from '../contract/schema.js';
import type { CallResult, HandlerContext, RouteCall } from '../contract/types.js';

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A section's answer: `status` (`ok`, `no_coverage`, `no_location`) and its figures. */
export type SectionAnswer = Record<string, unknown> & { status: string };
type Query = Record<string, string | number | boolean>;

/** A section's data is not synced: the sync command its route named. */
export class NotSynced extends Error {
  constructor(readonly sync: string) {
    super(sync);
  }
}

/** The sub-calls of one section: each GET or POST through ctx.call, its path recorded as a source. */
export class Calls {
  readonly source: string[] = [];
  /** The request paths the area page's map asks for this section's points (`map` of the section). */
  readonly map: MapLayer[] = [];
  asOf: string | null = null;
  constructor(private readonly ctx: HandlerContext) {}

  async run(method: 'GET' | 'POST', path: string, query: Query = {}, body?: unknown): Promise<Json> {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const call: RouteCall = { method, path, query: q, ...(body !== undefined ? { body } : {}) };
    const qs = new URLSearchParams(q).toString();
    this.source.push(`${method === 'POST' ? 'POST ' : ''}${path}${qs ? `?${qs}` : ''}${body !== undefined ? ` ${JSON.stringify(body)}` : ''}`);
    const r: CallResult = await this.ctx.call!(call);
    const env = r.envelope as Json;
    if (r.status >= 400) {
      const code = String(env?.error?.code ?? '');
      const msg = String(env?.error?.message ?? '');
      if (code === 'dataset_not_synced') throw new NotSynced(/'(publicdata sync [\w-]+)'/.exec(msg)?.[1] ?? 'publicdata sync');
      throw new ApiError(r.status, code || 'internal_error', msg);
    }
    const a = env?.meta?.as_of;
    if (typeof a === 'string' && (this.asOf === null || a > this.asOf)) this.asOf = a;
    return env;
  }
  get(path: string, query: Query = {}): Promise<Json> {
    return this.run('GET', path, query);
  }
  /** Every record of a paged list (100 a page). */
  async all(path: string, query: Query = {}): Promise<{ records: Json[]; first: Json }> {
    const first = await this.get(path, { ...query, per_page: 100, page: 1 });
    const records = [...(first.data as Json[])];
    const pages = Number(first.pagination?.total_pages ?? 1);
    for (let p = 2; p <= pages; p++) records.push(...((await this.get(path, { ...query, per_page: 100, page: p })).data as Json[]));
    return { records, first };
  }
  /**
   * A point layer of the area page's map: the request path(s), without paging, whose records the map draws
   * (the page and `area --html` ask each page of them). The section answer carries them as `map`. `clip`:
   * the requests read more than the circle (the road safety section's authority), the map keeps the
   * records inside it.
   */
  mapLayer(layer: string, path: string, query: Query = {}, clip = false): void {
    const qs = new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]))).toString();
    const p = `${path}${qs ? `?${qs}` : ''}`;
    const l = this.map.find((x) => x.layer === layer);
    if (!l) this.map.push({ layer, paths: [p], ...(clip ? { clip } : {}) });
    else if (!l.paths.includes(p)) l.paths.push(p);
  }
}

/** A point layer of the area page's map, as a section answer's `map` lists it. */
export interface MapLayer {
  layer: string;
  paths: string[];
  clip?: boolean;
}

/** The country facts of data/postcodes/reference.json (bank-holiday division, tax region, price cap). */
export interface CountryFacts {
  name?: string;
  division?: string | null;
  tax_region?: string | null;
  price_cap?: boolean;
}

/** The place a section is built for: the postcode record and the request's circle and months. */
export interface Place {
  /** The postcode record of /v1/postcodes/{postcode}. */
  pc: Json;
  /** Its location, or null (no grid reference: the radius sections answer `no_location`). */
  lat: number | null;
  lng: number | null;
  radius: number;
  months: number;
  /** The handler's clock, YYYY-MM-DD. */
  today: string;
  /** The facts the postcodes domain's reference data gives for the postcode's country (null: none). */
  country: CountryFacts | null;
}

/** A section's module, in the owning domain's folder (e.g. src/domains/crime/area-section.ts). */
export interface AreaSectionModule {
  /** The section's answer, built through `c` (its own domain's routes); throws NotSynced when its data is not synced. */
  build(c: Calls, p: Place): Promise<SectionAnswer>;
  /** The response schema of an `ok` answer's figures (status, as_of, source, map and note are added by the area route). */
  figures: Record<string, JsonSchema>;
  /** Figures that may be absent. */
  optional?: readonly string[];
  /** The terminal report's lines of an `ok` answer (under the section's heading), each at most `width`. */
  render(s: Json, width: number): string[];
}

/** A section as a manifest declares it. */
export interface AreaSectionDecl {
  /** The section's key in `sections` (spec 5-places.md), e.g. `crime`, `food_hygiene`. */
  name: string;
  /** Its place in the answer (the spec's order: property 10, crime 20, … calendar 100). */
  order: number;
  load: () => Promise<AreaSectionModule>;
}

// ---- helpers the sections share ----

/** YYYY-MM minus n months. */
export function monthMinus(ym: string, n: number): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  const t = y * 12 + (m - 1) - n;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;
}
/** The last day of a month, YYYY-MM-DD. */
export function lastDay(ym: string): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}
export const countBy = (xs: readonly string[]): Record<string, number> => {
  const o: Record<string, number> = {};
  for (const x of xs) o[x] = (o[x] ?? 0) + 1;
  return o;
};
export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The answer of a radius section for a postcode without a grid reference. */
export function noLocation(): SectionAnswer {
  return { status: 'no_location', note: 'The directory has no grid reference for this postcode (quality 9): there is no point to draw a circle around.' };
}

// ---- terminal helpers ----

const BARS = '▁▂▃▄▅▆▇█';
/** One character per value, scaled from zero to the maximum. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 ? BARS[0] : BARS[Math.min(7, Math.round((v / max) * 7))])).join('');
}
export const money = (n: unknown) => (typeof n === 'number' ? `£${n.toLocaleString('en-GB', { maximumFractionDigits: 2 })}` : 'n/a');
export const num = (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en-GB') : 'n/a');
export const cut = (s: string, w: number) => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s);
/** Aligned `label  value` lines. */
export function rows(pairs: ReadonlyArray<[string, string]>, width: number): string[] {
  const k = Math.min(28, Math.max(...pairs.map(([a]) => a.length), 0));
  return pairs.map(([a, b]) => cut(`  ${cut(a, k).padEnd(k)}  ${b}`, width));
}
