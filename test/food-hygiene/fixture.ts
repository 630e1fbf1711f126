/**
 * Food-hygiene test support: the real FSA files in test/fixtures/food-hygiene, a generated FSA API v2
 * authorities list pointing at a local server, and an independent reader of the XML (regular expressions
 * over the text, not the sync's saxes parser) for the expected values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURE_DIR = join(__dirname, '..', 'fixtures', 'food-hygiene');

export interface ListEntry {
  code: string;
  name: string;
  region: string;
  scheme: 1 | 2;
  published: string;
  count: number;
}

/** The four real files' authorities (names from their LocalAuthorityName; list dates made up for the test). */
export const AUTHORITIES: ListEntry[] = [
  { code: '314', name: 'Waverley', region: 'South East', scheme: 1, published: '2020-11-15T00:31:02.11', count: 1024 },
  { code: '626', name: 'Hull and Goole Port', region: 'Yorkshire and Humberside', scheme: 1, published: '2020-11-04T00:30:11.2', count: 8 },
  { code: '648', name: 'River Tees', region: 'North East', scheme: 1, published: '2020-09-15T00:30:40.7', count: 7 },
  { code: '760', name: 'Aberdeen City', region: 'Scotland', scheme: 2, published: '2020-10-09T00:33:10.5', count: 2051 },
];

export const fileName = (code: string): string => `FHRS${code}en-GB.xml`;

/** An API v2 `/Authorities` answer (the fields the shared format notes list), FileName on `base`. */
export function authoritiesJson(base: string, entries: readonly ListEntry[] = AUTHORITIES): string {
  return JSON.stringify({
    authorities: entries.map((a, i) => ({
      LocalAuthorityId: 100 + i,
      LocalAuthorityIdCode: a.code,
      Name: a.name,
      FriendlyName: a.name.toLowerCase().replace(/\s+/g, '-'),
      Url: 'http://www.example.gov.uk',
      RegionName: a.region,
      FileName: `${base}/OpenDataFiles/${fileName(a.code)}`,
      FileNameWelsh: null,
      EstablishmentCount: a.count,
      CreationDate: '2010-08-17T00:00:00',
      LastPublishedDate: a.published,
      SchemeType: a.scheme,
      links: [],
    })),
    meta: { dataSource: 'Lucene', extractDate: '0001-01-01T00:00:00', itemCount: 0, returncode: 'OK', totalCount: entries.length, totalPages: 1, pageSize: entries.length, pageNumber: 1 },
    links: [],
  });
}

export interface XmlEstablishment {
  id: number;
  name: string;
  rating: string;
  postcode: string | null;
  lines: string[];
  lat: number | null;
  lng: number | null;
  scores: boolean;
  code: string;
}

const decode = (s: string): string => s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'");
const field = (block: string, tag: string): string | null => {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(block);
  return m ? decode(m[1]!) : null;
};

/** The header's ExtractDate of a fixture file. */
export function extractDate(file: string): string {
  return /<ExtractDate>([^<]*)<\/ExtractDate>/.exec(readFileSync(join(FIXTURE_DIR, file), 'utf8'))![1]!;
}

/** Every EstablishmentDetail of a fixture file, read with regular expressions. */
export function readXml(file: string): XmlEstablishment[] {
  const text = readFileSync(join(FIXTURE_DIR, file), 'utf8');
  return text.split('<EstablishmentDetail>').slice(1).map((block) => {
    const lat = field(block, 'Latitude');
    const lng = field(block, 'Longitude');
    return {
      id: Number(field(block, 'FHRSID')),
      name: field(block, 'BusinessName') ?? '',
      rating: field(block, 'RatingValue') ?? '',
      postcode: field(block, 'PostCode'),
      lines: [1, 2, 3, 4].map((i) => field(block, `AddressLine${i}`)).filter((l): l is string => l !== null),
      lat: lat === null ? null : Number(lat),
      lng: lng === null ? null : Number(lng),
      scores: /<Scores>/.test(block),
      code: field(block, 'LocalAuthorityCode') ?? '',
    };
  });
}

/** The spec's value of a published rating, written out here rather than taken from the sync's table. */
export const SPEC_VALUE: Record<string, string> = {
  '0': '0', '1': '1', '2': '2', '3': '3', '4': '4', '5': '5',
  Exempt: 'exempt', AwaitingInspection: 'awaiting_inspection', 'Awaiting Inspection': 'awaiting_inspection',
  AwaitingPublication: 'awaiting_publication', 'Awaiting Publication': 'awaiting_publication',
  Pass: 'pass', 'Pass and Eat Safe': 'pass_and_eat_safe', 'Improvement Required': 'improvement_required',
};

/** Haversine distance in km (written independently of src/mirror/geo.ts). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const R = 6371.0088;
  const toRad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * toRad) / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(((lng2 - lng1) * toRad) / 2) ** 2;
  return 2 * R * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}
