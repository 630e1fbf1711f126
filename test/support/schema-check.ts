/**
 * Checks an answer against the response schema `publicdata serve` publishes for its route (the OpenAPI
 * document of src/server/openapi.ts with every domain's schemas.ts), for route tests that want every
 * 200 answer they make, edge cases included, to be in the spec's shape (issue 28). The conformance test
 * (test/server/conformance.test.ts) checks one sample per route; this covers the rest of a domain's calls.
 */
import { expect } from 'vitest';
import type { CallResult, HttpMethod } from '../../src/contract/types.js';
import { openApiDocument } from '../../src/server/openapi.js';
import { loadResponseSchemas, matchRoute, ROUTES } from '../../src/registry.js';
import { answerValidator, type AnswerValidator } from './openapi-validate.js';

let validator: Promise<AnswerValidator> | undefined;

function getValidator(): Promise<AnswerValidator> {
  validator ??= loadResponseSchemas().then((responses) =>
    answerValidator(openApiDocument(ROUTES, 'http://127.0.0.1/v1', { auth: true, responses }) as Record<string, unknown>),
  );
  return validator;
}

/** The schema misfits of a route's answer envelope (empty when it fits), as JSON on the wire. */
export async function schemaMisfits(routeId: string, envelope: unknown): Promise<string[]> {
  return (await getValidator())(routeId, JSON.parse(JSON.stringify(envelope)));
}

/** Fails the test when a 200 answer of `method path` is not in its route's published shape; returns the result. */
export async function conforming<R extends CallResult>(method: HttpMethod, path: string, r: R): Promise<R> {
  if (r.status === 200) {
    const id = matchRoute(method, path).route.id;
    expect(await schemaMisfits(id, r.envelope), `${method} ${path}`).toEqual([]);
  }
  return r;
}
