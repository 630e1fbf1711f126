/**
 * Validation in one place: path, query and body parameters of a route call are checked and coerced
 * here, before any data or network is touched, producing the spec's error envelope codes.
 */
import { ApiError } from './errors.js';
import type { ParamSpec, RouteSpec } from './route.js';
import { findUnsafeKey, isUnsafeKey, unsafeKeyReason } from './safe-keys.js';
import { UnknownNameError, unknownName } from './unknown-names.js';
import type { HandlerRequest } from './types.js';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const YEAR_RE = /^\d{4}$/;
const INT_RE = /^-?\d+$/;
const NUM_RE = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function isValidDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** `YYYY-YY` where YY is the year after YYYY (e.g. 2025-26, 1999-00). By character codes: batch lines check it per line. */
export function isValidTaxYear(s: string): boolean {
  if (s.length !== 7 || s.charCodeAt(4) !== 45) return false; // '-'
  let start = 0;
  for (let i = 0; i < 4; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    start = start * 10 + d;
  }
  const d1 = s.charCodeAt(5) - 48;
  const d2 = s.charCodeAt(6) - 48;
  if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return false;
  return (start + 1) % 100 === d1 * 10 + d2;
}

type Where = 'path' | 'query' | 'body';

function fail(spec: ParamSpec, where: Where, message: string): never {
  const code = spec.error ?? (where === 'body' ? 'bad_request' : 'invalid_parameter');
  const status =
    spec.errorStatus ??
    (code === 'invalid_tax_year' ? 404 : code === 'invalid_type' ? 422 : 400);
  throw new ApiError(status, code, message);
}

function describe(where: Where, name: string): string {
  return where === 'body' ? `field '${name}'` : `parameter '${name}'`;
}

/** Coerce a raw query/path string to the spec's type, or throw the spec's error. */
function coerceString(spec: ParamSpec, raw: string, where: Where): unknown {
  switch (spec.type) {
    case 'integer': {
      if (!INT_RE.test(raw.trim())) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${raw}' is not an integer.`);
      // Beyond 2^53 a number is no longer exact (and beyond int64 no database column holds it).
      if (!Number.isSafeInteger(Number(raw))) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${raw}' is out of range.`);
      return checkNumber(spec, Number(raw), where);
    }
    case 'number': {
      if (!NUM_RE.test(raw.trim())) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${raw}' is not a number.`);
      return checkNumber(spec, Number(raw), where);
    }
    case 'boolean': {
      const v = raw.toLowerCase();
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      return fail(spec, where, `Invalid ${describe(where, spec.name)}: '${raw}' is not true or false.`);
    }
    case 'string[]':
      return checkArray(spec, raw.split(',').map((s) => s.trim()).filter(Boolean), where);
    default:
      return checkString(spec, raw, where);
  }
}

function checkNumber(spec: ParamSpec, n: number, where: Where): number {
  if (!Number.isFinite(n)) fail(spec, where, `Invalid ${describe(where, spec.name)}: not a finite number.`);
  if (spec.min !== undefined && n < spec.min) fail(spec, where, `Invalid ${describe(where, spec.name)}: must be at least ${spec.min}.`);
  if (spec.exclusiveMin !== undefined && !(n > spec.exclusiveMin))
    fail(spec, where, `Invalid ${describe(where, spec.name)}: must be greater than ${spec.exclusiveMin}.`);
  if (spec.max !== undefined && n > spec.max) fail(spec, where, `Invalid ${describe(where, spec.name)}: must be at most ${spec.max}.`);
  if (spec.maxDecimals !== undefined && decimalPlaces(n) > spec.maxDecimals)
    fail(spec, where, `Invalid ${describe(where, spec.name)}: at most ${spec.maxDecimals} decimal places.`);
  return n;
}

