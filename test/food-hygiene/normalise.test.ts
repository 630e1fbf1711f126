/**
 * The staging path's one-step CSV (csvOfEstablishment) against the two-step one it replaced
 * (normaliseEstablishment then csvLine, kept as the reference in ./normalise-oracle.ts): the same line
 * byte for byte, the same reject, the same unknown rating, over every establishment of the real files
 * and over generated records built to hit every branch (quotes, blanks, postcodes in address lines,
 * every rating spelling and unknown ones, bad ids, numbers, geocodes off the globe). The values the sync
 * loads are checked independently of both in sync.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvOfEstablishment, type CsvExtras } from '../../src/domains/food-hygiene/sync/normalise.js';
import { csvLine, normaliseEstablishment } from './normalise-oracle.js';
import { parseAuthorityFile } from '../../src/domains/food-hygiene/sync/parse.js';
import { AUTHORITIES, FIXTURE_DIR, fileName, readXml } from './fixture.js';
import { join } from 'node:path';

function both(e: Record<string, string>, code: string): [string, string] {
  const a = normaliseEstablishment(e, code);
  const extras: CsvExtras = { unknownRating: 'left over from an earlier call' };
  const b = csvOfEstablishment(e, code, extras);
  const two = 'reject' in a ? `reject ${a.reject}` : `${csvLine(a.row)}|${a.unknownRating ?? ''}`;
  const one = typeof b === 'string' ? `${b}|${extras.unknownRating ?? ''}` : `reject ${b.reject}`;
  return [one, two];
}

describe('csvOfEstablishment', () => {
  it('writes the same line as normaliseEstablishment + csvLine for every establishment of the real files', async () => {
    let n = 0;
    for (const a of AUTHORITIES) {
      await parseAuthorityFile(join(FIXTURE_DIR, fileName(a.code)), (e) => {
        const [one, two] = both(e, a.code);
        expect(one).toBe(two);
        n++;
      });
    }
    expect(n).toBe(AUTHORITIES.reduce((k, a) => k + readXml(fileName(a.code)).length, 0));
  });

  it('and for generated records hitting every branch', () => {
    const text = fc.oneof(
      fc.constantFrom('', ' ', 'x"y', '"', 'Caf\u00e9 "Le Coq"', 'a,b', 'line\nbreak', '  padded  '),
      fc.constantFrom('ls6 1ab', 'LS61AB', ' TS6  6UD ', 'EC1A 1BB', 'GIR 0AA', 'not a postcode', 'SW1A1AA'),
      fc.string({ maxLength: 12 }),
    );
    const rating = fc.constantFrom('5', '0', ' 3 ', 'AwaitingInspection', 'Awaiting Inspection', 'awaiting_inspection', 'Pass and Eat Safe',
      'Improvement Required', 'Exempt', 'Pass', 'Something New', '--odd--', '', ' ');
    const number = fc.oneof(fc.constantFrom('', '12', ' 7 ', '-3', '1.5', 'x', '051', '1e3', '91', '-181', '51.5074', '-0.1278', 'NaN', 'Infinity'), fc.double().map(String));
    const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    const record = fc.record({
      FHRSID: optional(fc.oneof(fc.constantFrom('12345', ' 42 ', '-1', 'abc', '', '9007199254740993', '007'), fc.nat().map(String))),
      LocalAuthorityBusinessID: optional(text), BusinessName: optional(text), BusinessType: optional(text), BusinessTypeID: optional(number),
      AddressLine1: optional(text), AddressLine2: optional(text), AddressLine3: optional(text), AddressLine4: optional(text), PostCode: optional(text),
      RatingValue: optional(rating), RatingKey: optional(text),
      RatingDate: optional(fc.constantFrom('2021-08-14', '2021-08-14T00:00:00', ' 2020-01-02 ', 'soon', '')),
      LocalAuthorityCode: optional(text), LocalAuthorityName: optional(text), LocalAuthorityWebSite: optional(text), LocalAuthorityEmailAddress: optional(text),
      'Scores.Hygiene': optional(number), 'Scores.Structural': optional(number), 'Scores.ConfidenceInManagement': optional(number),
      SchemeType: optional(fc.constantFrom('FHRS', 'FHIS', ' fhis ', '')), NewRatingPending: optional(fc.constantFrom('True', 'False', 'true', ' FALSE ', 'maybe', '')),
      'Geocode.Longitude': optional(number), 'Geocode.Latitude': optional(number), RightToReply: optional(text),
    });
    fc.assert(fc.property(record, fc.constantFrom('314', '1'), (e, code) => {
      const [one, two] = both(e as Record<string, string>, code);
      expect(one).toBe(two);
    }), { numRuns: 3000 });
  });
});
