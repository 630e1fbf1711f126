/** Response schemas of the /v1/postcodes routes, transcribed from spec 5-places.md "Postcodes" (field names fixed there). */
import { anyOf, arr, bool, ext, int, nullable, num, obj, oneOf, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';
import type { AreaSectionModule } from '../area-section.js';

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
/** An `ok` section: status, as_of, source, map, and its figures (each section module's own `figures`). */
const ok = (figures: Record<string, JsonSchema>, optional: readonly string[] = []) =>
  obj({
    status: oneOf(['ok']), as_of: nullable(str()), source: arr(str('a request path: run it with publicdata api GET')), ...figures,
    map: ext(arr(obj({ layer: str('the map layer, e.g. crime'), paths: arr(str('a request path without paging')), clip: bool('the requests read beyond the circle: the map keeps the records inside it') }, { optional: ['clip'] })), 'the point requests the area page draws'),
    note: ext(str(), 'how the figure is bounded'),
  }, { optional: ['note', 'map', ...optional] });
const notOk = obj({
  status: oneOf(['not_synced', 'no_coverage', 'no_location']),
  sync: str('not_synced: the command that fills it'),
  note: str('no_coverage, no_location: why'),
}, { optional: ['sync', 'note'] });

/** The area answer's schema, assembled from the declared sections (in their order): a removed domain's section is absent. */
function areaSchema(sections: ReadonlyArray<readonly [string, AreaSectionModule]>): JsonSchema {
  return obj({
    postcode: postcodeSchema,
    sections: obj(Object.fromEntries(sections.map(([name, m]) => [name, anyOf(ok(m.figures, m.optional), notOk)])), { optional: sections.map(([name]) => name) }),
  });
}

export const responses = (sections: ReadonlyArray<readonly [string, AreaSectionModule]>): ResponseSchemas => ({
  'area.profile': { data: areaSchema(sections), meta: ['licence', 'as_of', 'sections_as_of', 'missing', 'radius_km', 'months'], source: AREA_SOURCE },
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
});
