/**
 * What the server decides from the route table alone: which hosts count as loopback, the methods on a
 * path (Allow, OPTIONS), which routes' answers may be cached, and the datasets a route queues on.
 */
import type { HttpMethod } from '../contract/types.js';
import { matchRoute, type Route } from '../registry.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
/** A loopback host: serving it needs no --keys. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Routes whose answers can be cached: a local handler that reads no mirror dataset, not even optionally. */
export function cacheable(route: Route): boolean {
  return !route.local?.datasets?.length && !route.local?.optionalDatasets?.length;
}

/** gateKeys once per route (the route table is fixed for the process; asked on every request). */
const gateKeysOf = new WeakMap<Route, readonly string[]>();

/**
 * The datasets a route's executions queue on: every mirror file it reads, required or optional, sorted so
 * that every route takes its slots in the same order (no two requests each hold a slot the other waits for).
 */
export function gateKeys(route: Route): readonly string[] {
  let keys = gateKeysOf.get(route);
  if (!keys) {
    keys = [...new Set([...(route.local?.datasets ?? []), ...(route.local?.optionalDatasets ?? [])].map((d) => d.name))].sort();
    gateKeysOf.set(route, keys);
  }
  return keys;
}

/** Methods available on a path (for Allow and OPTIONS), or undefined when no route has the path. */
export function methodsOf(path: string): string[] | undefined {
  const methods = new Set<string>();
  for (const m of ['GET', 'POST'] as HttpMethod[]) {
    try {
      matchRoute(m, path);
      methods.add(m);
    } catch {
      /* not this method */
    }
  }
  if (methods.size === 0) return undefined;
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods];
}
