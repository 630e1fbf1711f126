/**
 * Shared vocabularies on route parameters (issue 37: one region vocabulary accepted everywhere). A route
 * spec marks a parameter `vocabulary: 'region'` (pure data); the domain's manifest declares the resolver
 * (built from data/ by src/reference/); the registry attaches it (`withVocabularies`), validation applies
 * it before the parameter's other checks (src/contract/validate.ts), and the live backend sends the
 * resolved value rather than the one typed (`wireValues`), so the published API receives the value it
 * documents (`north_west`, `E12000002`, `scotland`), never "North West" it may not know.
 */
import type { ParamSpec, RouteSpec, ValueResolver } from './route.js';

type Resolvers = Readonly<Record<string, ValueResolver>>;

function attach(specs: readonly ParamSpec[] | undefined, resolvers: Resolvers, routeId: string): ParamSpec[] | undefined {
  if (!specs) return undefined;
  return specs.map((s) => {
    const fields = s.fields ? attach(s.fields, resolvers, routeId) : undefined;
    if (s.vocabulary === undefined) return fields ? { ...s, fields } : s;
    const resolve = resolvers[s.vocabulary];
    if (!resolve) throw new Error(`route ${routeId}: parameter '${s.name}' takes the '${s.vocabulary}' vocabulary, which its manifest does not resolve`);
    return { ...s, ...(fields ? { fields } : {}), resolve };
  });
}

/** Whether any parameter of a list (nested fields included) takes a vocabulary. */
function usesVocabulary(specs: readonly ParamSpec[] | undefined): boolean {
  return (specs ?? []).some((s) => s.vocabulary !== undefined || usesVocabulary(s.fields));
}

/**
 * The route with each vocabulary parameter's resolver attached (query, body and nested body fields); the
 * route itself when none takes one. A parameter whose vocabulary the manifest does not resolve is an error
 * when the registry is built (a spec that promises what no code does).
 */
export function withVocabularies<R extends RouteSpec>(route: R, resolvers: Resolvers | undefined): R {
  if (!usesVocabulary(route.query) && !usesVocabulary(route.body)) return route;
  const r = resolvers ?? {};
  return { ...route, query: attach(route.query, r, route.id), body: attach(route.body, r, route.id) };
}

function wireObject(specs: readonly ParamSpec[], raw: Record<string, unknown>, done: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const s of specs) {
    const typed = raw[s.name];
    let v: unknown = typed;
    if (s.resolve && typeof typed === 'string' && typeof done[s.name] === 'string') v = done[s.name];
    else if (s.fields && typed && typeof typed === 'object' && !Array.isArray(typed) && done[s.name] && typeof done[s.name] === 'object') {
      v = wireObject(s.fields, typed as Record<string, unknown>, done[s.name] as Record<string, unknown>);
    }
    if (v !== typed) (out ??= { ...raw })[s.name] = v;
  }
  return out ?? raw;
}

/**
 * The query and body to send the live API: as typed, except that a vocabulary parameter carries its
 * resolved value (`validated`: the prepared request). Everything else is sent exactly as given.
 */
export function wireValues(
  route: RouteSpec,
  query: Record<string, string | string[]>,
  body: unknown,
  validated: { query: Record<string, unknown>; body: unknown },
): { query: Record<string, string | string[]>; body: unknown } {
  const q = route.query && usesVocabulary(route.query) ? (wireObject(route.query, query, validated.query) as Record<string, string | string[]>) : query;
  const b = route.body && usesVocabulary(route.body) && body && typeof body === 'object' && !Array.isArray(body) && validated.body && typeof validated.body === 'object'
    ? wireObject(route.body, body as Record<string, unknown>, validated.body as Record<string, unknown>)
    : body;
  return { query: q, body: b };
}