/** Decimal places of a number as JavaScript writes it (1.2345 -> 4, 1e-7 -> 7): the digits the caller sent. */
export function decimalPlaces(n: number): number {
  const s = String(n);
  const e = s.indexOf('e');
  const mantissa = e < 0 ? s : s.slice(0, e);
  const exp = e < 0 ? 0 : Number(s.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const frac = dot < 0 ? 0 : mantissa.length - dot - 1;
  return Math.max(0, frac - exp);
}

const patterns = new WeakMap<ParamSpec, RegExp>();
function checkPattern(spec: ParamSpec, s: string, where: Where): void {
  let re = patterns.get(spec);
  if (!re) {
    re = new RegExp(`^(?:${spec.pattern})$`);
    patterns.set(spec, re);
  }
  if (!re.test(s)) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${s}'${spec.patternHint ? `; expected ${spec.patternHint}` : ''}.`);
}

/** A value counts as given when not blank; a boolean only when true (a false flag is the same as none). */
const given = (v: unknown): boolean => !isBlank(v) && v !== false;

/** The names of a spec list (cached: batch lines check the same list a million times). */
const specNames = new WeakMap<readonly ParamSpec[], ReadonlySet<string>>();
function namesOf(specs: readonly ParamSpec[]): ReadonlySet<string> {
  let s = specNames.get(specs);
  if (!s) specNames.set(specs, (s = new Set(specs.map((sp) => sp.name))));
  return s;
}

/** Whether `n` is one of the list's names, sent by the caller and given once checked (no closure per call). */
function counts(names: ReadonlySet<string>, sent: Record<string, unknown>, values: Record<string, unknown>, n: string): boolean {
  return names.has(n) && !isBlank(sent[n]) && given(values[n]);
}

/**
 * `excludes` and `requires` among the values of one call (or one body object). A value counts when the
 * caller sent it (`sent`, not blank; a default filled in is not a value given) for a name of the list,
 * and is `given` once checked (`values`); read in place, with no object built per call.
 */
function checkRelations(specs: readonly ParamSpec[], sent: Record<string, unknown>, values: Record<string, unknown>, where: Where): void {
  const names = namesOf(specs);
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    if ((!spec.excludes && !spec.requires) || !counts(names, sent, values, spec.name)) continue;
    for (const other of spec.excludes ?? []) {
      if (counts(names, sent, values, other)) {
        const both = spec.type === 'boolean' ? 'cannot both be true' : 'cannot be given together';
        fail(spec, where, `${where === 'body' ? 'Fields' : 'Parameters'} '${other}' and '${spec.name}' ${both}.`);
      }
    }
    for (const other of spec.requires ?? []) {
      if (!counts(names, sent, values, other)) fail(spec, where, `Invalid ${describe(where, spec.name)}: needs '${other}' as well.`);
    }
  }
}

function checkString(spec: ParamSpec, s: string, where: Where): string {
  switch (spec.type) {
    case 'date':
      if (!isValidDate(s)) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${s}'. Invalid date format. Use YYYY-MM-DD.`);
      return s;
    case 'tax_year':
      if (!isValidTaxYear(s)) fail(spec, where, `Tax year '${s}' not found. Use the format YYYY-YY, e.g. 2025-26.`);
      return s;
    case 'year':
      if (!YEAR_RE.test(s)) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${s}' is not a 4-digit year.`);
      return s;
  }
  if (spec.resolve) {
    // a shared vocabulary (a region by name, GSS code or slug) -> the parameter's own value, before its other checks
    const r = spec.resolve(s);
    if (typeof r !== 'string') fail(spec, where, `Invalid ${describe(where, spec.name)}: ${r.refused}`);
    s = r;
  }
  if (spec.minLength !== undefined && s.length < spec.minLength)
    fail(spec, where, `Invalid ${describe(where, spec.name)}: must be at least ${spec.minLength} characters.`);
  if (spec.pattern !== undefined) checkPattern(spec, s, where);
  if (spec.enum) {
    const hit = enumValue(spec, s);
    if (hit === undefined) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${s}'. Allowed: ${spec.enum.join(', ')}.`);
    return hit;
  }
  return s;
}

/**
 * Enum value -> canonical spelling, built once per spec (batch validation is a hot path). Every enum is
 * matched without case (`Scotland`, `uk`), the canonical spelling passed on, unless two of its values
 * differ only in case: then only the exact spelling matches.
 */
