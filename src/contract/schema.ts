/**
 * Response schemas: the shape of each route's `data` (and the `meta` fields it must carry), transcribed
 * from the spec documents (docs/spec/), not from the code. A domain declares them in its
 * `src/domains/<d>/schemas.ts` (pure: imports only this module); the OpenAPI document served by
 * `publicdata serve` publishes them (src/server/openapi.ts) and test/server/conformance.test.ts validates
 * every route's answer against that document, so a shape change fails a test.
 *
 * The builders produce JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Objects are closed by default
 * (`additionalProperties: false`): every field an answer carries is declared, the spec's fields required,
 * a field publicdata adds beyond the spec declared with `ext()` so a generated client sees it typed.
 */
export type JsonSchema = { readonly [k: string]: unknown };

export interface ResponseSchema {
  /** The schema of `data`. */
  data: JsonSchema;
  /** Fields `meta` must carry besides `api_version` (e.g. `source_url`, `query`). */
  meta?: readonly string[];
  /**
   * Where the shape comes from: the spec section (e.g. `2-property-companies.md §4 Companies`), or why
   * it is publicdata's own where the spec says "not shown" (then the shape is the one built, documented).
   */
  source: string;
}

/** Route id -> its response schema. */
export type ResponseSchemas = Readonly<Record<string, ResponseSchema>>;

const withDesc = (s: Record<string, unknown>, description?: string): JsonSchema => (description ? { ...s, description } : s);

export const str = (description?: string): JsonSchema => withDesc({ type: 'string' }, description);
export const int = (description?: string): JsonSchema => withDesc({ type: 'integer' }, description);
/** A JSON number (amounts in pounds are numbers in the spec: they are exact decimals in the answer). */
export const num = (description?: string): JsonSchema => withDesc({ type: 'number' }, description);
export const bool = (description?: string): JsonSchema => withDesc({ type: 'boolean' }, description);
/** `YYYY-MM-DD`. */
export const date = (description?: string): JsonSchema => withDesc({ type: 'string', format: 'date' }, description);
/** An ISO 8601 instant (RFC 3339 date-time). */
export const timestamp = (description?: string): JsonSchema => withDesc({ type: 'string', format: 'date-time' }, description);
/** One of these strings. */
export const oneOf = (values: readonly string[], description?: string): JsonSchema => withDesc({ type: 'string', enum: [...values] }, description);
/** A constant value. */
export const constant = (value: string | number | boolean | null, description?: string): JsonSchema => withDesc({ const: value }, description);
/** The schema, or null. */
export const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });
/** Any of these schemas. */
export const anyOf = (...schemas: JsonSchema[]): JsonSchema => ({ anyOf: schemas });
export const arr = (items: JsonSchema, description?: string): JsonSchema => withDesc({ type: 'array', items }, description);
/** An object keyed by data (area codes, statuses): every value has this schema. */
export const record = (values: JsonSchema, description?: string): JsonSchema => withDesc({ type: 'object', additionalProperties: values }, description);
/** Any JSON value (a field whose shape the spec leaves open: say why in the description). */
export const any = (description: string): JsonSchema => ({ description });

/** Marks a field publicdata adds beyond the spec (an extension: documented, typed). */
export const ext = (s: JsonSchema, description: string): JsonSchema => ({ ...s, description, 'x-publicdata-extension': true });

export interface ObjOptions {
  /** Declared fields an answer may leave out (the spec says "optional", "when available", "absent on"). */
  optional?: readonly string[];
  /** Leave the object open to undeclared fields (only where the spec itself leaves it open). */
  open?: boolean;
  description?: string;
}

/** An object with these fields, all required unless listed in `optional`; closed unless `open`. */
export function obj(properties: Readonly<Record<string, JsonSchema>>, o: ObjOptions = {}): JsonSchema {
  const optional = new Set(o.optional ?? []);
  for (const k of optional) if (!(k in properties)) throw new Error(`obj: optional field '${k}' is not declared`);
  const required = Object.keys(properties).filter((k) => !optional.has(k));
  return withDesc({ type: 'object', properties: { ...properties }, ...(required.length ? { required } : {}), additionalProperties: o.open === true }, o.description);
}

/** A schema's alternatives other than null: itself, or its anyOf/oneOf branches (`nullable(x)` is anyOf [x, null]). */
export function schemaBranches(s: JsonSchema): JsonSchema[] {
  const alts = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  return alts ? alts.flatMap(schemaBranches).filter((b) => b.type !== 'null') : [s];
}
