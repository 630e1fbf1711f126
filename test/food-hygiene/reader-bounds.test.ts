/** Issue 37, memory before rejection (moved from test/sync/reader-bounds.test.ts): an FSA XML field. */
import { describe, expect, it } from 'vitest';
import { scratchFiles } from '../support/mirror-helper.js';
import { MalformedFileError, parseAuthorityFile, textRun } from '../../src/domains/food-hygiene/sync/parse.js';

const file = scratchFiles('pd-bounds-');

describe('an XML field has a limit', () => {
  it('FSA: a text of more characters than the limit is refused before the parser holds it; a real file passes', async () => {
    const big = file('FHRS999en-GB.xml', `<?xml version="1.0"?><FHRSEstablishment><Header><ExtractDate>${'7'.repeat(5000)}</ExtractDate></Header></FHRSEstablishment>`);
    const err = await parseAuthorityFile(big, () => undefined, { fieldChars: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedFileError);
    expect((err as Error).message).toBe('a text of more than 1000 characters without markup (the limit of a field): not an FSA file');
    const ok = await parseAuthorityFile(big, () => undefined, { fieldChars: 10_000 });
    expect(ok.count).toBe(0);
    // the runs are counted across chunks and inside a chunk longer than the limit
    expect(textRun('abc', 5, 10)).toBe(8);
    expect(() => textRun('abcdef', 5, 10)).toThrow('a text of more than 10 characters');
    expect(() => textRun(`<a>${'x'.repeat(20)}<b>`, 0, 10)).toThrow('a text of more than 10 characters');
    expect(textRun('xx<a>yyy', 3, 10)).toBe(5); // counted from the last '<' (a tag's own characters are few)
  });
});
