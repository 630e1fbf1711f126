/**
 * The OpenAPI document of the registered routes, read the way a generated client reads it: a parameter's or
 * a body's schema by path, and whether a schema's pattern (JSON Schema: ECMA-262, no flags) accepts a
 * value. For the pattern tests (test/server/, test/property/, test/companies/openapi-patterns.test.ts).
 */
import { ROUTES } from '../../src/registry.js';
import { openApiDocument } from '../../src/server/openapi.js';

export type Schema = { pattern?: string; properties?: Record<string, Schema> };
interface Operation {
  parameters?: Array<{ name: string; in: string; schema: Schema }>;
  requestBody?: { content: { 'application/json': { schema: Schema } } };
}

let doc: { paths: Record<string, Record<string, Operation>> } | undefined;
const operation = (method: 'get' | 'post', path: string): Operation => {
  doc ??= openApiDocument(ROUTES, 'http://127.0.0.1/v1') as typeof doc & object;
  return doc.paths[path.replace(/^\/v1/, '')]![method]!;
};

/** A GET parameter's schema (path as the route declares it, `/v1/...`). */
export const paramSchema = (path: string, name: string): Schema => operation('get', path).parameters!.find((p) => p.name === name)!.schema;

/** A POST body's schema. */
export const bodySchema = (path: string): Schema => operation('post', path).requestBody!.content['application/json'].schema;

/** Whether the schema's pattern accepts the value, as a JSON Schema validator reads it. */
export const accepts = (s: Schema, v: string): boolean => new RegExp(s.pattern!, 'u').test(v);
