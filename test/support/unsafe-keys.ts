/**
 * Putting `__proto__`, `constructor` and `prototype` into a JSON body, for the tests that hold a document
 * validator to refusing them (src/domains/manifest.ts DocumentValidator): every object of a value with its
 * path as findUnsafeKey writes it, every field, and an own property as JSON.parse makes one.
 */
export const UNSAFE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Every object of a JSON value with its path ('' for the root; `a.b[2].c`). */
export function objectsOf(v: unknown, path = ''): Array<{ path: string; obj: Record<string, unknown> }> {
  if (Array.isArray(v)) return v.flatMap((x, i) => objectsOf(x, `${path}[${i}]`));
  if (typeof v !== 'object' || v === null) return [];
  const o = v as Record<string, unknown>;
  return [{ path, obj: o }, ...Object.keys(o).flatMap((k) => objectsOf(o[k], path ? `${path}.${k}` : k))];
}

/** Every field (an object's key) of a JSON value with the path of the object holding it. */
export function fieldsOf(v: unknown): Array<{ path: string; obj: Record<string, unknown>; key: string }> {
  return objectsOf(v).flatMap(({ path, obj }) => Object.keys(obj).map((key) => ({ path, obj, key })));
}

/** An own property, as JSON.parse makes `"__proto__": …` (an assignment would set the prototype instead). */
export const defineOwn = (o: Record<string, unknown>, key: string, value: unknown): void =>
  void Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/** A field path under `path` ('' for the root). */
export const joinPath = (path: string, key: string): string => (path ? `${path}.${key}` : key);
