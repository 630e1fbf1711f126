/** Response schemas of the /v1/postcodes routes, transcribed from spec 5-places.md "Postcodes" (field names fixed there). */
import { arr, ext, int, nullable, num, obj, oneOf, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

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

export const responses: ResponseSchemas = {
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
