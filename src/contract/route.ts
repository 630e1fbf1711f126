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
  | 'invalid_type';

export interface ParamSpec {
  name: string;
  type: ParamType;
  description: string;
  required?: boolean;
  default?: string | number | boolean;
  /** Inclusive numeric bounds (numbers) or item count bounds (arrays). */
  min?: number;
  max?: number;
  minLength?: number;
  enum?: readonly string[];
  /** Enumerations compared without case (e.g. council tax band). The canonical spelling is passed on. */
  caseInsensitive?: boolean;
  /** Error code when the value is invalid (default: invalid_parameter for query/path, bad_request for body). */
  error?: ParamErrorCode;
  /** HTTP status for that error when it differs from the code's usual status (collisions dates: 422). */
  errorStatus?: number;
  /** `object` body fields: the fields of the nested object, validated like a body (errors name `parent.field`). */
  fields?: readonly ParamSpec[];
  /** Strings: a regular expression (source, no flags) the whole value must match, e.g. `^\\d{4}-(0[1-9]|1[0-2])$`. */
  pattern?: string;
  /** How the pattern reads in an error message, e.g. `YYYY-MM`. */
  patternHint?: string;
  /** Query: when given, these parameters must be given too (`lat` requires `lng`). Defaults do not count as given. */
  requires?: readonly string[];
  /** Query: when given, none of these may be given (`month` excludes `month_from`). */
  excludes?: readonly string[];
  /** Query: when both are given, the value may not sort before this parameter's value (`month_to` not before `month_from`). */
  notBefore?: string;
}

export type Domain = 'tax' | 'property' | 'companies' | 'vehicles' | 'calendar' | 'crime';

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
  /** At least one of these query params is required (price-paid search). */
  requireOneOf?: readonly string[];
  /** Exactly one of these query params must be given (crime: the area, `lat` or `lsoa` or `force`). Defaults do not count. */
  exactlyOneOf?: readonly string[];
  /** Credits per call (spec doc 1 §8: GET 1, POST 10). */
  cost: number;
  /** `top`: top-level `pagination`; `inner`: `data.pagination` (price-paid). */
  pagination?: 'top' | 'inner';
  /** Dotted path (inside `data`) of the main record list, for table/ndjson/csv output. */
  records?: string;
  /** Error codes this route can answer with (besides auth, credits, rate limit). */
  errors: readonly string[];
  notes?: string;
}
