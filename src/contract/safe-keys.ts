/**
 * Names that can never be field or parameter names (issue 21 item 13): `__proto__`, `constructor` and
 * `prototype`. Assigning `obj['__proto__'] = …` changes an object's prototype instead of setting a field
 * (`publicdata api -F __proto__.region=scotland` once changed Object.prototype and so a local result),
 * and no route of the v1 API has such a field. Refused wherever a caller names keys: the query, the body
 * (at any depth), `-F`/`-f` paths.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isUnsafeKey(k: string): boolean {
  return UNSAFE_KEYS.has(k);
}

/** What a refusal says about the name. */
export function unsafeKeyReason(name: string): string {
  return `'${name}' is not allowed as a name (__proto__, constructor and prototype never are: they would change JavaScript's object prototypes, not set a field)`;
}

/**
 * The first unsafe key in a JSON value and its dotted path (objects and arrays at any depth; iterative,
 * so a deeply nested value cannot overflow the stack), or undefined.
 */
export function findUnsafeKey(value: unknown): { key: string; path: string } | undefined {
  // A flat object (a batch line's body: scalars only) is checked without the stack or the paths.
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && flatAndSafe(value as Record<string, unknown>)) return undefined;
  // A large document (a VAT return of 10,000 transactions) is walked once without building any path (the
  // paths below made ~110,000 strings and pairs for such a body, most of its garbage collection); the
  // paths are made only to name an unsafe key that is there.
  if (!hasUnsafeKey(value)) return undefined;
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
      continue;
    }
    // Own keys only (JSON.parse makes `__proto__` an own key; Object.keys lists it).
    for (const k of Object.keys(v)) {
      const p = path ? `${path}.${k}` : k;
      if (isUnsafeKey(k)) return { key: k, path: p };
      stack.push([(v as Record<string, unknown>)[k], p]);
    }
  }
  return undefined;
}

/** Whether a JSON value has an unsafe own key at any depth (iterative; allocates only its stack). */
function hasUnsafeKey(value: object): boolean {
  const stack: object[] = [value];
  while (stack.length) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
      continue;
    }
    // for-in lists the own enumerable keys (JSON.parse's own `__proto__` among them) without making an
    // array of them; an inherited one is skipped, as Object.keys would not list it.
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      if (UNSAFE_KEYS.has(k)) return true;
      const x = (v as Record<string, unknown>)[k];
      if (typeof x === 'object' && x !== null) stack.push(x);
    }
  }
  return false;
}

/** True when an object's own keys are all safe and none of its values is an object or array. */
function flatAndSafe(v: Record<string, unknown>): boolean {
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (UNSAFE_KEYS.has(k)) return false;
    const x = v[k];
    if (typeof x === 'object' && x !== null) return false;
  }
  return true;
}
