/**
 * The v1 route table: every endpoint of the three spec documents, with the optional `/{tax_year}` forms.
 * Matching prefers literal segments to `{param}` segments, so `/v1/tax/years/current` and
 * `/v1/property/price-paid/statistics` are never taken for ids.
 */
import { ApiError } from '../errors.js';
import type { RouteSpec } from '../route.js';
import type { HttpMethod } from '../types.js';
import { matchPath } from '../validate.js';
import { calendarRoutes } from './calendar.js';
import { companiesRoutes } from './companies.js';
import { propertyRoutes } from './property.js';
import { taxRoutes } from './tax.js';
import { vehiclesRoutes } from './vehicles.js';

export const ROUTES: readonly RouteSpec[] = [
  ...propertyRoutes,
  ...companiesRoutes,
  ...taxRoutes,
  ...vehiclesRoutes,
  ...calendarRoutes,
];

const BY_ID = new Map(ROUTES.map((r) => [r.id, r]));

export function routeById(id: string): RouteSpec {
  const r = BY_ID.get(id);
  if (!r) throw new Error(`unknown route id ${id}`);
  return r;
}

/** Count of `{param}` segments: fewer wins when two patterns match. */
function specificity(r: RouteSpec): number {
  return (r.path.match(/\{/g) ?? []).length;
}

export interface Match {
  route: RouteSpec;
  pathValues: Record<string, string>;
}

/** Normalise a user path: add `/v1` when missing, drop a trailing slash. */
export function normalisePath(p: string): string {
  let path = p.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  if (!path.startsWith('/v1/') && path !== '/v1') path = `/v1${path}`;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

export function matchRoute(method: HttpMethod, path: string): Match {
  let best: Match | undefined;
  let otherMethod = false;
  for (const route of ROUTES) {
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
}
