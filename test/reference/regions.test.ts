/**
 * The shared region vocabulary (issue 37) with a vocabulary of the test's own (no domain): the key it
 * matches by, ONS names and GSS codes mapped only where a value says it corresponds, the refusal naming the
 * nearest name and every accepted form, and a pass-through. Then the contract's two halves: validation
 * resolves a `resolve` parameter before its enum, and the live API is sent the resolved value.
 */
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../../src/contract/route.js';
import { validateCall } from '../../src/contract/validate.js';
import { wireValues, withVocabularies } from '../../src/contract/vocabulary.js';
import { regionKey, regionReference, regionResolver } from '../../src/reference/regions.js';

// a made-up parameter: two "zones", north (the North East and North West regions) and capital (London)
const zones = regionResolver({
  what: 'a zone',
  unmatched: 'is in no zone',
  targets: () => [
    { value: 'north', names: ['The North'], gss: ['E12000001', 'E12000002'] },
    { value: 'capital', names: ['Capital Zone'], gss: ['E12000007'] },
  ],
});

describe('region vocabulary', () => {
  it('the data: the nine English regions E12000001-E12000009 and the countries, with ONS names', () => {
    const byCode = new Map(regionReference().areas.map((a) => [a.code, a.name]));
    expect([...byCode.keys()].filter((c) => c.startsWith('E12')).sort()).toEqual(['E12000001', 'E12000002', 'E12000003', 'E12000004', 'E12000005', 'E12000006', 'E12000007', 'E12000008', 'E12000009']);
    expect([byCode.get('E12000002'), byCode.get('W92000004'), byCode.get('S92000003'), byCode.get('N92000002')]).toEqual(['North West', 'Wales', 'Scotland', 'Northern Ireland']);
    expect(regionReference().source.url).toMatch(/^https:/);
  });

  it('matches without case, with spaces, hyphens and underscores alike', () => {
    expect(['North-West', ' north west ', 'NORTH_WEST', 'North  West'].map(regionKey)).toEqual(Array(4).fill('north_west'));
    expect(regionKey('Yorkshire & the Humber')).toBe('yorkshire_and_the_humber');
  });

  it("a value's own names, and ONS names and codes only where a value corresponds", () => {
    expect(['north', 'NORTH', 'the north', 'Capital-Zone'].map(zones)).toEqual(['north', 'north', 'north', 'capital']);
    expect(['North West', 'e12000001', 'north_east', 'LONDON', 'E12000007'].map(zones)).toEqual(['north', 'north', 'north', 'capital', 'capital']);
    const wales = zones('Wales');
    expect(wales).toEqual({ refused: expect.stringContaining("'Wales' is the ONS country Wales (W92000004), which is in no zone.") });
  });

  it('an unknown value names the nearest accepted name and every accepted form', () => {
    const r = zones('Nort West') as { refused: string };
    expect(r.refused).toContain("'Nort West' is not a zone; did you mean 'North West'?");
    expect(r.refused).toContain('north (The North), capital (Capital Zone)');
    expect(r.refused).toContain('North East E12000001, North West E12000002, London E12000007');
  });

  it('passThrough: text the vocabulary does not know is taken as typed', () => {
    const substring = regionResolver({ what: 'x', targets: () => [{ value: 'North West', gss: ['E12000002'] }], passThrough: () => true });
    expect([substring('north_west'), substring('Leeds')]).toEqual(['North West', 'Leeds']);
  });
});

const ROUTE: RouteSpec = {
  id: 'test.zone', method: 'POST', path: '/v1/test/zone', domain: 'test', summary: 'test', cost: 10, errors: ['invalid_region'],
  query: [{ name: 'zone', type: 'string', enum: ['north', 'capital'], vocabulary: 'region', description: 'zone' }],
  body: [
    { name: 'zone', type: 'string', enum: ['north', 'capital'], vocabulary: 'region', error: 'invalid_region', description: 'zone' },
    { name: 'inner', type: 'object', fields: [{ name: 'zone', type: 'string', vocabulary: 'region', description: 'zone' }], description: 'nested' },
    { name: 'note', type: 'string', description: 'untouched' },
  ],
};

describe('the contract', () => {
  const route = withVocabularies(ROUTE, { region: zones });

  it('validation resolves first (query, body, nested), then checks the enum; a refusal has the parameter\'s code', () => {
    const req = validateCall(route, {}, { zone: 'North West' }, { zone: 'E12000007', inner: { zone: 'the north' }, note: 'North West' });
    expect(req.query).toEqual({ zone: 'north' });
    expect(req.body).toEqual({ zone: 'capital', inner: { zone: 'north' }, note: 'North West' });
    expect(() => validateCall(route, {}, {}, { zone: 'Wales' })).toThrow(expect.objectContaining({ status: 400, code: 'invalid_region' }));
    expect(() => validateCall(route, {}, { zone: 'Narnia' }, {})).toThrow(expect.objectContaining({ status: 400, code: 'invalid_parameter' }));
  });

  it('the live API is sent the resolved values, everything else as typed', () => {
    const query = { zone: 'North West' };
    const body = { zone: 'E12000007', inner: { zone: 'the north' }, note: 'North West' };
    const req = validateCall(route, {}, query, body);
    expect(wireValues(route, query, body, req)).toEqual({ query: { zone: 'north' }, body: { zone: 'capital', inner: { zone: 'north' }, note: 'North West' } });
    // what the caller passed is not changed
    expect([query.zone, body.zone]).toEqual(['North West', 'E12000007']);
  });

  it('a parameter whose vocabulary the manifest does not resolve is an error when the registry is built', () => {
    expect(() => withVocabularies(ROUTE, {})).toThrow(/takes the 'region' vocabulary, which its manifest does not resolve/);
  });
});
