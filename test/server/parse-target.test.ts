/**
 * serve reads a plain request path without building a URL (src/server/http.ts parseTarget): whatever the
 * target, its pathname and query must be those WHATWG URL gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/server/http.js';

// A target URL refuses (e.g. `//`, an empty host) must be refused by parseTarget too (serve's 400).
const read = (f: () => { pathname: string; searchParams: URLSearchParams }) => {
  try {
    const u = f();
    return { pathname: u.pathname, query: [...u.searchParams] };
  } catch (e) {
    return { refused: (e as Error).name };
  }
};
const viaUrl = (t: string) => read(() => new URL(t, 'http://localhost'));
const viaTarget = (t: string) => read(() => parseTarget(t));

describe('parseTarget', () => {
  it('gives the pathname and query URL gives, for targets made of path characters, dots, escapes and queries', () => {
    const ch = fc.constantFrom(...'abcXYZ019_-/./%2e%2F?=&+ ~:@'.split(''), '/../', '/./', '//', '%41', '?a=1&a=2');
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 30 }), (parts) => {
        const t = `/${parts.join('')}`;
        expect(viaTarget(t)).toEqual(viaUrl(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('the targets serve meets', () => {
    for (const t of ['/v1/tax/take-home/calculate', '/v1/tax/years/', '/v1//x', '/v1', '/', '//evil/x', '/v1/a/../b', '/v1/%7Bx%7D', '/v1/q?x=1']) {
      expect(viaTarget(t)).toEqual(viaUrl(t));
    }
  });
});
