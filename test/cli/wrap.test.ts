/** wrapWords (src/output/wrap.ts): notes under a table wrap at word boundaries to the width (issue 37). */
import { describe, expect, it } from 'vitest';
import { wrapWords } from '../../src/output/wrap.js';

describe('wrapWords', () => {
  it('breaks between words, never inside one that fits, later lines indented', () => {
    // "note Figures are those" is 22 characters; "Ofgem" would make it 28
    expect(wrapWords('note Figures are those Ofgem published', 24, '  ')).toBe('note Figures are those\n  Ofgem published');
    expect(wrapWords('a b c', 80)).toBe('a b c');
  });

  it('a word longer than the width is broken (no line over the width); line breaks kept', () => {
    const id = '37af3ffd1890b918df773a253a3cf8a2';
    const out = wrapWords(`id ${id}`, 10);
    expect(out.split('\n').every((l) => l.length <= 10)).toBe(true);
    expect(out.replace(/\n/g, '')).toBe(`id${id}`);
    expect(wrapWords('one\ntwo three', 5)).toBe('one\ntwo\nthree');
  });
});
