/**
 * Response schemas of the crime routes, transcribed from 4-further-domains.md "Street-level crime" (Street
 * crime, the five routes' `data`). The document's common rules: `meta` carries `licence`, `source`,
 * `source_url` and provenance `as_of`, and here `caveat` (locations are anonymised to snap points);
 * "where the open data cannot give a field, it is null and meta.note says why"; "a response may carry
 * more fields than listed": those publicdata adds are declared with ext().
 */
import { anyOf, arr, ext, int, nullable, num, obj, oneOf, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const DOC = '4-further-domains.md "Street-level crime"';
const orNull = (s: JsonSchema, why: string): JsonSchema => ({ ...nullable(s), description: why });
const MONTH = { ...str('YYYY-MM'), pattern: '^\\d{4}-(0[1-9]|1[0-2])$' };
const CATEGORIES = [
  'anti-social-behaviour', 'bicycle-theft', 'burglary', 'criminal-damage-arson', 'drugs', 'other-theft', 'possession-of-weapons',
  'public-order', 'robbery', 'shoplifting', 'theft-from-the-person', 'vehicle-crime', 'violent-crime', 'other-crime',
];
const UNMAPPED = "null for a Crime type the category map does not know (meta.note says so; category_label keeps the publisher's)";
const category = (): JsonSchema => orNull(oneOf(CATEGORIES), UNMAPPED);

const location = orNull(
  obj({ latitude: num(), longitude: num(), description: nullable(str()) }),
  'null for "No Location" rows (crimes the force could not map)',
);
const lsoa = orNull(obj({ code: str(), name: nullable(str()) }), 'null where the row has no LSOA');
const FORCE = ext(str('force slug, e.g. city-of-london'), 'the force whose archive the row comes from');

const streetFields = {
  crime_id: orNull(str(), 'null for anti-social behaviour'),
  month: MONTH,
  category: category(),
  category_label: str('as published, e.g. "Violence and sexual offences"'),
  force: FORCE,
  reported_by: str(),
  falls_within: str(),
  location,
  lsoa,
  last_outcome: orNull(str('as published'), 'null where none is published (e.g. anti-social behaviour)'),
};
const streetCrime = obj(
  { ...streetFields, distance_km: ext(num(), 'with lat/lng: km from the point, rounded to the metre') },
  { optional: ['distance_km'] },
);

const NOT_HELD = 'null where the mirror holds no street row of the crime (meta.note says which street files of its force are loaded)';
const outcomes = obj(
  {
    crime_id: str(),
    category: orNull(oneOf(CATEGORIES), `${UNMAPPED}; ${NOT_HELD}`),
    month: orNull(MONTH, NOT_HELD),
    location,
    outcomes: arr(obj({ month: MONTH, outcome: str() }), 'oldest first'),
    category_label: ext(nullable(str()), `as published; ${NOT_HELD}`),
    lsoa: ext(lsoa, 'the LSOA of the crime'),
    force: ext(str(), 'the force of the street record (absent where the mirror does not hold it)'),
    last_outcome: ext(nullable(str()), "the street record's last outcome (absent where the mirror does not hold it)"),
    street_records: ext(arr(streetCrime), 'every street row of the Crime ID, where it stands on more than one (as published)'),
  },
  { optional: ['force', 'last_outcome', 'street_records'] },
);

const monthRange = obj({ from: orNull(MONTH, 'null when no month is loaded'), to: orNull(MONTH, 'null when no month is loaded') });
const AREA_NOT_HELD = 'null when no month of the range is held for the area (its force not loaded): not a count of 0; meta.note names the sync that loads it';
const statistics = obj({
  area: anyOf(
    obj({ lat: num(), lng: num(), radius_km: num() }),
    obj({ lsoa: str() }),
    obj({ force: str() }),
  ),
  months: monthRange,
  total: orNull(int(), AREA_NOT_HELD),
  by_category: orNull(arr(obj({ category: category(), category_label: str(), count: int() }), 'largest first'), AREA_NOT_HELD),
  by_month: orNull(arr(
    obj({ month: MONTH, count: int() }),
    "oldest first: the months of the range held for the area (one of its forces' street files loaded; 0 = loaded, no crime); a month not loaded for it is left out and named in meta.note",
  ), AREA_NOT_HELD),
  by_outcome: orNull(arr(obj({ outcome: orNull(str(), 'null: no outcome published (e.g. anti-social behaviour)'), count: int() })), AREA_NOT_HELD),
});

const META = ['licence', 'source', 'source_url', 'as_of', 'caveat'];
export const responses: ResponseSchemas = {
  'crime.street': { data: arr(streetCrime), meta: [...META, 'coverage'], source: `${DOC}: Street crime, GET /v1/crime/street` },
  'crime.outcomes': { data: outcomes, meta: META, source: `${DOC}: GET /v1/crime/outcomes/{crime_id}` },
  'crime.statistics': { data: statistics, meta: META, source: `${DOC}: GET /v1/crime/statistics` },
  'crime.categories': { data: arr(obj({ category: oneOf(CATEGORIES), label: str() })), meta: META, source: `${DOC}: GET /v1/crime/categories` },
  'crime.forces': {
    data: arr(obj({ force: str(), name: str(), months: obj({ from: MONTH, to: MONTH }), street_count: int() })),
    meta: META,
    source: `${DOC}: GET /v1/crime/forces`,
  },
};
