/**
 * Matching a call's method and path to a route of a route table. Matching prefers literal segments to
 * `{param}` segments, so `/v1/tax/years/current` and `/v1/property/price-paid/statistics` are never taken
 * for ids. The table itself is assembled by the registry (src/registry.ts) from the domains' route specs.
 */
import { ApiError } from './errors.js';
import type { RouteSpec } from './route.js';
import type { HttpMethod } from './types.js';
import { matchPath } from './validate.js';

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
  return {
    routes,
    byId(id) {
      const r = byId.get(id);
      if (!r) throw new Error(`unknown route id ${id}`);
      return r;
    },
    match(method, path) {
      let best: Match<R> | undefined;
      let otherMethod = false;
      for (const route of routes) {
        const pathValues = matchPath(route.path, path);
        if (!pathValues) continue;
        if (route.method !== method) {
          otherMethod = true;
          continue;
        }
        if (!best || specificity(route) < specificity(best.route)) best = { route, pathValues };
      }
      if (best) return best;
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