const enumMaps = new WeakMap<ParamSpec, Map<string, string>>();
function enumLookup(spec: ParamSpec): Map<string, string> {
  let m = enumMaps.get(spec);
  if (!m) {
    const values = spec.enum ?? [];
    const folded = new Set(values.map((e) => e.toLowerCase()));
    const fold = folded.size === values.length;
    m = new Map(values.map((e) => [e, e]));
    if (fold) for (const e of values) m.set(e.toLowerCase(), e);
    if (spec.publishedSpellings) {
      const loose = new Set(values.map(squash));
      if (loose.size !== values.length) throw new Error(`${spec.name}: publishedSpellings, but two values fold to the same letters`);
      for (const e of values) m.set(`~${squash(e)}`, e);
    }
    enumMaps.set(spec, m);
  }
  return m;
}

/** The canonical spelling of an enum value (exact first, then without case), or undefined. */
export function enumValue(spec: ParamSpec, s: string): string | undefined {
  const m = enumLookup(spec);
  return m.get(s) ?? m.get(s.toLowerCase()) ?? (spec.publishedSpellings ? m.get(`~${squash(s)}`) : undefined);
}

/** A value as a publisher may write it, folded: lower case, no spaces, underscores or hyphens. */
const squash = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');

function checkArray(spec: ParamSpec, items: unknown[], where: Where): unknown[] {
  if (spec.min !== undefined && items.length < spec.min)
    fail(spec, where, `Invalid ${describe(where, spec.name)}: needs at least ${spec.min} item(s).`);
  if (spec.max !== undefined && items.length > spec.max)
    fail(spec, where, `Invalid ${describe(where, spec.name)}: allows at most ${spec.max} item(s).`);
  if (spec.type === 'string[]') {
    const out = new Array<string>(items.length);
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (typeof it !== 'string') fail(spec, where, `Invalid ${describe(where, spec.name)}: item ${i} is not a string.`);
      if (spec.pattern !== undefined) checkPattern(spec, it, where);
      if (spec.enum) {
        const hit = enumValue(spec, it);
        if (hit === undefined) fail(spec, where, `Invalid ${describe(where, spec.name)}: '${it}'. Allowed: ${spec.enum.join(', ')}.`);
        out[i] = hit;
      } else out[i] = it;
    }
    return out;
  }
  return items;
}

/** Check one JSON body value against its spec. */
function checkBodyValue(spec: ParamSpec, v: unknown): unknown {
  switch (spec.type) {
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(spec, 'body', `Invalid ${describe('body', spec.name)}: must be an integer.`);
      if (!Number.isSafeInteger(v)) fail(spec, 'body', `Invalid ${describe('body', spec.name)}: out of range.`);
      return checkNumber(spec, v, 'body');
    case 'number':
      if (typeof v !== 'number') fail(spec, 'body', `Invalid ${describe('body', spec.name)}: must be a number.`);
      return checkNumber(spec, v, 'body');
    case 'boolean':
      if (typeof v !== 'boolean') fail(spec, 'body', `Invalid ${describe('body', spec.name)}: must be true or false.`);
      return v;
    case 'string[]':
    case 'array':
      if (!Array.isArray(v)) fail(spec, 'body', `Invalid ${describe('body', spec.name)}: must be an array.`);
      return checkArray(spec, v, 'body');
    case 'object':
      if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(spec, 'body', `Invalid ${describe('body', spec.name)}: must be an object.`);
      return spec.fields ? nested(spec.name, spec.fields, v) : v;
    default:
      if (typeof v !== 'string') fail(spec, 'body', `Invalid ${describe('body', spec.name)}: must be a string.`);
      return checkString(spec, v, 'body');
  }
}

/** Validate a nested object; errors name the field by its dotted path (`scenario_a.gross_income`). */
function nested(name: string, specs: readonly ParamSpec[], v: unknown): Record<string, unknown> {
  try {
    return validateBodyFields(specs, v, `${name}.`);
  } catch (e) {
    if (e instanceof UnknownNameError) throw e; // it names the full path already
    if (e instanceof ApiError) {
      const msg = e.message.replace(/field '([^']+)'/g, `field '${name}.$1'`);
      throw new ApiError(e.status, e.code, msg.startsWith('Request body') ? `Field '${name}' must be a JSON object.` : msg);
    }
    throw e;
  }
}

