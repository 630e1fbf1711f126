/**
 * A postcode record as spec 5-places.md names its fields, from a `postcodes` row and the names of its area
 * codes (`area_names`, from the edition's own Documents/ lookups). Reference data (countries, deprivation
 * indexes) is data/postcodes/reference.json.
 */
import { loadJsonFile } from '../../data.js';

export interface Reference {
  countries: Record<string, { name: string; division: string | null; tax_region: string | null; price_cap: boolean } | string>;
  deprivation: { columns: string[]; by_country: Record<string, { index: string; of: number }> };
  ni_note: string;
}
export const reference = (): Reference => loadJsonFile<Reference>('postcodes/reference.json');

export type Names = ReadonlyMap<string, string>;
export type Row = Record<string, unknown>;

const ym = (v: unknown): string | null => {
  const s = v === null || v === undefined ? '' : String(v);
  return /^\d{6}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4)}` : null;
};
const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/** A code with its name (or null name), or null for no area. */
function areaOf(code: unknown, names: Names): { code: string; name: string | null } | null {
  const c = str(code);
  return c ? { code: c, name: names.get(`gss:${c}`) ?? null } : null;
}

/** The area codes a row carries (for the name lookup). */
export const AREA_COLUMNS = ['country', 'region', 'lad', 'ward', 'parish', 'pcon', 'oa21', 'lsoa21', 'msoa21', 'lsoa11', 'pfa'] as const;

export function postcodeRecord(r: Row, names: Names, imdColumn: string | null): Record<string, unknown> {
  const postcode = String(r.postcode);
  const [outcode, incode] = postcode.split(' ') as [string, string];
  const lat = r.lat === null || r.lat === undefined ? null : Number(r.lat);
  const ref = reference();
  const country = str(r.country);
  const dep = country && imdColumn && ref.deprivation.columns.includes(imdColumn) ? ref.deprivation.by_country[country] : undefined;
  const rank = r.imd === null || r.imd === undefined ? null : Number(r.imd);
  const ru = str(r.ru);
  return {
    postcode,
    outcode,
    incode,
    sector: `${outcode} ${incode[0]}`,
    status: r.terminated === null || r.terminated === undefined ? 'live' : 'terminated',
    introduced: ym(r.introduced),
    terminated: ym(r.terminated),
    location: lat === null ? null : {
      latitude: lat,
      longitude: Number(r.lng),
      easting: r.easting === null ? null : Number(r.easting),
      northing: r.northing === null ? null : Number(r.northing),
      quality: Number(r.quality),
    },
    country: areaOf(r.country, names),
    // region: England only (the directory's pseudo codes elsewhere are already null)
    region: country === 'E92000001' ? areaOf(r.region, names) : null,
    local_authority: areaOf(r.lad, names),
    ward: areaOf(r.ward, names),
    parish: areaOf(r.parish, names),
    parliamentary_constituency: areaOf(r.pcon, names),
    lsoa: areaOf(r.lsoa21, names),
    msoa: areaOf(r.msoa21, names),
    lsoa_2011: areaOf(r.lsoa11, names),
    output_area: str(r.oa21),
    police_force_area: areaOf(r.pfa, names),
    rural_urban: ru ? { code: ru, label: names.get(`ru:${ru}`) ?? null } : null,
    deprivation: dep && rank !== null && rank >= 1 && rank <= dep.of
      ? { index: dep.index, rank, of: dep.of, decile: Math.floor(((rank - 1) * 10) / dep.of) + 1 }
      : null,
  };
}
