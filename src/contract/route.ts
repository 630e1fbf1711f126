/**
 * The shape of one v1 route: method, path pattern, parameters with types, defaults, limits and
 * enumerations, credit cost and applicable error codes. A pure spec: which handler answers a route
 * offline is the domain's business (src/domains/<domain>/index.ts).
 */
import type { HttpMethod } from './types.js';

export type ParamType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date' // YYYY-MM-DD
  | 'tax_year' // YYYY-YY
  | 'year' // 4-digit calendar year
  | 'string[]' // JSON array of strings (body) or comma-separated (query)
  | 'object'
  | 'array';

export type ParamErrorCode =
  | 'invalid_parameter'
  | 'bad_request'
  | 'invalid_region'
  | 'invalid_tax_year'
  | 'invalid_year'
  | 'invalid_type'
  | 'make_prefix_too_broad';

/**
 * A shared vocabulary's resolver (issue 37: one region vocabulary accepted everywhere): the value typed
 * (an ONS name, a GSS code, the domain's own slug, in any case) -> this parameter's own value, or
 * `{ refused }`, the reason (what is accepted and the nearest name), which validation reports with the
 * parameter's own error code, with `near`, the nearest accepted name, when one is near. Pure of I/O once
 * built; src/reference/ builds them from data/.
 */
export type ValueResolver = (raw: string) => string | { refused: string; near?: string };

export interface ParamSpec {
  name: string;
  type: ParamType;
  description: string;
  required?: boolean;
  default?: string | number | boolean;
  /** Inclusive numeric bounds (numbers) or item count bounds (arrays). */
  min?: number;
  max?: number;
  /** Exclusive numeric lower bound (numbers): the value must be greater than this (an amount > 0). */
  exclusiveMin?: number;
  minLength?: number;
  enum?: readonly string[];
  /**
   * Enumerations are compared without case (validate.ts enumValue) unless two values differ only in case;
   * the canonical spelling is passed on. Kept as documentation where the spec says "case-insensitive".
   */
  caseInsensitive?: boolean;
  /**
   * Enumerations: also match a value written as its publisher writes it, compared after lower-casing and
   * removing spaces, underscores and hyphens (`Pass and Eat Safe`, `AwaitingInspection` for
   * `pass_and_eat_safe`, `awaiting_inspection`); the canonical spelling is passed on. Only where no two
   * values fold to the same letters (checked when the lookup is built).
   */
  publishedSpellings?: boolean;
  /** Error code when the value is invalid (default: invalid_parameter for query/path, bad_request for body). */
  error?: ParamErrorCode;
  /** HTTP status for that error when it differs from the code's usual status (collisions dates: 422). */
  errorStatus?: number;
  /** `object` body fields: the fields of the nested object, validated like a body (errors name `parent.field`). */
  fields?: readonly ParamSpec[];
  /**
   * A string value must match this regular expression (its source; the validator anchors it; case
   * matters, as in the OpenAPI document's JSON Schema pattern: write `[A-Za-z]` where either case is
   * accepted), e.g. a company number. `patternHint` says what is expected, for the error message.
   */
  pattern?: string;
  patternHint?: string;
  /** Numbers: at most this many decimal places (a pension percentage: 4). */
  maxDecimals?: number;
  /** Parameters of the same call (or fields of the same object) that may not be given with this one; a boolean counts as given when true. */
  excludes?: readonly string[];
  /** Parameters of the same call that must be given with this one (`lat` requires `lng`). */
  requires?: readonly string[];
  /** Query: when both are given, the value may not sort before this parameter's value (`month_to` not before `month_from`). */
  notBefore?: string;
  /**
   * A shared vocabulary the parameter also accepts (`region`: a name such as "North West", a GSS code or the
   * domain's own slug, any case). The domain's manifest declares its resolver (`vocabularies`), which the
   * registry attaches as `resolve`; validation resolves the value first, and the live backend sends the
   * resolved value (src/contract/vocabulary.ts), so the published API gets the value it expects.
   */
  vocabulary?: string;
  /** The vocabulary's resolver, attached by src/registry.ts from the manifest; never written in a route spec. */
  resolve?: ValueResolver;
}

/**
 * A domain's name: the folder src/domains/<domain>/ its manifest lives in. Any string here; the registry
 * (src/registry.ts) checks that every route's domain is the manifest that declares it.
 */
export type Domain = string;

export interface RouteSpec {
  /** Stable identifier, e.g. `tax.take-home.calculate`. */
  id: string;
  method: HttpMethod;
  /** Path pattern with `{param}` segments, e.g. `/v1/tax/income/bands/{tax_year}`. */
  path: string;
  domain: Domain;
  summary: string;
  pathParams?: ParamSpec[];
  query?: ParamSpec[];
  /** Body fields (POST). `bodyDocument` routes validate their own body (VAT return: VALIDATION_ERROR). */
  body?: ParamSpec[];
  bodyDocument?: boolean;
  /** At least one of these query params (GET) or body fields (POST) is required (price-paid search, energy calculator). */
  requireOneOf?: readonly string[];
  /** Exactly one of these query params must be given (crime: the area, `lat` or `lsoa` or `force`). Defaults do not count. */
  exactlyOneOf?: readonly string[];
  /** Credits per call (spec doc 1 §8: GET 1, POST 10). */
  cost: number;
  /** `top`: top-level `pagination`; `inner`: `data.pagination` (price-paid). */
  pagination?: 'top' | 'inner';
  /** Dotted path (inside `data`) of the main record list, for table/ndjson/csv output. */
  records?: string;
  /**
   * The answer columns: record fields the terminal table always shows, at any width from 80 columns (the
   * measure the route exists for: a count, a rate, a price, an address, and what labels it where rows
   * differ only there: energy rates' fuel, meter and payment method; a school's latest inspection date
   * and outcome), after the identifier columns (`isKeyColumn` in src/output/view.ts) and before any other;
   * a long one is cut with an ellipsis rather than dropped. Other columns shrink or go first.
   * test/cli/tables-80.test.ts renders every route's sample at 80 columns against this declaration.
   */
  measures?: readonly string[];
  /** Error codes this route can answer with (besides auth, credits, rate limit). */
  errors: readonly string[];
  notes?: string;
  /**
   * A publicdata extension, not a route of the published API (the spec document that defines it, e.g.
   * `5-places.md`): answered locally and by `serve`; `--source live` answers `not_available_live`
   * (src/create-context.ts), and the OpenAPI document marks it `x-publicdata-extension`.
   */
  extension?: string;
}
