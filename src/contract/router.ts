/**
 * Matching a call's method and path to a route of a route table. Matching prefers literal segments to
 * `{param}` segments, so `/v1/tax/years/current` and `/v1/property/price-paid/statistics` are never taken
 * for ids. The table itself is assembled by the registry (src/registry.ts) from the domains' route specs.
 */
import { ApiError } from './errors.js';
import type { RouteSpec } from './route.js';
import type { HttpMethod } from './types.js';

export interface Match<R extends RouteSpec = RouteSpec> {
  route: R;
  pathValues: Record<string, string>;
}

export interface Router<R extends RouteSpec = RouteSpec> {
  routes: readonly R[];
  /** The route for a method and concrete path; ApiError 404 not_found or 405 method_not_allowed. */
  match(method: HttpMethod, path: string): Match<R>;
  /** The route with this id; a plain Error for an unknown id (a programming error). */
  byId(id: string): R;
}

/** Count of `{param}` segments: fewer wins when two patterns match. */
function specificity(r: RouteSpec): number {
  return (r.path.match(/\{/g) ?? []).length;
}

export function createRouter<R extends RouteSpec>(routes: readonly R[]): Router<R> {
  const byId = new Map(routes.map((r) => [r.id, r]));
  if (byId.size !== routes.length) {
    const seen = new Set<string>();
    const dup = routes.find((r) => (seen.has(r.id) ? true : (seen.add(r.id), false)));
    throw new Error(`duplicate route id ${dup?.id}`);
  }
  // Patterns split once, grouped by segment count: a match compares segments of the candidates of the
  // path's length only (this runs on every call; `serve` answers thousands a second).
  interface Compiled {
    route: R;
    segs: string[];
    /** Names of `{param}` segments by index (undefined for literals). */
    params: Array<string | undefined>;
    specificity: number;
  }
  // A path with no `{param}` is the most specific match of its method and path: the first one wins, as in
  // the scan below, which finds it whatever else matches. Made at once (a command's call is usually one).
  const statics = new Map<string, R>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (!route.path.includes('{') && !statics.has(key)) statics.set(key, route);
  }
  // The patterns, compiled on the first path no literal matches (a CLI start usually never needs them).
  let compiled: Map<number, Compiled[]> | undefined;
  const patterns = (): Map<number, Compiled[]> => {
    if (compiled) return compiled;
    compiled = new Map();
    for (const route of routes) {
      const segs = route.path.split('/');
      const params = segs.map((x) => (x.startsWith('{') && x.endsWith('}') ? x.slice(1, -1) : undefined));
      const list = compiled.get(segs.length) ?? [];
      list.push({ route, segs, params, specificity: specificity(route) });
      compiled.set(segs.length, list);
    }
    return compiled;
  };
  function matchCompiled(c: Compiled, xs: string[]): Record<string, string> | null {
    const out: Record<string, string> = {};
    for (let i = 0; i < xs.length; i++) {
      const name = c.params[i];
      const x = xs[i]!;
      if (name !== undefined) {
        if (x === '') return null;
        out[name] = decodeURIComponent(x);
      } else if (c.segs[i] !== x) return null;
    }
    return out;
  }
  return {
    routes,
    byId(id) {
      const r = byId.get(id);
      if (!r) throw new Error(`unknown route id ${id}`);
      return r;
    },
    match(method, path) {
      const literal = statics.get(`${method} ${path}`);
      if (literal) return { route: literal, pathValues: {} };
      let best: { c: Compiled; pathValues: Record<string, string> } | undefined;
      let otherMethod = false;
      const xs = path.split('/');
      for (const c of patterns().get(xs.length) ?? []) {
        const pathValues = matchCompiled(c, xs);
        if (!pathValues) continue;
        if (c.route.method !== method) {
          otherMethod = true;
          continue;
        }
        if (!best || c.specificity < best.c.specificity) best = { c, pathValues };
      }
      if (best) return { route: best.c.route, pathValues: best.pathValues };
      if (otherMethod) throw new ApiError(405, 'method_not_allowed', `${method} is not allowed on ${path}.`);
      throw new ApiError(404, 'not_found', `No route ${method} ${path}. See 'publicdata api --list'.`);
    },
  };
}

/** Normalise a user path: add `/v1` when missing, drop a trailing slash. */
export function normalisePath(p: string): string {
  let path = p.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  if (!path.startsWith('/v1/') && path !== '/v1') path = `/v1${path}`;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
