/**
 * Response schemas of the property routes, transcribed from docs/spec/2-property-companies.md (§2 Property
 * resources, §4 Designations, House price index, Council tax, Sold prices) and the envelope rules of
 * 1-overview-auth-errors-limits.md §1. Where the spec says "not shown" (the designation list body, the
 * names of the coordinate fields, the type of boundary_reference), the shape is the one built
 * (src/domains/property/designations.ts, docs/property.md) and `source` says so. Fields publicdata adds
 * beyond the spec are declared with ext().
 */
import {
  arr, bool, date, ext, int, nullable, num, obj, oneOf, str, type JsonSchema, type ResponseSchemas,
} from '../../contract/schema.js';

const SPEC = '2-property-companies.md';
/** Meta of data endpoints (overview §1.3): licence and publisher; source_url where the endpoint lists it. */
const META = ['licence', 'source'];
const META_URL = ['licence', 'source', 'source_url'];

const url = (description?: string): JsonSchema => ({ type: 'string', format: 'uri', ...(description ? { description } : {}) });

// ---------------------------------------------------------------------------------------------------
// Designations (§2 "Designation entity", §4 Designations)

/**
 * The list item: the spec's entity fields, the coordinates and boundary_reference (names not shown), and publicdata's extras,
 * in the order the answer writes them (the CSV columns follow the schema's order).
 */
const designationItem = {
  entity_id: int('stable platform entity identifier'),
  name: str(),
  reference: ext(nullable(str()), "the designation's reference at its organisation (e.g. the list entry number)"),
  organisation_entity: ext(nullable(int()), 'the contributing organisation entity (the filter organisation_entity matches it)'),
  latitude: nullable(num('WGS84; null when the source supplied no point (field name not shown in the spec; as built)')),
  longitude: nullable(num('WGS84; null when the source supplied no point (field name not shown in the spec; as built)')),
  boundary_reference: nullable(
    str("the entity's GeoJSON on planning.data.gov.uk when the upstream entity has a polygon, else null (type not shown in the spec; as built)"),
  ),
  start_date: ext(nullable(date()), "planning.data.gov.uk's start-date of the entity"),
  end_date: ext(nullable(date()), "planning.data.gov.uk's end-date of the entity (null while in force)"),
  source_url: url('upstream entity page'),
};

const designationDetail = (extra: Record<string, JsonSchema>): JsonSchema =>
  obj({
    ...designationItem,
    dataset: ext(nullable(str()), 'the planning.data.gov.uk dataset (listed-building or conservation-area)'),
    entry_date: ext(nullable(date()), 'the date of the entry in planning.data.gov.uk'),
    documentation_url: ext(nullable(str()), "the designating body's page for the entity, when the source gives one"),
    ...extra,
  });

const DESIGNATION_LIST_SOURCE = `${SPEC} §4 Designations ("The list response body: not shown"; as built, docs/property.md): an array of designation entities (§2) with the list's columns`;
const DESIGNATION_GET_SOURCE = `${SPEC} §2 "Designation entity" (coordinate and boundary_reference field names: not shown; as built, docs/property.md)`;

// ---------------------------------------------------------------------------------------------------
// House price index (§2 "House price index record")

const change = (what: string) => nullable(num(`percent; ${what}`));
const breakdown = {
  price: nullable(num('pounds')),
  index: nullable(num('index points')),
  monthly_change: nullable(num('percent')),
  annual_change: nullable(num('percent')),
};
const BREAKDOWN_NOTE = 'null fields where the published row did not supply that breakdown (§2)';
const plain = obj(breakdown, { description: BREAKDOWN_NOTE });
const withVolume = obj({ ...breakdown, sales_volume: nullable(num()) }, { description: BREAKDOWN_NOTE });

const hpiRecord = obj({
  date: date('first day of the month'),
  region: obj({ code: str('official area code'), name: str() }),
  average_price: num('pounds'),
  index: num('index points'),
  index_sa: nullable(num('seasonally adjusted index; not available for every geography (null there)')),
  monthly_change: change('null when the published row did not supply it (§2: any change is null then)'),
  annual_change: change('null when the published row did not supply it (§2: any change is null then)'),
  average_price_sa: nullable(num('pounds, seasonally adjusted; not available for every geography, as index_sa (null there)')),
  sales_volume: nullable(num()),
  detached: plain,
  semi_detached: plain,
  terraced: plain,
  flat: plain,
  ftb: plain,
  foo: plain,
  cash: withVolume,
  mortgage: withVolume,
  new_build: withVolume,
  old: withVolume,
});

// ---------------------------------------------------------------------------------------------------
// Council tax (§2 "Council tax record")

