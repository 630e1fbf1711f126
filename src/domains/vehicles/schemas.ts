/**
 * Response schemas of the vehicles routes, transcribed from 3-tax-vehicles-calendar.md §2 "Vehicles"
 * (the records) and §4 "Vehicles" (what each endpoint's `data` and `meta` carry). Every response's `meta`
 * has `licence` (the document's preamble); `source` where the endpoint names it.
 *
 * The spec gives each field a type but says nothing of missing values; the open files have blank cells
 * (a model the publisher left blank, a test with no odometer reading, a collision with no recorded time
 * or position). publicdata never invents a value, so those fields are `null` there: declared nullable
 * below with the reason, the spec's type otherwise unchanged.
 */
import { anyOf, arr, bool, date, ext, int, nullable, num, obj, oneOf, record, str, timestamp, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const DOC = '3-tax-vehicles-calendar.md';
/** The spec's type, or null where the published file has no value (the spec is silent on missing values). */
const blank = (s: JsonSchema, why = 'null where the published file has no value'): JsonSchema => ({ ...nullable(s), description: why });
const quarter = date('quarter end');

const licensingRecord = obj({
  quarter,
  geography: oneOf(['GB', 'UK']),
  licence_status: oneOf(['Licensed', 'SORN']),
  body_type: str(),
  make: str(),
  generic_model: blank(str(), 'null where DfT left the generic model blank'),
  model: blank(str(), 'null where DfT left the model blank'),
  fuel: blank(str(), 'null where DfT left the fuel blank'),
  count: int('individual vehicles; zero-count combinations are omitted'),
});
const { licence_status: _ls, ...regFields } = licensingRecord.properties as Record<string, JsonSchema>;
const registrationRecord = obj(regFields);

const MOT_BLANK = 'null where DVSA recorded none';
const testResult = obj({
  test_id: int(),
  test_date: date(),
  test_year: int(),
  test_class: str(),
  test_type: str(),
  result: oneOf(['passed', 'failed', 'pass_with_rectification']),
  odometer: obj({ reading: blank(int(), 'null where the tester recorded none (0 or blank)'), unit: str() }),
  postcode_area: blank(str(), MOT_BLANK),
  make: blank(str(), MOT_BLANK),
  model: blank(str(), MOT_BLANK),
  colour: blank(str(), MOT_BLANK),
  fuel_type: str('for example petrol, diesel, electric, unknown'),
  cylinder_capacity_cc: blank(int(), MOT_BLANK),
  first_use_date: blank(date(), 'null where unknown (DVSA writes 1971-01-01)'),
});

const passRate = obj({
  make: blank(str(), MOT_BLANK),
  model: blank(str(), MOT_BLANK),
  first_use_year_band: str('five-year band, e.g. 2015-2019, or unknown'),
  vehicle_age_band: oneOf(['0-3', '4-6', '7-9', '10-14', '15-19', '20+', 'unknown']),
  fuel_type: str(),
  test_year: int(),
  statistics: obj({ tests: int(), passes: int(), pass_rate: { ...num('0 to 1'), minimum: 0, maximum: 1 } }),
});

const failureReason = obj({
  make: blank(str(), MOT_BLANK),
  model: blank(str(), MOT_BLANK),
  test_year: int(),
  rfr_type: oneOf(['fail', 'prs', 'advisory', 'minor', 'unknown']),
  defect_category: blank(str(), 'null where the item is not in DVSA\'s item tree'),
  defect_description: blank(str(), 'null where the item is not in DVSA\'s item tree'),
  dangerous: bool(),
  statistics: obj({ failures: int('item rows'), affected_tests: int('distinct anonymised tests') }),
});

const LABEL = 'null where DfT\'s code list has no label for the code';
const label = (): JsonSchema => blank(str(), LABEL);
const collisionFields = {
  collision_index: str(),
  collision_year: int(),
  collision_reference: str(),
  longitude: blank(str(), 'null where the position is not recorded'),
  latitude: blank(str(), 'null where the position is not recorded'),
  collision_severity: int('1 fatal, 2 serious, 3 slight'),
  collision_severity_label: label(),
  number_of_vehicles: int(),
  number_of_casualties: int(),
  collision_date: date(),
  collision_time: blank({ ...str('HH:MM:SS'), pattern: '^\\d{2}:\\d{2}:\\d{2}$' }, 'null where the time is not recorded'),
  police_force: int(),
  local_authority_ons_district: blank(str()),
  speed_limit: int(),
  road_type: int(),
  road_type_label: label(),
  urban_or_rural_area: int(),
  urban_or_rural_area_label: label(),
  lsoa: blank(str()),
};
const vehicle = obj({
  vehicle_reference: int(),
  vehicle_type: int(),
  vehicle_type_label: label(),
  sex_of_driver: int(),
  sex_of_driver_label: label(),
  age_of_driver: int(),
  age_band_of_driver: int(),
  age_band_of_driver_label: label(),
  engine_capacity_cc: int(),
  propulsion_code: int(),
  age_of_vehicle: int(),
  generic_make_model: blank(str()),
  escooter_flag: int(),
});
const casualty = obj({
  vehicle_reference: int(),
  casualty_reference: int(),
  casualty_class: int(),
  casualty_class_label: label(),
  sex_of_casualty: int(),
  sex_of_casualty_label: label(),
  age_of_casualty: int(),
  age_band_of_casualty: int(),
  age_band_of_casualty_label: label(),
  casualty_severity: int(),
  casualty_severity_label: label(),
  casualty_type: int(),
  casualty_type_label: label(),
  casualty_imd_decile: int(),
  pedestrian_location: int(),
  lsoa: blank(str()),
});
const collisionDetail = obj({
  ...collisionFields,
  collision_time: blank(timestamp('the UK clock time as a UTC instant'), 'null where the time is not recorded'),
  collision_local_time: ext(anyOf(str(), { type: 'null' }), 'the UK clock time as recorded, YYYY-MM-DDTHH:MM:SS; null where the time is not recorded'),
  vehicles: arr(vehicle),
  casualties: arr(casualty),
});

const countPoint = obj(
  {
    count_point_id: int(), year: int(), road_name: str(), road_type: str(), latitude: num(), longitude: num(),
    distance_km: ext(num(), 'with lat/lng: km from the point, rounded to the metre (nearest first)'),
  },
  { optional: ['distance_km'] },
);
const flowExt = (what: string): JsonSchema => ext(int(), `${what}, vehicles per day (DfT's file carries every vehicle class)`);
const aadfRecord = obj({
  count_point_id: int(),
  year: int(),
  road_name: str(),
  estimation_method: str(),
  daily_flows: obj({
    // in the order the answer writes them (the CSV columns follow the schema's order)
    pedal_cycles: flowExt('pedal cycles'),
    two_wheeled_motor_vehicles: flowExt('two-wheeled motor vehicles'),
    cars_and_taxis: int(),
    buses_and_coaches: flowExt('buses and coaches'),
    lgvs: flowExt('light goods vehicles'),
    hgvs_2_rigid_axle: flowExt('HGVs, 2 rigid axles'),
    hgvs_3_rigid_axle: flowExt('HGVs, 3 rigid axles'),
    hgvs_4_or_more_rigid_axle: flowExt('HGVs, 4 or more rigid axles'),
    hgvs_3_or_4_articulated_axle: flowExt('HGVs, 3 or 4 articulated axles'),
    hgvs_5_articulated_axle: flowExt('HGVs, 5 articulated axles'),
    hgvs_6_articulated_axle: flowExt('HGVs, 6 articulated axles'),
    all_hgvs: flowExt('all HGVs'),
    all_motor_vehicles: int(),
  }),
  road_category: ext(nullable(str()), 'DfT road category of the point (null where the file has none)'),
  road_type: ext(str(), 'Major or Minor'),
  region_name: ext(str(), 'the region of the point'),
  local_authority_name: ext(str(), 'the local authority of the point'),
});
const regionalRecord = obj({
  year: int(),
  region_name: str(),
  breakdown: oneOf(['vehicle_type', 'road_type']),
  vehicle_miles: record(num(), 'unrounded vehicle miles by vehicle type or road type (the spec: "for example all_motor_vehicles")'),
});
const laRecord = obj({
  year: int(),
  local_authority_name: str(),
  local_authority_code: ext(nullable(str()), 'ONS code of the local authority (null where the file has none)'),
  vehicle_miles: obj({ cars_and_taxis: num(), all_motor_vehicles: num() }),
});

// The radius routes (publicdata extensions: docs/vehicles.md "Road safety near a point")
const NEAR_SOURCE = 'publicdata extension (docs/vehicles.md "Road safety near a point"); the figures of 5-places.md road_safety';
const severityCounts = obj({ fatal: int('collision_severity 1'), serious: int('collision_severity 2'), slight: int('collision_severity 3') });
const nearbyItem = obj({ ...collisionFields, distance_km: ext(num(), 'km from the point, rounded to the metre (nearest first)') });
const nearbySummary = obj({
  lat: ext(num(), 'the point, as asked'),
  lng: ext(num(), 'the point, as asked'),
  radius_km: num(),
  years: obj({ from: int(), to: int() }),
  collisions: int('located collisions within the radius in the years'),
  by_severity: severityCounts,
  casualties: int('number_of_casualties summed over those collisions'),
  by_year: ext(arr(obj({ year: int(), collisions: int(), by_severity: severityCounts, casualties: int() })), 'the same figures for each year of the range (0 where none)'),
});
const NEAR_META = ['licence', 'source', 'coverage', 'years', 'without_location', 'distance'];

const at = (what: string) => `${DOC} §2 Vehicles "${what}", §4 Vehicles`;
const COLLISION_META = ['licence', 'source', 'source_url', 'last_updated', 'coverage', 'date_coverage', 'geography', 'cadence', 'caveat'];

export const responses: ResponseSchemas = {
  'vehicles.licensing': { data: arr(licensingRecord), meta: ['licence', 'source'], source: at('Licensing record') },
  'vehicles.registrations': {
    data: arr(registrationRecord),
    meta: ['licence', 'source', 'source_url', 'last_updated', 'coverage'],
    source: at('Registration record'),
  },
  'vehicles.mot-tests': { data: arr(testResult), meta: ['licence', 'source', 'source_url', 'test_year', 'coverage'], source: at('Test result record') },
  'vehicles.mot-pass-rates': { data: arr(passRate), meta: ['licence', 'source', 'test_year', 'coverage', 'aggregation'], source: at('Pass-rate record') },
  'vehicles.mot-failures': {
    data: arr(failureReason),
    meta: ['licence', 'source', 'test_year', 'coverage', 'aggregation'],
    source: at('Failure-reason record'),
  },
  'vehicles.collisions': { data: arr(obj(collisionFields)), meta: COLLISION_META, source: at('Collision (list item)') },
  'vehicles.collisions.get': { data: collisionDetail, meta: COLLISION_META, source: at('Collision (detail)') },
  'vehicles.road-safety.nearby': { data: arr(nearbyItem), meta: NEAR_META, source: NEAR_SOURCE },
  'vehicles.road-safety.nearby.summary': { data: nearbySummary, meta: NEAR_META, source: NEAR_SOURCE },
  'vehicles.traffic.count-points': { data: arr(countPoint), meta: ['licence', 'source', 'coverage'], source: at('Count point') },
  'vehicles.traffic.aadf': { data: arr(aadfRecord), meta: ['licence', 'source', 'unit'], source: at('Annual average daily flow record') },
  'vehicles.traffic.regional': { data: arr(regionalRecord), meta: ['licence', 'unit', 'presentation'], source: at('Regional traffic record') },
  'vehicles.traffic.local-authority': {
    data: arr(laRecord),
    meta: ['licence', 'unit', 'presentation'],
    source: at('Local-authority traffic record'),
  },
};
