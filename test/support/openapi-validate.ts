/**
 * Validates answers against the OpenAPI document `publicdata serve` publishes: the route's 200 envelope
 * schema (components.schemas.<route id>), with ajv's JSON Schema 2020-12 dialect (OpenAPI 3.1's) and
 * ajv-formats for `date` and `date-time`. Errors come back as readable lines, empty when the answer fits.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export type AnswerValidator = (routeId: string, envelope: unknown) => string[];

export function answerValidator(doc: Record<string, unknown>): AnswerValidator {
  // strict: false: the document carries OpenAPI's own keywords (x-*, description on $ref siblings).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  return (routeId, envelope) => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    if (!(routeId in schemas)) return [`no response schema for ${routeId}`];
    let v = compiled.get(routeId);
    if (!v) compiled.set(routeId, (v = ajv.compile({ $ref: `openapi.json#/components/schemas/${routeId}` })));
    if (v(envelope)) return [];
    return (v.errors ?? []).map((e) => `${routeId}: ${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
  };
}