const councilTaxRecord = obj({
  authority_code: str('ONS billing-authority code'),
  authority_name: str(),
  financial_year: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-YY' },
  band: oneOf(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']),
  amount: num('annual full-area charge in pounds for a two-adult household before discounts'),
});

// ---------------------------------------------------------------------------------------------------
// Sold prices (§2 "Sold-price transaction", "Sold-price statistics")

const transactionItem = {
  id: { type: 'string', format: 'uuid', description: 'the transaction UUID (lower case)' },
  price: int('pounds'),
  date: date(),
  postcode: nullable(str('null for the few sales HM Land Registry published without a postcode (the spec is silent on them)')),
  property_type: oneOf(
    ['detached', 'semi_detached', 'terraced', 'flat', 'other'],
    "the spec's four values; 'other' is HM Land Registry's type O (commercial or unclassified, category B sales only), which the spec does not list",
  ),
  new_build: bool(),
  tenure: str("values seen: leasehold, freehold; 'unknown' where HM Land Registry publishes U"),
  address: str(),
};

const transactionDetail = obj({
  ...transactionItem,
  estate_type: oneOf(['freehold', 'leasehold', 'unknown'], "HM Land Registry's linked-data name for the tenure; 'unknown' where it publishes U (with a meta.note)"),
  town: str(),
  district: str(),
  county: str(),
  paon: ext(nullable(str()), 'primary addressable object name (house number or name) as published'),
  saon: ext(nullable(str()), 'secondary addressable object name (flat, unit) as published'),
  street: ext(nullable(str()), 'street as published'),
  locality: ext(nullable(str()), 'locality as published'),
  ppd_category: ext(oneOf(['A', 'B']), 'A: standard price paid entry; B: additional (repossessions, buy-to-let, non-private buyers)'),
});

const transactionPage = obj({
  transactions: arr(obj(transactionItem)),
  pagination: obj({ page: int(), per_page: int(), total: int() }, { description: 'inside data, without total_pages (overview §1.4)' }),
});

const EMPTY_NULL = 'null when there is no sale to measure (the spec is silent on an empty area)';
const typeStats = obj({ average: nullable(num(`pounds; ${EMPTY_NULL}`)), median: nullable(num(`pounds; ${EMPTY_NULL}`)), count: int() });

const statistics = obj(
  {
    area: str('echoes the area queried'),
    transaction_count: int(),
    overall: obj({
      average: nullable(num(`pounds; ${EMPTY_NULL}`)),
      median: nullable(num(`pounds; ${EMPTY_NULL}`)),
      min: nullable(num(`pounds; ${EMPTY_NULL}`)),
      max: nullable(num(`pounds; ${EMPTY_NULL}`)),
    }),
    by_type: obj({ flat: typeStats, terraced: typeStats, detached: typeStats, semi_detached: typeStats }),
    period: ext(obj({ from: nullable(date()), to: nullable(date()) }), 'the from/to dates the statistics were limited to (present only when given)'),
  },
  { optional: ['period'] },
);

export const responses: ResponseSchemas = {
  'property.listed-buildings.list': { data: arr(obj(designationItem)), meta: META, source: DESIGNATION_LIST_SOURCE },
  'property.listed-buildings.get': {
    data: designationDetail({ grade: ext(nullable(str()), 'the listing grade (I, II*, II)') }),
    meta: META,
    source: DESIGNATION_GET_SOURCE,
  },
  'property.conservation-areas.list': { data: arr(obj(designationItem)), meta: META, source: DESIGNATION_LIST_SOURCE },
  'property.conservation-areas.get': {
    data: designationDetail({ designation_date: ext(nullable(date()), 'the date the area was designated') }),
    meta: META,
    source: DESIGNATION_GET_SOURCE,
  },
  'property.hpi': { data: arr(hpiRecord), meta: META_URL, source: `${SPEC} §2 "House price index record", §4 House price index` },
  'property.hpi.regions': { data: arr(obj({ code: str(), name: str() })), meta: META_URL, source: `${SPEC} §2 "HPI region", §4 House price index` },
  'property.council-tax': { data: arr(councilTaxRecord), meta: META_URL, source: `${SPEC} §2 "Council tax record", §4 Council tax` },
  'property.price-paid.search': { data: transactionPage, meta: META_URL, source: `${SPEC} §2 "Sold-price transaction" (list), §4 Sold prices` },
  'property.price-paid.address': { data: transactionPage, meta: META_URL, source: `${SPEC} §4 Sold prices ("Response shape as for search")` },
  'property.price-paid.get': { data: transactionDetail, meta: META, source: `${SPEC} §2 "Sold-price transaction" (detail), §4 Sold prices` },
  'property.price-paid.statistics': {
    data: statistics,
    meta: META,
    source: `${SPEC} §2 "Sold-price statistics" (the parameters beyond postcode: not shown; as built, docs/property.md)`,
  },
};
