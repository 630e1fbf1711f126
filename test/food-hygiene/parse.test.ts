/** The streaming reader and the normalisations, on the real files and on small format-true edge cases. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJsonFile } from '../../src/data.js';
import { csvOfEstablishment, normalisePostcode, normaliseRating, type CsvExtras } from '../../src/domains/food-hygiene/normalise.js';
import { MalformedFileError, parseAuthorityFile } from '../../src/domains/food-hygiene/parse.js';
import { RATING_VALUES } from '../../src/domains/food-hygiene/routes.js';
import { boundingBox, cellRange, gridCell } from '../../src/mirror/geo.js';
import { cleanup, tempDir } from '../property/mirror-helper.js';
import { AUTHORITIES, fileName, FIXTURE_DIR, haversineKm, readXml, SPEC_VALUE } from './fixture.js';

const dir = tempDir('pd-food-parse-');
afterAll(() => cleanup([dir]));

describe('parseAuthorityFile', () => {
  it.each(AUTHORITIES.map((a) => a.code))('FHRS%sen-GB.xml: every establishment, in file order, with the fields the XML holds', async (code) => {
    const got: Array<Record<string, string>> = [];
    const { header, count } = await parseAuthorityFile(join(FIXTURE_DIR, fileName(code)), (e) => got.push({ ...e }));
    const xml = readXml(fileName(code));
    expect(count).toBe(xml.length);
    expect(got.map((e) => Number(e.FHRSID))).toEqual(xml.map((e) => e.id));
    expect(got.map((e) => e.BusinessName)).toEqual(xml.map((e) => e.name));
    expect(got.map((e) => e['Geocode.Latitude'] === undefined)).toEqual(xml.map((e) => e.lat === null));
    expect(header.returnCode).toBe('Success');
  });

  it('a cut file, a wrong root and text that is not XML are MalformedFileError with a position', async () => {
    const cut = join(dir, 'cut.xml');
    writeFileSync(cut, '<?xml version="1.0"?><FHRSEstablishment><Header><ExtractDate>2020-01-01</ExtractDate></Header><EstablishmentCollection><EstablishmentDetail><FHRSID>1</FHRSID></EstablishmentDetail><EstablishmentDetail><FHRSID>2</FHR');
    const err = await parseAuthorityFile(cut, () => undefined).catch((e) => e);
    expect(err).toBeInstanceOf(MalformedFileError);
    expect(err.establishmentsRead).toBe(1);
    const root = join(dir, 'root.xml');
    writeFileSync(root, '<html><body>Service unavailable</body></html>');
    expect((await parseAuthorityFile(root, () => undefined).catch((e) => e)).message).toMatch(/root element is <html>/);
    const junk = join(dir, 'junk.xml');
    writeFileSync(junk, '{"error": "not xml"}');
    expect(await parseAuthorityFile(junk, () => undefined).catch((e) => e)).toBeInstanceOf(MalformedFileError);
  });
});

describe('normalisations', () => {
  it('every published spelling of data/food-hygiene/rating-values.json maps to a value of the route enum, and every enum value is reachable', () => {
    const data = loadJsonFile<{ values: Array<{ value: string; published: string[] }> }>('food-hygiene/rating-values.json');
    expect(data.values.map((v) => v.value).sort()).toEqual([...RATING_VALUES].sort());
    for (const [published, value] of Object.entries(SPEC_VALUE)) expect(normaliseRating(published)?.value).toBe(value);
    expect(normaliseRating('AWAITING_INSPECTION')?.value).toBe('awaiting_inspection');
    expect(normaliseRating('Excellent')).toBeUndefined();
    expect(normaliseRating('4')?.numeric).toBe(4);
    expect(normaliseRating('Pass')?.numeric).toBeNull();
  });

  it('postcodes: the usual form; an address line that is exactly a postcode when PostCode is absent', () => {
    expect(normalisePostcode(' ts6  6ud ')).toBe('TS6 6UD');
    expect(normalisePostcode('GU71BD')).toBe('GU7 1BD');
    expect(normalisePostcode('Tees Dock Road')).toBeUndefined();
    const extras: CsvExtras = { unknownRating: undefined };
    const line = csvOfEstablishment({ FHRSID: '5', AddressLine1: 'Dock', AddressLine3: 'ts6 6ud', RatingValue: 'Unknown Thing' }, '648', extras);
    // the staged columns: fhrs_id, la_business_id, name, type, type_id, 4 address lines, then the postcode
    expect(typeof line === 'string' && line.split(',').slice(5, 12)).toEqual(['"Dock"', '', '"ts6 6ud"', '', '"TS6 6UD"', '', '"AddressLine3"']);
    expect(extras.unknownRating).toBe('Unknown Thing');
    expect(csvOfEstablishment({ FHRSID: 'x1' }, '648', extras)).toEqual({ reject: "FHRSID 'x1' is not a whole number" });
  });

  it('grid cells order points by latitude band; a search box holds every point within the radius', () => {
    expect(gridCell(51.185, -0.611)).toBeLessThan(gridCell(51.195, -0.611));
    expect(gridCell(51.185, -0.611)).toBeLessThan(gridCell(51.185, -0.601));
    const pts = readXml('FHRS314en-GB.xml').filter((e) => e.lat !== null);
    const c = pts[0]!;
    const box = { ...boundingBox(c.lat!, c.lng!, 3), ...cellRange(boundingBox(c.lat!, c.lng!, 3)) };
    for (const p of pts) {
      if (haversineKm(c.lat!, c.lng!, p.lat!, p.lng!) > 3) continue;
      const cell = gridCell(p.lat!, p.lng!);
      expect(cell >= box.minCell && cell <= box.maxCell && p.lat! >= box.minLat && p.lat! <= box.maxLat && p.lng! >= box.minLng && p.lng! <= box.maxLng).toBe(true);
    }
  });
});

