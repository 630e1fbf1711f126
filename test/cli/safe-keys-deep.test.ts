/**
 * findUnsafeKey on a large document (src/contract/safe-keys.ts): a first walk builds no paths; the path of
 * an unsafe key is still named exactly, at any depth, and an inherited key is not one of the value's.
 */
import { describe, expect, it } from 'vitest';
import { findUnsafeKey } from '../../src/contract/safe-keys.js';

const doc = (n: number) => ({ period: { start_date: '2026-01-01' }, transactions: Array.from({ length: n }, (_, i) => ({ id: `t${i}`, net_amount: i, tags: [{ k: 'v' }] })) });

describe('findUnsafeKey on a large document', () => {
  it('a document of 2,000 transactions without one: undefined', () => {
    expect(findUnsafeKey(doc(2000))).toBeUndefined();
  });

  it('names the path of one deep in the list, as JSON.parse makes it', () => {
    const text = JSON.stringify(doc(2000)).replace('{"k":"v"}]},{"id":"t1538"', '{"k":"v","constructor":1}]},{"id":"t1538"');
    expect(findUnsafeKey(JSON.parse(text))).toEqual({ key: 'constructor', path: 'transactions[1537].tags[0].constructor' });
    const proto = JSON.parse('{"transactions":[{"id":"a"},{"id":"b","__proto__":{"x":1}}]}');
    expect(findUnsafeKey(proto)).toEqual({ key: '__proto__', path: 'transactions[1].__proto__' });
  });

  it('an enumerable key inherited from a prototype is not the value own key', () => {
    const inherited = Object.create({ prototype: 1 }) as Record<string, unknown>;
    inherited.list = [{ a: 1 }];
    expect(findUnsafeKey({ x: inherited })).toBeUndefined();
  });
});
