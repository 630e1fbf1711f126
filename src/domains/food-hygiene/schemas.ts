/**
 * Response schemas of the food-hygiene routes, transcribed from 4-further-domains.md "Food hygiene
 * ratings" (Establishment, its detail, the five routes' `data`). The document's common rules: `meta`
 * carries `licence`, `source`, `source_url` and provenance `as_of`, and here `caveat` (ratings.food.gov.uk
 * is the authoritative current rating); "a response may carry more fields than listed": those publicdata
 * adds are declared with ext().
 */
import { arr, bool, date, ext, int, nullable, num, obj, oneOf, record, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const DOC = '4-further-domains.md "Food hygiene ratings"';
const orNull = (s: JsonSchema, why: string): JsonSchema => ({ ...nullable(s), description: why });
const NONE = 'null where the FSA file has none';

const RATING_VALUES = ['0', '1', '2', '3', '4', '5', 'exempt', 'awaiting_inspection', 'awaiting_publication', 'pass', 'pass_and_eat_safe', 'improvement_required'];
const SCHEME = oneOf(['fhrs', 'fhis']);
// JSON objects keep integer-like keys in ascending order, whatever order they are written in: 0 to 5 first
const BY_RATING_ORDER = RATING_VALUES;
const score = (): JsonSchema => orNull(int('lower is better'), NONE);

const rating = {
  value: oneOf(RATING_VALUES),
  numeric: orNull({ ...int('the FHRS number'), minimum: 0, maximum: 5 }, 'null for every value but an FHRS 0 to 5'),
  date: orNull(date(), NONE),
  new_rating_pending: bool(),
};
const establishmentFields = {
  fhrs_id: int(),
  business_name: str(),
  business_type: str(),
  business_type_id: int(),
  address: obj({ lines: arr(str()), postcode: orNull(str(), 'null where the file gives no postcode') }),
  local_authority: obj({ code: str("the FSA's authority code, e.g. \"314\""), name: str() }),
  scheme: SCHEME,
  rating: obj(rating),
  scores: orNull(obj({ hygiene: score(), structural: score(), confidence_in_management: score() }), NONE),
  location: orNull(obj({ latitude: num(), longitude: num() }), NONE),
};

const listItem = obj(
  { ...establishmentFields, distance_km: num('with lat/lng: km from the point, rounded to the metre') },
  { optional: ['distance_km'] },
);

const detail = obj({
  ...establishmentFields,
  address: obj({
    lines: arr(str()),
    postcode: orNull(str(), 'null where the file gives no postcode'),
    postcode_source: ext(nullable(str()), 'the XML element the postcode was read from (a line that is exactly a postcode gives it)'),
    postcode_published: ext(nullable(str()), 'the PostCode element as published, where it differs'),
  }),
  local_authority: obj({ code: str(), name: str(), website: nullable(str()), email: nullable(str()) }),
  rating: obj({
    ...rating,
    published: ext(nullable(str()), 'RatingValue as the FSA published it'),
    key: ext(nullable(str()), "RatingKey as the FSA published it (the rating image's key)"),
  }),
  local_authority_business_id: nullable(str()),
  right_to_reply: nullable(str()),
});

const authority = obj({
  code: str(),
  name: str(),
  scheme: SCHEME,
  establishment_count: int(),
  extract_date: date(),
  region: ext(nullable(str()), "the authority's region in the FSA's authority list"),
  published_count: ext(nullable(int()), 'the ItemCount of its file header'),
  last_published: ext(nullable(str()), "the file's last publication time in the FSA's authority list"),
});

const businessType = obj({ business_type_id: int(), business_type: str(), establishment_count: int() });

const avgScore = (): JsonSchema => nullable(num());
/** An authority on the FSA's list whose file the mirror does not hold: no figures (meta.note names the sync). */
const NOT_LOADED = 'null when the authority asked for is on the FSA list but not loaded: not a count of 0; meta.note names the sync that loads it';

const statistics = obj({
  area: str('the filter echoed, or "all"'),
  establishment_count: orNull(int(), NOT_LOADED),
  // declared value by value, so a CSV has one column per rating
  by_rating: orNull(
    obj(Object.fromEntries([...BY_RATING_ORDER, 'none'].map((v) => [v, int()])), {
      optional: [...BY_RATING_ORDER, 'none'],
      description: "rating value -> count: every value of the schemes the area's establishments are rated under, 0 where none has it; none: establishments whose file gives no rating value",
    }),
    NOT_LOADED,
  ),
  share_4_or_5: orNull({ ...num('0 to 1'), minimum: 0, maximum: 1 }, 'null when there are no FHRS numeric ratings, or the authority is not loaded'),
  average_scores: orNull(obj({ hygiene: avgScore(), structural: avgScore(), confidence_in_management: avgScore() }), 'null when no establishment has scores, or the authority is not loaded'),
});

const META = ['licence', 'source', 'source_url', 'as_of', 'caveat'];
export const responses: ResponseSchemas = {
  'food-hygiene.establishments': { data: arr(listItem), meta: META, source: `${DOC}: Establishment, GET /v1/food-hygiene/establishments` },
  'food-hygiene.establishment': { data: detail, meta: META, source: `${DOC}: Establishment detail, GET /v1/food-hygiene/establishments/{fhrs_id}` },
  'food-hygiene.authorities': { data: arr(authority), meta: META, source: `${DOC}: GET /v1/food-hygiene/authorities` },
  'food-hygiene.business-types': { data: arr(businessType), meta: META, source: `${DOC}: GET /v1/food-hygiene/business-types` },
  'food-hygiene.statistics': { data: statistics, meta: META, source: `${DOC}: GET /v1/food-hygiene/statistics` },
};
