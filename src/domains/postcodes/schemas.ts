/** Response schemas of the /v1/postcodes routes, transcribed from spec 5-places.md "Postcodes" (field names fixed there). */
import { any, anyOf, arr, ext, int, nullable, num, obj, oneOf, record, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const SOURCE = '5-places.md §Postcodes (a publicdata extension)';
const areaRef = nullable(obj({ code: str('GSS code'), name: nullable(str("from the edition's own name lookups; null where they give none")) }));

export const postcodeSchema: JsonSchema = obj({
  postcode: str('display form, e.g. LS8 3BS'),
  outcode: str(),
  incode: str(),
  sector: str('e.g. LS8 3'),
  status: oneOf(['live', 'terminated']),
  introduced: nullable(str('YYYY-MM')),
  terminated: nullable(str('YYYY-MM')),
  location: nullable(obj({
    latitude: num(), longitude: num(), easting: nullable(int()), northing: nullable(int()),
    quality: int('the directory\'s grid reference quality, 1 to 8'),
  }, { description: 'null when the directory has no grid reference (quality 9)' })),
  country: areaRef,
  region: areaRef,
  local_authority: areaRef,
  ward: areaRef,
  parish: areaRef,
  parliamentary_constituency: areaRef,
  lsoa: areaRef,
  msoa: areaRef,
  lsoa_2011: areaRef,
  output_area: nullable(str()),
  police_force_area: areaRef,
  rural_urban: nullable(obj({ code: str(), label: nullable(str()) })),
  deprivation: nullable(obj({ index: str(), rank: int('1 = most deprived'), of: int(), decile: int('1 to 10, 1 = most deprived') })),
});

const META = ['licence', 'source', 'source_url', 'edition'];

const AREA_SOURCE = '5-places.md §Area profile (a publicdata extension)';
const months = obj({ from: str('YYYY-MM'), to: str('YYYY-MM') });
/** An `ok` section: status, as_of, source, and its figures (each section's own fields below). */
const ok = (figures: Record<string, JsonSchema>, optional: string[] = []) =>
  obj({ status: oneOf(['ok']), as_of: nullable(str()), source: arr(str('a request path: run it with publicdata api GET')), ...figures, note: ext(str(), 'how the figure is bounded') },
    { optional: ['note', ...optional] });
const notOk = obj({
  status: oneOf(['not_synced', 'no_coverage', 'no_location']),
  sync: str('not_synced: the command that fills it'),
  note: str('no_coverage, no_location: why'),
}, { optional: ['sync', 'note'] });
const section = (figures: Record<string, JsonSchema>, optional: string[] = []) => anyOf(ok(figures, optional), notOk);
const pricePaidArea = obj({
  area: str(), months, sales: int(), median_price: nullable(num()), mean_price: nullable(num()),
  by_property_type: arr(obj({ property_type: str(), sales: int(), median_price: nullable(num()) })),
});
const earningsArea = nullable(obj({ code: str(), name: nullable(str()), year: int(), median: nullable(num()), status: str() }));

const areaSchema = obj({
  postcode: postcodeSchema,
  sections: obj({
    property: section({
      price_paid: nullable(obj({ sector: pricePaidArea, district: pricePaidArea })),
      hpi: nullable(obj({ area: str(), month: str(), average_price: nullable(num()), annual_change_percent: nullable(num()) })),
      council_tax: nullable(obj({ year: str(), local_authority: obj({ code: str(), name: nullable(str()) }), band_d: nullable(num()), bands: record(num()) })),
      not_synced: ext(arr(str()), 'the sync commands of the parts not synced'),
    }, ['not_synced']),
    crime: section({ months, radius_km: num(), total: int(), by_category: arr(any('as /v1/crime/statistics by_category')), by_month: arr(obj({ month: str(), count: int() })) }),
    schools: section({ radius_km: num(), count: int(), by_phase: record(int()), by_outcome: record(int()), nearest: arr(obj({ urn: int(), name: str(), phase: nullable(str()), distance_km: num(), latest_inspection: any('as in /v1/schools') })) }),
    food_hygiene: section({ radius_km: num(), count: int(), by_rating: record(int()), share_4_or_5: nullable(num()), lowest_rated: arr(obj({ fhrs_id: int(), business_name: str(), rating: int(), distance_km: num() })) }),
    road_safety: section({ radius_km: num(), years: obj({ from: int(), to: int() }), collisions: int(), by_severity: obj({ fatal: int(), serious: int(), slight: int() }), casualties: int() }),
    traffic: section({ radius_km: ext(num(), 'the circle searched'), count_points: arr(obj({ count_point_id: int(), road_name: nullable(str()), distance_km: num(), year: int(), all_motor_vehicles: nullable(num()) })) }),
    earnings: section({
      local_authority: earningsArea, region: earningsArea, country: earningsArea, suppressed: arr(str()),
      take_home_at_median: nullable(obj({ gross: num(), net: num(), tax_year: str(), of: ext(oneOf(['local_authority', 'region']), 'whose median') })),
    }),
    companies: section({ sector: str(), active_companies: int(), incorporated_last_12_months: int(), by_sic_section: arr(obj({ section: str(), label: nullable(str()), count: int() })) }),
    energy: section({ period_id: str(), region: oneOf(['gb_average']), typical_annual_bill: nullable(num()), rates: obj({ electricity: nullable(obj({ unit_rate: num(), standing_charge: num() })), gas: nullable(obj({ unit_rate: num(), standing_charge: num() })) }) }),
    calendar: section({ division: oneOf(['england-and-wales', 'scotland', 'northern-ireland']), next_bank_holiday: nullable(obj({ date: str(), title: str() })) }),
  }, { optional: ['property', 'crime', 'schools', 'food_hygiene', 'road_safety', 'traffic', 'earnings', 'companies', 'energy', 'calendar'] }),
});

export const responses: ResponseSchemas = {
  'area.profile': { data: areaSchema, meta: ['licence', 'as_of', 'sections_as_of', 'missing', 'radius_km', 'months'], source: AREA_SOURCE },
  'postcodes.detail': { data: postcodeSchema, meta: META, source: SOURCE },
  'postcodes.lookup': {
    data: arr(obj({
      query: ext({}, 'the entry as given'),
      result: nullable(postcodeSchema),
      error: ext(obj({ code: str(), message: str() }), 'why a malformed entry has no result'),
    }, { optional: ['error'] })),
    meta: META,
    source: SOURCE,
  },
  'postcodes.nearest': {
    data: arr({ ...postcodeSchema, properties: { ...(postcodeSchema.properties as object), distance_km: num() }, required: [...(postcodeSchema.required as string[]), 'distance_km'] }),
    meta: META,
    source: SOURCE,
  },
};