/** A blank string (or only spaces) counts as a missing value, in the query and in the body alike. */
function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/**
 * Validate a JSON object against body field specs. A field the specs do not declare is refused first
 * (400 invalid_parameter naming it and the nearest declared name; `prefix` is a nested object's path).
 */
export function validateBodyFields(specs: readonly ParamSpec[], body: unknown, prefix = ''): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'bad_request', 'Request body must be a JSON object.');
  }
  const src = body as Record<string, unknown>;
  const names = namesOf(specs);
  for (const k in src) {
    if (!names.has(k)) throw unknownName('field', k, [...names], prefix);
  }
  // Object.assign, not a spread: on Node 20 a spread copy takes new fields (the defaults below) ~20x
  // slower (~2 us a line of the energy calculator, measured), and a batch validates every line. The same
  // own keys in the same order; only an own `__proto__` (refused by validateBody, findUnsafeKey) would be
  // set through the prototype setter by assign, so such a body keeps the spread.
  const out: Record<string, unknown> = Object.prototype.hasOwnProperty.call(src, '__proto__') ? { ...src } : Object.assign({}, src);
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const v = src[spec.name];
    if (isBlank(v)) {
      if (spec.required) {
        throw new ApiError(400, 'bad_request', `Missing required field '${spec.name}'.`);
      }
      if (spec.default !== undefined) out[spec.name] = spec.default;
      else if (spec.name in out) delete out[spec.name]; // (a delete of an absent key is a runtime call per line)
      continue;
    }
    out[spec.name] = checkBodyValue(spec, v);
  }
  // Relations look at what the caller sent: a default filled in above is not a value given.
  if (hasRelations(specs)) checkRelations(specs, src, out, 'body');
  return out;
}

/** Whether any spec of a list has `excludes` or `requires` (cached: batch lines validate the same list a million times). */
const relations = new WeakMap<readonly ParamSpec[], boolean>();
function hasRelations(specs: readonly ParamSpec[]): boolean {
  let r = relations.get(specs);
  if (r === undefined) {
    r = specs.some((s) => s.excludes || s.requires);
    relations.set(specs, r);
  }
  return r;
}

/** Split a pattern path into segments; `{x}` segments are parameters. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const ps = pattern.split('/');
  const xs = path.split('/');
  if (ps.length !== xs.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]!;
    const x = xs[i]!;
    if (p.startsWith('{') && p.endsWith('}')) {
      if (x === '') return null;
      out[p.slice(1, -1)] = decodeURIComponent(x);
    } else if (p !== x) return null;
  }
  return out;
}

const NO_PARAMS: readonly ParamSpec[] = [];

/**
 * Validate a matched call's path and query parameters (coerced, defaults filled in). A query parameter the
 * route does not declare (`page`/`per_page` only where the route pages) is 400 invalid_parameter.
 */
export function validateParams(
  route: RouteSpec,
  pathValues: Record<string, string>,
  query: Record<string, string | string[]>,
): Pick<HandlerRequest, 'params' | 'query'> {
  const declared = namesOf(route.query ?? NO_PARAMS);
  for (const k of Object.keys(query)) {
    if (isUnsafeKey(k)) throw new ApiError(400, 'invalid_parameter', `Query parameter ${unsafeKeyReason(k)}.`);
    // A name the route does not declare is refused, never ignored (issue 37: `?ratng=5` listed everything).
    if (!declared.has(k)) throw unknownName('parameter', k, [...declared]);
  }
  const params: Record<string, unknown> = {};
  for (const spec of route.pathParams ?? []) {
    const raw = pathValues[spec.name];
    if (raw === undefined) fail(spec, 'path', `Missing path parameter '${spec.name}'.`);
    params[spec.name] = coerceString(spec, raw, 'path');
  }
  const q: Record<string, unknown> = {};
  let supplied: Set<string> | undefined;
  // every value given counts when a parameter is ordered after another (notBefore) or one of a set is required
  const track = Boolean(route.exactlyOneOf) || (route.query ?? []).some((s) => s.notBefore);
  for (const spec of route.query ?? []) {
    let raw = query[spec.name];
    if (Array.isArray(raw)) raw = spec.type === 'string[]' ? raw.join(',') : raw[raw.length - 1];
    if (isBlank(raw)) {
      if (spec.required) fail(spec, 'query', `Missing required parameter '${spec.name}'.`);
      if (spec.default !== undefined) q[spec.name] = spec.default;
      continue;
    }
    q[spec.name] = coerceString(spec, raw as string, 'query');
    if (track) (supplied ??= new Set()).add(spec.name);
  }
  if (supplied) checkOrderAndOneOf(route, supplied, q);
  if (route.exactlyOneOf && !route.exactlyOneOf.some((k) => supplied?.has(k))) {
    // none of them was given: the message names them all, and no one of them as if it had been
    throw new ApiError(400, 'invalid_parameter', `One of ${route.exactlyOneOf.map((k) => `'${k}'`).join(', ')} is required.`);
  }
  // Relations look at what the caller sent: a default filled in above is not a value given.
  if (route.query && hasRelations(route.query)) {
    checkRelations(route.query, query, q, 'query');
  }
  if (route.requireOneOf && route.method !== 'POST' && !route.requireOneOf.some((k) => !isBlank(query[k]))) {
    throw new ApiError(400, 'invalid_parameter', `One of ${route.requireOneOf.map((k) => `'${k}'`).join(', ')} is required.`);
  }
  return { params, query: q };
}

