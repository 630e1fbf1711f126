/** A call validated as the router and validator see it (no handler runs), and the ApiError a call throws: for contract tests. */
import { ApiError } from '../../src/contract/errors.js';
import { validateCall } from '../../src/contract/validate.js';
import { matchRoute } from '../../src/registry.js';

export function validate(method: 'GET' | 'POST', path: string, query: Record<string, string> = {}, body?: unknown) {
  const m = matchRoute(method, path);
  return validateCall(m.route, m.pathValues, query, body);
}

export function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}
