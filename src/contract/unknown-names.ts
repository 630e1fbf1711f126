/**
 * A parameter or field a route does not declare is refused (issue 37): a misspelled `geograhpy` must not
 * be ignored and answered for the whole country. The refusal names it and the nearest declared name.
 *
 * The nearest name is by optimal string alignment distance (Levenshtein with adjacent transpositions, so
 * `geograhpy` is one edit from `geography`), written here rather than taken from a library: commander has
 * one (`suggestSimilar`) but does not export it, and the dozen lines below are the whole algorithm.
 */
import { ApiError } from './errors.js';

/** Edit distance with adjacent transpositions (optimal string alignment), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = [];
  for (let i = 0; i <= s.length; i++) d.push([i]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The declared name nearest to `name`: the fewest edits, at most a third of the longer name (at least 2),
 * or one that starts with it or it starts with (`rating` for `rating_value`); undefined when none is near.
 */
export function nearestName(name: string, declared: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const n of declared) {
    const d = editDistance(name, n);
    const limit = Math.max(2, Math.floor(Math.max(name.length, n.length) / 3));
    const prefix = lower.length >= 3 && (n.toLowerCase().startsWith(lower) || lower.startsWith(n.toLowerCase()));
    if ((d <= limit || prefix) && d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

/**
 * The refusal of an undeclared name: 400 invalid_parameter, naming it and the nearest declared name (or,
 * when none is near, every declared one). `kind` is `parameter` (query) or `field` (body); `prefix` the
 * dotted path of a nested object (`scenario_a.`).
 */
export function unknownName(kind: 'parameter' | 'field', name: string, declared: readonly string[], prefix = ''): ApiError {
  const near = nearestName(name, declared);
  const hint = near !== undefined
    ? `did you mean '${prefix}${near}'?`
    : declared.length
      ? `${prefix ? `'${prefix.slice(0, -1)}' takes` : 'this route takes'} ${declared.map((d) => `'${d}'`).join(', ')}.`
      : `this route takes no ${kind === 'parameter' ? 'query parameters' : 'body fields'}.`;
  return new UnknownNameError(`Unknown ${kind} '${prefix}${name}'; ${hint}`);
}

/** The refusal above (a nested object's validation passes it on unchanged: it already names the full path). */
export class UnknownNameError extends ApiError {
  constructor(message: string) {
    super(400, 'invalid_parameter', message);
  }
}