/** The parameters' `notBefore` and the route's `exactlyOneOf` (values given in the call; defaults do not count). */
function checkOrderAndOneOf(route: RouteSpec, supplied: Set<string>, q: Record<string, unknown>): void {
  for (const spec of route.query ?? []) {
    if (spec.notBefore && supplied.has(spec.name) && supplied.has(spec.notBefore) && String(q[spec.name]) < String(q[spec.notBefore])) {
      fail(spec, 'query', `Invalid parameter '${spec.name}': '${String(q[spec.name])}' is before ${spec.notBefore} '${String(q[spec.notBefore])}'.`);
    }
  }
  const one = route.exactlyOneOf;
  const hit = one ? one.filter((k) => supplied.has(k)) : [];
  if (one && hit.length > 1) {
    throw new ApiError(400, 'invalid_parameter', `Invalid parameter '${hit[1]}': give only one of ${one.map((k) => `'${k}'`).join(', ')} (got ${hit.map((k) => `'${k}'`).join(' and ')}).`);
  }
}

/** Refuse a body with `__proto__`, `constructor` or `prototype` as a key at any depth: 400 bad_request naming it. */
export function refuseUnsafeKeys(body: unknown): void {
  const unsafe = findUnsafeKey(body);
  if (unsafe) throw new ApiError(400, 'bad_request', `Request body field '${unsafe.path}' is refused: ${unsafeKeyReason(unsafe.key)}.`);
}

/**
 * Validate a call's body against the route (POST routes; GET bodies pass through untouched).
 * `documentValidated`: the route's document validator runs next (src/runner.ts) and, as every document
 * validator must (src/domains/manifest.ts DocumentValidator), refuses any key it does not declare at any
 * depth, so a body it accepts has no unsafe key: the walk over every key is left to the runner, made only
 * when the document is refused (the same answer as here, without a second walk over a valid
 * 10,000-transaction VAT return).
 */
export function validateBody(route: RouteSpec, body: unknown, documentValidated = false): unknown {
  if (!(documentValidated && route.bodyDocument)) refuseUnsafeKeys(body);
  if (route.method !== 'POST' || route.bodyDocument) return body;
  const out = validateBodyFields(route.body ?? [], body ?? {});
  // What the caller sent, as for excludes/requires: a default filled in is not one of them given.
  const sent = (body ?? {}) as Record<string, unknown>;
  if (route.requireOneOf && !route.requireOneOf.some((k) => !isBlank(sent[k]))) {
    throw new ApiError(400, 'invalid_parameter', `One of ${route.requireOneOf.map((k) => `'${k}'`).join(', ')} is required.`);
  }
  return out;
}

/** Validate a matched call: path params, query, body. Throws ApiError with the spec's codes. */
export function validateCall(
  route: RouteSpec,
  pathValues: Record<string, string>,
  query: Record<string, string | string[]>,
  body: unknown,
  documentValidated = false,
): HandlerRequest {
  const { params, query: q } = validateParams(route, pathValues, query);
  return { params, query: q, body: validateBody(route, body, documentValidated) };
}
